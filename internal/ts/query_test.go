package ts

import "testing"

// A bucket starts at its origin plus whole buckets: the window's start, or
// the clock with ClockBuckets.
func TestBucketStart(t *testing.T) {
	for _, c := range []struct {
		clock    bool
		t, start int64
	}{
		{false, 1_000, 1_000},
		{false, 60_999, 1_000},
		{false, 61_000, 61_000},
		{true, 61_000, 60_000},
		{true, 119_999, 60_000},
		{true, 120_000, 120_000},
	} {
		q := Query{Start: 1_000, End: 200_000, Bucket: 60_000, ClockBuckets: c.clock}
		if got := q.BucketStart(c.t); got != c.start {
			t.Errorf("clock %v: BucketStart(%d) = %d, want %d", c.clock, c.t, got, c.start)
		}
	}
}
