package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// typeLetters writes a type list compactly: B I L F D T for
// BOOLEAN INT32 INT64 FLOAT DOUBLE TEXT.
func typeLetters(types []ts.DataType) string {
	var b strings.Builder
	for _, t := range types {
		b.WriteByte("BILFDT"[t])
	}
	return b.String()
}

func TestSensorTypes(t *testing.T) {
	tests := []struct {
		name   string
		prop   [6]int64
		n      int
		counts [6]int // per type
		prefix string // the first sensors' types, in order
	}{
		// IoT-benchmark's blocks (Config.initSensorCodes): sensor i takes the
		// first type whose cumulative share reaches (i+1)/n. The expected
		// values were computed with that rule, not with this code.
		{"even, 300 sensors", [6]int64{1, 1, 1, 1, 1, 1}, 300, [6]int{50, 50, 50, 50, 50, 50}, "BBBBBBBBBBBB"},
		{"even, 6 sensors", [6]int64{1, 1, 1, 1, 1, 1}, 6, [6]int{1, 1, 1, 1, 1, 1}, "BILFDT"},
		// The example: IoT-benchmark gives 1:2:2:1:2:2.
		{"even, 10 sensors", [6]int64{1, 1, 1, 1, 1, 1}, 10, [6]int{1, 2, 2, 1, 2, 2}, "BIILLFDDTT"},
		{"all DOUBLE", [6]int64{0, 0, 0, 0, 1, 0}, 3000, [6]int{0, 0, 0, 0, 3000, 0}, "DDDD"},
		{"1:2 with 10", [6]int64{1, 2, 0, 0, 0, 0}, 10, [6]int{3, 7, 0, 0, 0, 0}, "BBBIIIIIII"},
		// Positions 0.5 and 1.0 fall in INT64's and TEXT's blocks.
		{"fewer sensors than types", [6]int64{1, 1, 1, 1, 1, 1}, 2, [6]int{0, 0, 1, 0, 0, 1}, "LT"},
		{"large weights", [6]int64{999_999_999, 1, 0, 0, 0, 0}, 1_000_000, [6]int{999_999, 1, 0, 0, 0, 0}, "B"},
		{"large weights, even", [6]int64{maxWeight, maxWeight, 0, 0, 0, 0}, 1_000_000, [6]int{500_000, 500_000, 0, 0, 0, 0}, "BBBB"},
		{"one sensor", [6]int64{0, 0, 0, 0, 0, 5}, 1, [6]int{0, 0, 0, 0, 0, 1}, "T"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SensorTypes(tt.prop, tt.n)
			if len(got) != tt.n {
				t.Fatalf("len = %d, want %d", len(got), tt.n)
			}
			var counts [6]int
			for _, ty := range got {
				counts[ty]++
			}
			if counts != tt.counts {
				t.Errorf("counts = %v, want %v", counts, tt.counts)
			}
			if s := typeLetters(got); !strings.HasPrefix(s, tt.prefix) {
				t.Errorf("order starts %.20s, want %s", s, tt.prefix)
			}
			if !slices.Equal(got, SensorTypes(tt.prop, tt.n)) {
				t.Error("not deterministic")
			}
		})
	}
	for _, bad := range []struct {
		prop [6]int64
		n    int
	}{{[6]int64{}, 10}, {[6]int64{1, -1, 1, 1, 1, 1}, 10}, {[6]int64{1}, 0}, {[6]int64{1}, -5}} {
		if got := SensorTypes(bad.prop, bad.n); got != nil {
			t.Errorf("SensorTypes(%v, %d) = %v, want nil", bad.prop, bad.n, got)
		}
	}
}

// TestSensorTypesBlocks: the types stand in contiguous blocks, in
// proportion order, as in IoT-benchmark.
func TestSensorTypesBlocks(t *testing.T) {
	prop := [6]int64{3, 1, 0, 2, 5, 1}
	types := SensorTypes(prop, 97)
	for i := 1; i < len(types); i++ {
		if types[i] < types[i-1] {
			t.Fatalf("sensor %d is %v after %v: the blocks are out of order", i, types[i], types[i-1])
		}
	}
}
