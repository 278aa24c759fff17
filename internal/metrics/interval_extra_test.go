package metrics

import (
	"errors"
	"testing"
	"time"
)

// Retries and points in doubt are counted in the second they were made in,
// as the live export shows them; a second with nothing else still carries
// them.
func TestIntervalRetriesInDoubt(t *testing.T) {
	start := time.Now()
	r := NewRun(2, false, start)
	a, b := r.Client(0), r.Client(1)
	a.Record(0, 10, time.Millisecond, 0)
	a.Retried(0, 2)
	b.Fail(0, 10, errors.New("i/o timeout"))
	b.Retried(0, 1)
	b.InDoubt(0, 30)
	iv, _ := r.Snapshot(start.Add(time.Second))
	if len(iv.Ops) != 1 || iv.Ops[0].Retries != 3 || iv.Ops[0].InDoubtPoints != 30 || iv.Ops[0].OKOps != 1 || iv.Ops[0].FailOps != 1 {
		t.Fatalf("first second %+v", iv.Ops)
	}
	a.Retried(0, 4) // after its operation's second closed
	iv, _ = r.Snapshot(start.Add(2 * time.Second))
	if len(iv.Ops) != 1 || iv.Ops[0].Retries != 4 || iv.Ops[0].OKOps != 0 || iv.Ops[0].InDoubtPoints != 0 {
		t.Fatalf("second second %+v", iv.Ops)
	}
	if ops := r.Operations(2 * time.Second); ops[0].Retries != 7 {
		t.Errorf("run's retries %d, want 7", ops[0].Retries)
	}
}
