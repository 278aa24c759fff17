package engine

import (
	"testing"
	"time"
)

// unsent counts the operations due before the end (at origin + i *
// interval) that were not taken, only in the open model.
func TestPacerUnsent(t *testing.T) {
	base := time.Unix(1000, 0)
	for _, c := range []struct {
		name     string
		interval time.Duration
		issued   int64
		end      time.Time
		want     int64
	}{
		{"kept up", 10 * time.Millisecond, 100, base.Add(time.Second), 0},
		{"behind", 10 * time.Millisecond, 40, base.Add(time.Second), 60},
		{"one due at the end is not before it", 10 * time.Millisecond, 0, base.Add(10 * time.Millisecond), 1},
		{"a part interval", 10 * time.Millisecond, 0, base.Add(15 * time.Millisecond), 2},
		{"end before the origin", 10 * time.Millisecond, 0, base.Add(-time.Second), 0},
		{"closed model", 0, 0, base.Add(time.Second), 0},
	} {
		p := pacer{interval: c.interval, origin: base, issued: c.issued}
		if got := p.unsent(c.end); got != c.want {
			t.Errorf("%s: %d unsent, want %d", c.name, got, c.want)
		}
	}
}

// A store that holds one answer from 400 ms into a 1 s open-model run
// at 100 operations a second until past its end leaves the operations
// due meanwhile unsent: the worker waits on that answer, and the run
// counts them due and never sent, neither ok nor failed, every due
// operation accounted for.
func TestNotSentWhenTheStoreStalls(t *testing.T) {
	store := &fakeStore{answer: func(n int64) (time.Duration, error) {
		if n == 40 {
			return time.Second, nil // answered past the deadline
		}
		return 0, nil
	}}
	r := runWriters(t, Config{Rate: 100, Duration: time.Second}, Hooks{}, store, 1, 0)
	op := ingestion(t, r)
	if r.StopReason != "duration" {
		t.Fatalf("stop reason %q", r.StopReason)
	}
	sent := op.OKOperations + op.FailOperations
	if r.NotSent < 50 || sent+r.NotSent < 99 || sent+r.NotSent > 101 {
		t.Fatalf("%d sent (%d ok, %d failed) and %d not sent of the 100 due", sent, op.OKOperations, op.FailOperations, r.NotSent)
	}
}
