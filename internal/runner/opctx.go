package runner

import (
	"context"
	"sync"
	"time"
)

// opContext is the context a client's operations run under: one per
// client, re-armed with a deadline for each operation, so that the timeout
// of an operation costs no allocation (context.WithTimeout allocates a
// context and a timer per call, which at a million operations a second is
// a tenth of the tool's cost and most of its garbage).
//
// It behaves as a context with a deadline: Done closes and Err says
// context.DeadlineExceeded once the armed deadline passes while the
// operation runs, and both follow the parent (the run's context) for good
// once it is cancelled. A deadline that passes after the operation ended
// cancels nothing: the next arm checks the clock. AfterFunc lets contexts
// that drivers derive from it (net/http, pgx) register without a goroutine
// each, as they do with the standard library's own contexts.
type opContext struct {
	parent context.Context
	timer  *time.Timer

	mu        sync.Mutex
	deadline  time.Time
	armed     bool
	done      chan struct{}
	err       error
	parentErr error // the parent's cancellation: permanent
	funcs     map[*afterFunc]struct{}
}

type afterFunc struct{ f func() }

func newOpContext(parent context.Context) *opContext {
	c := &opContext{parent: parent, done: make(chan struct{})}
	c.timer = time.AfterFunc(time.Hour, c.expire)
	c.timer.Stop()
	context.AfterFunc(parent, func() { c.cancel(context.Cause(parent), true) })
	return c
}

// arm starts an operation that may last d.
func (c *opContext) arm(d time.Duration) {
	c.mu.Lock()
	if c.err != nil && c.parentErr == nil {
		// The last operation's deadline passed: a fresh, open channel.
		c.done, c.err = make(chan struct{}), nil
	}
	c.deadline, c.armed = time.Now().Add(d), true
	c.mu.Unlock()
	c.timer.Reset(d)
}

// disarm ends the operation.
func (c *opContext) disarm() {
	c.timer.Stop()
	c.mu.Lock()
	c.armed = false
	c.mu.Unlock()
}

// expire runs when the timer fires: the deadline counts only if it is the
// armed operation's and has passed (the timer may fire late, or race a
// re-arm).
func (c *opContext) expire() {
	c.mu.Lock()
	live := c.armed && !time.Now().Before(c.deadline)
	c.mu.Unlock()
	if live {
		c.cancel(context.DeadlineExceeded, false)
	}
}

func (c *opContext) cancel(err error, fromParent bool) {
	c.mu.Lock()
	if fromParent {
		c.parentErr = err
	}
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	close(c.done)
	funcs := c.funcs
	c.funcs = nil
	c.mu.Unlock()
	for f := range funcs {
		go f.f()
	}
}

func (c *opContext) Deadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deadline, true
}

func (c *opContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

func (c *opContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *opContext) Value(key any) any { return c.parent.Value(key) }

// AfterFunc arranges f to run once the context is cancelled, as
// context.AfterFunc does; the context package uses it for the contexts
// derived from this one.
func (c *opContext) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	af := &afterFunc{f: f}
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	if c.funcs == nil {
		c.funcs = map[*afterFunc]struct{}{}
	}
	c.funcs[af] = struct{}{}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.funcs[af]
		delete(c.funcs, af)
		return ok
	}
}
