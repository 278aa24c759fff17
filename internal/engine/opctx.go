package engine

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
//
// Its timer is not reset for every operation: that takes the runtime's
// timer locks twice per operation, shared by the clients of a processor.
// The timer is left running while operations follow one another; when it
// fires before the armed deadline (a later operation's), expire sets it
// again for that deadline. So it fires about once per timeout period, and
// is reset only when an operation's deadline comes before the timer's.
type opContext struct {
	parent context.Context
	timer  *time.Timer

	mu        sync.Mutex
	deadline  time.Time
	armed     bool
	timerSet  bool      // the timer will fire, at timerAt
	timerAt   time.Time // when the set timer fires
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
	now := time.Now()
	c.mu.Lock()
	if c.err != nil && c.parentErr == nil {
		// The last operation's deadline passed: a fresh, open channel.
		c.done, c.err = make(chan struct{}), nil
	}
	c.deadline, c.armed = now.Add(d), true
	if !c.timerSet || c.deadline.Before(c.timerAt) {
		c.timerSet, c.timerAt = true, c.deadline
		c.timer.Reset(d)
	}
	c.mu.Unlock()
}

// disarm ends the operation; the timer is left to fire (see opContext).
func (c *opContext) disarm() {
	c.mu.Lock()
	c.armed = false
	c.mu.Unlock()
}

// expire runs when the timer fires. The armed operation's deadline has
// passed, or the timer was set for an earlier operation's and is set again
// for the armed one's; with no operation armed it is left unset until the
// next arm.
func (c *opContext) expire() {
	now := time.Now()
	c.mu.Lock()
	c.timerSet = false
	live := c.armed && !now.Before(c.deadline)
	if c.armed && !live {
		c.timerSet, c.timerAt = true, c.deadline
		c.timer.Reset(c.deadline.Sub(now))
	}
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
