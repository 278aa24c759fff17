package engine

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
)

// AsyncWorker is a workload's workers served from one goroutine: each
// keeps at most one operation in flight, begun by Begin and ended when
// Wait reports it, so that a target can serve every worker's connection
// from one event loop (targets.StatementLoop) instead of a goroutine each
// that the runtime parks and wakes on every operation (docs/measuring.md).
// The engine paces, times and records their operations as it does
// Worker's, from the same handles; it does not retry them.
type AsyncWorker interface {
	// Begin sends worker i's next operation and returns it; ok is false
	// once i's plan is done. An error is an operation that could not be
	// sent: it counts failed, and nothing is in flight.
	Begin(i int, warm bool) (op Op, ok bool, err error)
	// Wait returns once one or more begun operations have ended, or at
	// until, reporting each through done: its worker, when its answer
	// arrived (a kernel's receive timestamp, or when it was read), what it
	// got and its error. The time from then until done is called is the
	// tool's own, recorded as the operation's client wait. An error of Wait's own ends every
	// operation in flight with it, and the workers with them.
	Wait(until time.Time, done func(i int, at time.Time, got int64, err error)) error
	// Abort gives up worker i's operation in flight (its deadline passed);
	// Wait does not report it.
	Abort(i int)
}

// asyncWait caps a wait with nothing due sooner, so that the loop sees a
// stop or the run's end.
const asyncWait = 50 * time.Millisecond

// asyncYield is how often a driver yields its processor. Its waits are
// system calls the scheduler is not told of, so to it the driver runs
// without end, and every 10 ms it would interrupt it with a signal (a
// preemption: 100 a second a loop, each ending a wait early).
const asyncYield = 5 * time.Millisecond

// asyncSlot is one AsyncWorker worker's state.
type asyncSlot struct {
	h      *Handle
	flight ended     // the operation in flight, while busy
	busy   bool      // flight is in flight
	expiry time.Time // when flight's deadline passes (zero: none)
	// notBefore is the closed model's next step with OP_MIN_INTERVAL.
	notBefore time.Time
	over      bool // begins nothing more in this phase
	pastEnd   bool // its next operation would be due past the deadline
}

// asyncDriver drives an AsyncWorker's workers through a phase.
type asyncDriver struct {
	e     *Engine
	ctx   context.Context
	w     AsyncWorker
	slots []asyncSlot
	// broken: Wait failed, and the workers begin nothing more.
	broken bool
	endFn  func(int, time.Time, int64, error) // d.end, made once: no allocation per Wait
}

// driveAsync runs w's workers through the warm-up and then the measured
// phase, as drive does one Worker's.
func (e *Engine) driveAsync(ctx context.Context, w AsyncWorker, handles []*Handle) {
	d := &asyncDriver{e: e, ctx: ctx, w: w, slots: make([]asyncSlot, len(handles))}
	for i, h := range handles {
		d.slots[i].h = h
	}
	d.endFn = d.end
	d.phase(true)
	<-e.release // every worker starts measuring together
	now := time.Now()
	idle := false
	for i := range d.slots {
		d.slots[i].over = false
		d.slots[i].h.pacer.start(now)
	}
	d.phase(false)
	for _, s := range d.slots {
		idle = idle || s.pastEnd
	}
	if idle {
		// As drive's workers do: an open model's phase lasts its length,
		// and the achieved rate is counted over all of it.
		sleepUntil(e.deadline, e.stop)
	}
}

// phase begins each worker's operations while the phase lets it, waits for
// them to end, and returns once every worker is over and none is in
// flight.
func (d *asyncDriver) phase(warm bool) {
	yielded := time.Now()
	for {
		now := time.Now()
		if now.Sub(yielded) >= asyncYield {
			runtime.Gosched()
			yielded = now
		}
		wake := now.Add(asyncWait)
		live := false
		for i := range d.slots {
			s := &d.slots[i]
			if !s.busy && !s.over {
				if s.over = !d.may(s, warm); !s.over {
					wake = d.beginDue(i, s, warm, now, wake)
				}
			}
			if s.busy && !s.expiry.IsZero() && s.expiry.Before(wake) {
				wake = s.expiry
			}
			live = live || s.busy || !s.over
		}
		if !live {
			return
		}
		if err := d.w.Wait(wake, d.endFn); err != nil {
			d.broken = true
			d.endAll(fmt.Errorf("client loop: %w", err))
			return
		}
		d.expire(time.Now())
		if err := d.ctx.Err(); err != nil {
			d.endAll(err)
		}
	}
}

// may reports whether worker s may begin another operation in the phase.
func (d *asyncDriver) may(s *asyncSlot, warm bool) bool {
	e := d.e
	if d.broken || e.Stopped() || d.ctx.Err() != nil {
		return false
	}
	if warm {
		return time.Now().Before(e.warmupEnd) && !s.h.pacer.dueFrom(e.warmupEnd)
	}
	s.pastEnd = s.h.pastDeadline()
	return !s.pastEnd
}

// beginDue begins worker i's next operation if it is due by now, and
// returns wake, moved earlier to when it is due if it is not.
func (d *asyncDriver) beginDue(i int, s *asyncSlot, warm bool, now, wake time.Time) time.Time {
	p := &s.h.pacer
	due := p.next()
	if s.notBefore.After(due) {
		due = s.notBefore
	}
	if due.After(now) {
		return minTime(wake, due)
	}
	intended := p.take()
	p.stepFrom = now
	sent := time.Now()
	op, ok, err := d.w.Begin(i, warm)
	if !ok {
		s.over = true
		return wake
	}
	if intended.IsZero() {
		intended = sent
	}
	f := ended{op: op, warm: warm, intended: intended, sent: sent}
	if err != nil {
		f.done = time.Now()
		d.finish(s, f, err)
		return wake
	}
	s.flight, s.busy, s.expiry = f, true, time.Time{}
	if op.Timeout > 0 {
		s.expiry = sent.Add(op.Timeout)
	}
	return wake
}

// end records worker i's operation, which ended at at.
func (d *asyncDriver) end(i int, at time.Time, got int64, err error) {
	s := &d.slots[i]
	if !s.busy {
		return
	}
	s.busy = false
	f := s.flight
	f.read = time.Now()
	if at.Before(f.sent) || at.After(f.read) {
		at = f.read // a receive timestamp off the clock the send was timed on (a wall clock stepped)
	}
	f.got, f.done = got, at
	d.finish(s, f, err)
}

// finish records an ended operation and spaces the worker's next step.
func (d *asyncDriver) finish(s *asyncSlot, f ended, err error) {
	if err != nil && f.op.Points > 0 && metrics.InDoubt(err) {
		f.doubt = f.op.Points
		s.h.inDoubt.Add(f.op.Points)
	}
	s.h.finish(f, err)
	s.notBefore = s.h.pacer.nextStep()
}

// expire gives up the operations in flight past their deadlines.
func (d *asyncDriver) expire(now time.Time) {
	for i := range d.slots {
		s := &d.slots[i]
		if s.busy && !s.expiry.IsZero() && !now.Before(s.expiry) {
			d.w.Abort(i)
			d.end(i, now, 0, fmt.Errorf("no answer within %s: %w", s.flight.op.Timeout, context.DeadlineExceeded))
		}
	}
}

// endAll ends every operation in flight with err and every worker's phase.
func (d *asyncDriver) endAll(err error) {
	now := time.Now()
	for i := range d.slots {
		if d.slots[i].busy {
			d.w.Abort(i)
			d.end(i, now, 0, err)
		}
		d.slots[i].over = true
	}
}
