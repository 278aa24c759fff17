package metrics

import (
	"testing"
	"time"
)

// Closed intervals keep their histograms out of the heap (the run's own
// slice holds none), and Intervals gives them back whole.
func TestIntervalHistogramsSpilled(t *testing.T) {
	start := time.Now()
	run := NewRun(1, false, start)
	c := run.Client(0)
	for sec := 1; sec <= 3; sec++ {
		for i := 0; i < 10*sec; i++ {
			c.Record(0, 1, time.Duration(i+1)*time.Millisecond, 0)
		}
		run.Snapshot(start.Add(time.Duration(sec) * time.Second))
	}
	for _, iv := range run.intervals {
		if iv.Ops[0].Histogram != "" && run.spill.f != nil {
			t.Fatal("a closed interval's histogram stayed on the heap")
		}
	}
	ivs := run.Intervals()
	if len(ivs) != 3 {
		t.Fatalf("%d intervals, want 3", len(ivs))
	}
	for i, iv := range ivs {
		h, err := Decode(iv.Ops[0].Histogram)
		if err != nil {
			t.Fatalf("interval %d: %v", i, err)
		}
		if want := int64(10 * (i + 1)); h.TotalCount() != want || iv.Ops[0].OKOps != want {
			t.Fatalf("interval %d: histogram of %d values, %d ok operations, want %d", i, h.TotalCount(), iv.Ops[0].OKOps, want)
		}
	}
}
