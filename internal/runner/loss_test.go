package runner

import (
	"reflect"
	"testing"
)

// Acknowledged batch numbers become runs: consecutive ones join, a gap (a
// failed write) starts a new run.
func TestSpansJoinConsecutiveBatches(t *testing.T) {
	for _, c := range []struct {
		batches []int64
		want    spans
	}{
		{nil, nil},
		{[]int64{0, 1, 2}, spans{{0, 3}}},
		{[]int64{0, 1, 3, 4, 7}, spans{{0, 2}, {3, 5}, {7, 8}}},
		{[]int64{5}, spans{{5, 6}}},
	} {
		var s spans
		for _, b := range c.batches {
			s.add(b)
		}
		if !reflect.DeepEqual(s, c.want) {
			t.Errorf("%v: %v, want %v", c.batches, s, c.want)
		}
	}
}
