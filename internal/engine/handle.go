package engine

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/targets"
)

// Handle is one worker's part of the engine: its pacing, its operations'
// context, its recorder. A worker measures every operation through it.
type Handle struct {
	e         *Engine
	worker    int // its number among every process's workers
	pacer     pacer
	rec       *metrics.Client // set as the measured phase begins
	opctx     *opContext
	unyielded int // operations since the worker last yielded (yield)

	warmOps, warmPoints atomic.Int64 // acknowledged in the warm-up; the points its writes stored
	// notSent are the open model's operations that fell due in the
	// measured phase and were never sent (NotSent), set as it ends.
	notSent int64
	// inDoubt are points of attempts that failed in a way that may still
	// have stored them (metrics.InDoubt), warm-up included: verification
	// allows for them.
	inDoubt atomic.Int64

	// Observe, when set, hears of every measured operation once it ended
	// (a time series run's figures per host).
	Observe func(op Op, got int64, latency time.Duration, err error)
	// Arrivals, when set, is the clock the worker's connections stamp
	// their reads into (arrival.Dial, under the operations' context): an
	// operation ends at its answer's arrival, the wait after it recorded
	// as client wait. Set before the run.
	Arrivals *arrival.Clock
}

// noTimeout stands for an operation without a deadline: its context
// still ends with the run's.
const noTimeout = 365 * 24 * time.Hour

// Op is one operation, as the engine sees it.
type Op struct {
	Kind metrics.Kind
	// Points is what the operation carries (a write's points): a failure
	// counts them failed, one in doubt (metrics.InDoubt) counts them so.
	Points int64
	// Write is a write: retried on a transient failure (Config.Retries),
	// its points counted in the warm-up's.
	Write   bool
	Timeout time.Duration // 0: none
	// Due, when set, is when the operation is due by a schedule of the
	// workload's own (a real-time scrape's time): Do waits for it and
	// counts the latency from it, so that an operation sent late, held
	// behind a slow one, keeps the wait (no coordinated omission).
	Due time.Time
}

// Worker is the handle's worker number among every process's workers.
func (h *Handle) Worker() int { return h.worker }

// InDoubtPoints are the points of the worker's attempts that failed in a
// way that may still have stored them, so far.
func (h *Handle) InDoubtPoints() int64 { return h.inDoubt.Load() }

// WarmPoints are the points the worker's warm-up writes stored.
func (h *Handle) WarmPoints() int64 { return h.warmPoints.Load() }

// NotSent is how many of the worker's operations fell due in the measured
// phase, at the open model's rate, and were never sent: when the phase
// ended the worker was still on earlier ones (a server that stalled or
// went away, retries). Their latency is in no histogram; set once the
// run has ended.
func (h *Handle) NotSent() int64 { return h.notSent }

// drive runs the worker through the warm-up and then the measured phase
// until its plan is done, the deadline passes or the run is stopped.
func (h *Handle) drive(ctx context.Context, w Worker) {
	e := h.e
	h.opctx = newOpContext(arrival.WithClock(ctx, h.Arrivals))
	// A step once begun ends whole (a time series client's write step is
	// one batch number for every device it owns); one due after the
	// warm-up is not begun.
	for time.Now().Before(e.warmupEnd) && !e.Stopped() && ctx.Err() == nil && !h.pacer.dueFrom(e.warmupEnd) {
		if !w.Step(ctx, h, true) {
			break
		}
		h.pacer.stepDone()
	}
	<-e.release // every worker starts measuring together
	h.pacer.start(time.Now())
	for !e.Stopped() && ctx.Err() == nil {
		if h.pastDeadline() {
			// An open model's worker with nothing more due before the
			// deadline idles until it: the phase lasts its length, and the
			// achieved rate is counted over all of it.
			sleepUntil(e.deadline, e.stop)
			return
		}
		if !w.Step(ctx, h, false) {
			return
		}
		h.pacer.stepDone()
	}
}

// pastDeadline reports whether the measured phase is over for this
// worker: its deadline has passed, or its next operation would be due
// after it.
func (h *Handle) pastDeadline() bool {
	return h.e.deadlineHit() || h.pacer.dueFrom(h.e.deadline)
}

// Do measures one operation: it waits until the operation is due, runs
// call under the operation's deadline (again, for a write that failed for
// a transient cause), and records it. It reports whether the operation
// was done: not when the run was stopped or the measured phase is over,
// and the worker should then end its step. The error is the operation's.
//
// In the open model latency counts from the operation's intended start,
// so a slow server cannot hide the queue it causes (coordinated
// omission); service time counts from the send. Warm-up operations are
// counted, not recorded.
func (h *Handle) Do(op Op, warm bool, call func(context.Context) (int64, error)) (bool, error) {
	e := h.e
	if !warm && (e.Stopped() || h.opctx.parent.Err() != nil || h.pastDeadline()) {
		return false, nil
	}
	h.yield()
	intended := h.pacer.wait(e.stop)
	if due := op.Due; !due.IsZero() {
		if dl := e.deadline; !warm && !dl.IsZero() && due.After(dl) {
			sleepUntil(dl, e.stop) // due after the measured phase: not done
			return false, nil
		}
		sleepUntil(due, e.stop)
		intended = due
	}
	if !warm && e.Stopped() {
		return false, nil
	}
	var doubt int64 // points of this operation's attempts in doubt
	timeout := op.Timeout
	if timeout <= 0 {
		timeout = noTimeout
	}
	attempt := func() (int64, error) {
		h.opctx.arm(timeout)
		defer h.opctx.disarm()
		got, err := call(h.opctx)
		if err != nil && op.Points > 0 && metrics.InDoubt(err) {
			doubt += op.Points
			h.inDoubt.Add(op.Points)
		}
		return got, err
	}
	var before int64 // the last arrival before the send
	if h.Arrivals != nil {
		before = h.Arrivals.Last()
	}
	sent := time.Now()
	got, err := attempt()
	var retries int64
	if op.Write {
		got, retries, err = h.retry(got, err, attempt)
	}
	if intended.IsZero() {
		intended = sent
	}
	done, read := time.Now(), time.Time{}
	if h.Arrivals != nil {
		done, read = h.Arrivals.End(before, sent, done)
	}
	h.finish(ended{op: op, warm: warm, got: got, intended: intended, sent: sent, done: done, read: read,
		retries: retries, doubt: doubt}, err)
	return true, err
}

