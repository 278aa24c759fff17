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
		{"even, 300 sensors", [6]int64{1, 1, 1, 1, 1, 1}, 300, [6]int{50, 50, 50, 50, 50, 50}, "BILFDTBILFDT"},
		{"even, 6 sensors", [6]int64{1, 1, 1, 1, 1, 1}, 6, [6]int{1, 1, 1, 1, 1, 1}, "BILFDT"},
		// Quotas 1.67 each: the 4 left over go to the earliest types.
		{"even, 10 sensors", [6]int64{1, 1, 1, 1, 1, 1}, 10, [6]int{2, 2, 2, 2, 1, 1}, "BILFDTBILF"},
		{"all DOUBLE", [6]int64{0, 0, 0, 0, 1, 0}, 3000, [6]int{0, 0, 0, 0, 3000, 0}, "DDDD"},
		// Quotas 3.33 and 6.67: the one left over goes to INT32's larger remainder.
		{"1:2 with 10", [6]int64{1, 2, 0, 0, 0, 0}, 10, [6]int{3, 7, 0, 0, 0, 0}, "IBIIBIIIBI"},
		{"fewer sensors than types", [6]int64{1, 1, 1, 1, 1, 1}, 2, [6]int{1, 1, 0, 0, 0, 0}, "BI"},
		// Quotas 999,999.999 and 0.001: the one left over goes to BOOLEAN.
		{"large weights", [6]int64{999_999_999, 1, 0, 0, 0, 0}, 1_000_000, [6]int{1_000_000, 0, 0, 0, 0, 0}, "B"},
		{"large weights, even", [6]int64{maxWeight, maxWeight, 0, 0, 0, 0}, 1_000_000, [6]int{500_000, 500_000, 0, 0, 0, 0}, "BIBI"},
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

// TestSensorTypesSpread: every type's sensors are spread evenly, never
// bunched: in any prefix of length i, a type with count c has
// floor(i*c/n) or ceil(i*c/n) sensors (the smooth round-robin guarantee,
// within one).
func TestSensorTypesSpread(t *testing.T) {
	prop := [6]int64{3, 1, 0, 2, 5, 1}
	const n = 97
	types := SensorTypes(prop, n)
	counts := typeCounts(prop, n)
	var seen [6]int64
	for i, ty := range types {
		seen[ty]++
		for k := range seen {
			ideal := float64(int64(i+1)*counts[k]) / n
			if d := float64(seen[k]) - ideal; d > 1 || d < -1 {
				t.Fatalf("after %d sensors type %v has %d, ideal %.2f", i+1, ts.DataType(k), seen[k], ideal)
			}
		}
	}
}
