package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// The per-client operation context times an operation out like
// context.WithTimeout, forgets a deadline once the operation ended, follows
// its parent for good, cancels contexts derived from it, and costs no
// allocation per operation.
func TestOpContext(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.Background())
	c := newOpContext(parent)

	c.arm(20 * time.Millisecond)
	done := c.Done()
	derived, cancelDerived := context.WithCancel(c)
	defer cancelDerived()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("the deadline did not end the operation")
	}
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v, want DeadlineExceeded", c.Err())
	}
	select {
	case <-derived.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("a context derived from it was not cancelled")
	}
	c.disarm()

	c.arm(time.Hour) // the next operation starts afresh
	if c.Err() != nil || closed(c.Done()) {
		t.Fatalf("re-armed after a timeout: Err %v", c.Err())
	}
	if d, ok := c.Deadline(); !ok || time.Until(d) < 59*time.Minute {
		t.Fatalf("Deadline %v, %v", d, ok)
	}
	c.disarm()

	c.arm(10 * time.Millisecond) // ends in time: the deadline passing later cancels nothing
	c.disarm()
	time.Sleep(30 * time.Millisecond)
	c.arm(time.Hour)
	if c.Err() != nil {
		t.Fatalf("a deadline after the operation's end cancelled the next: %v", c.Err())
	}
	if allocs := testing.AllocsPerRun(100, func() { c.disarm(); c.arm(time.Hour) }); allocs != 0 {
		t.Fatalf("%.1f allocations per operation", allocs)
	}

	c.disarm()
	c.arm(20 * time.Millisecond) // shorter than the timer set for the hour: it still ends in time
	select {
	case <-c.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("a short deadline after a long one did not end the operation")
	}
	c.disarm()

	// Operations that each end in time never time out, though the timer set
	// by the first fires while later ones run.
	for start := time.Now(); time.Since(start) < 500*time.Millisecond; {
		c.arm(200 * time.Millisecond)
		time.Sleep(time.Millisecond)
		if c.Err() != nil {
			t.Fatalf("an operation within its deadline was cancelled: %v", c.Err())
		}
		c.disarm()
	}
	c.arm(20 * time.Millisecond) // and a late one still times out
	select {
	case <-c.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("the deadline did not end an operation after many short ones")
	}
	c.disarm()
	c.arm(time.Hour)

	cancelParent()
	deadline := time.Now().Add(2 * time.Second)
	for !closed(c.Done()) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	c.disarm()
	c.arm(time.Hour)
	if !errors.Is(c.Err(), context.Canceled) || !closed(c.Done()) {
		t.Fatalf("after the run's context ended: Err %v", c.Err())
	}
}