// ended is an operation that has ended, as the engine records it.
type ended struct {
	op                   Op
	warm                 bool
	got                  int64
	intended, sent, done time.Time
	// read is when the tool took the answer, where that is later than its
	// arrival (done): an event loop's answers wait in their sockets while it
	// serves others, a goroutine's until the runtime runs it. Zero where
	// the two are one.
	read           time.Time
	retries, doubt int64 // retries made; points of its attempts in doubt
}

// finish counts a warm-up operation, or records a measured one.
func (h *Handle) finish(o ended, err error) {
	if o.warm {
		if err == nil {
			h.warmOps.Add(1)
			if o.op.Write {
				h.warmPoints.Add(o.got)
			}
		}
		return
	}
	h.record(o.op, o.got, o.done.Sub(o.intended), o.done.Sub(o.sent), err)
	if !o.read.IsZero() && err == nil {
		h.rec.ClientWait(o.op.Kind, o.read.Sub(o.done))
	}
	if o.retries > 0 {
		h.rec.Retried(o.op.Kind, o.retries)
	}
	if o.doubt > 0 {
		h.rec.InDoubt(o.op.Kind, o.doubt)
	}
	if h.Observe != nil && !errors.Is(err, targets.ErrUnsupported) {
		h.Observe(o.op, o.got, o.done.Sub(o.intended), err)
	}
}

func (h *Handle) record(op Op, got int64, latency, service time.Duration, err error) {
	switch {
	case err == nil:
		h.rec.Record(op.Kind, got, latency, service)
	case errors.Is(err, targets.ErrUnsupported):
		h.rec.Unsupported(op.Kind)
	default:
		h.rec.Fail(op.Kind, op.Points, err)
	}
}

// Failed counts an operation that could not be made, and so was not sent
// (a replayed dataset that cannot be read), as a failure of the measured
// phase.
func (h *Handle) Failed(op Op, warm bool, err error) {
	if !warm && h.rec != nil {
		h.rec.Fail(op.Kind, 0, err)
	}
}

// Pause waits d (a TPC-C terminal's keying or think time) unless the run
// is stopped or the measured phase ends first; false means stop.
func (h *Handle) Pause(d time.Duration) bool {
	end := time.Now().Add(d)
	if dl := h.e.deadline; !dl.IsZero() && end.After(dl) {
		sleepUntil(dl, h.e.stop)
		return false
	}
	return sleepUntil(end, h.e.stop)
}

// Hold runs wait, a wait of the tool's own (a barrier between clients or
// worker processes, a plan's hand-over from writes to queries), and then
// resumes the client's schedule from its end: in the open model the
// operations that fell due during the wait are not owed, and the next one's
// intended start is the wait's end, so that no operation's latency holds
// the tool's wait and calls it the store's. It reports wait's result.
func (h *Handle) Hold(wait func() bool) bool {
	ok := wait()
	h.pacer.resume(time.Now())
	return ok
}

// yieldEvery is how many operations a worker runs before it lets other
// goroutines run.
const yieldEvery = 64

// yield lets the other goroutines run every yieldEvery operations. Against
// a target that never blocks (null, or an embedded database) a worker would
// otherwise keep its processor for a whole 10 ms preemption slice, and with
// a thousand workers the once-a-second collector waited seconds for its
// turn: the time series lost its seconds and the latencies piled up in
// memory (seen at 1,000 clients: 2 intervals in 8 s, RSS +11 MB/s).
func (h *Handle) yield() {
	if h.unyielded++; h.unyielded >= yieldEvery {
		h.unyielded = 0
		runtime.Gosched()
	}
}

// retry sends a failed write again while Retries allows, the failure is
// transient (metrics.Transient: the connection or the clock failed it, the
// server did not refuse it), and the run goes on: a stop or the deadline
// ends the retries, so a dead server never holds the run past its end. It
// returns the last attempt's points, the number of retries made and the
// last attempt's error.
func (h *Handle) retry(got int64, err error, attempt func() (int64, error)) (int64, int64, error) {
	var n int64
	for int(n) < h.e.Config.Retries && err != nil && metrics.Transient(err) && h.opctx.parent.Err() == nil {
		if !sleepUntil(time.Now().Add(h.backoff(n)), h.e.stop) || h.e.deadlineHit() {
			break
		}
		n++
		got, err = attempt()
	}
	return got, n, err
}

// backoff is the wait before retry n (from 0): Backoff doubled n times,
// capped at MaxBackoff, then drawn uniformly from its upper half so that
// workers that failed together do not retry together.
func (h *Handle) backoff(n int64) time.Duration {
	d := h.e.Config.MaxBackoff
	if n < 30 {
		d = min(d, h.e.Config.Backoff<<n)
	}
	half := int64(d / 2)
	if half <= 0 {
		return d
	}
	return time.Duration(half + h.pacer.rng.Int64N(half+1))
}
