package engine

import (
	"math/rand/v2"
	"time"
)

// pacer decides when a client's next operation may start.
//
//   - Closed model (default): as soon as the previous one returned, but no
//     sooner than OP_MIN_INTERVAL after the previous plan step began.
//   - Open model (--rate): operation i is due at start + i/rate whatever the
//     server does; wait returns that intended start so latency can be
//     measured from it (wrk2's correction for coordinated omission).
type pacer struct {
	interval time.Duration // open model: time between intended starts
	// phase staggers the clients' intended starts across one interval, so
	// that together they offer the rate evenly rather than in bursts of
	// every client at once.
	phase   time.Duration
	minStep time.Duration // closed model: OP_MIN_INTERVAL per plan step
	random  bool          // OP_MIN_INTERVAL_RANDOM: uniform in [0, minStep)
	rng     *rand.Rand

	origin   time.Time
	issued   int64
	stepFrom time.Time
}

func (p *pacer) start(now time.Time) {
	p.origin = now.Add(p.phase)
	p.issued = 0
	p.stepFrom = now
}

// wait blocks until the next operation is due and returns its intended start
// (zero in the closed model). It returns early when stop closes.
func (p *pacer) wait(stop <-chan struct{}) time.Time {
	due := p.take()
	sleepUntil(due, stop)
	return due
}

// take returns the next operation's intended start (zero in the closed
// model) and counts it issued, without waiting for it.
func (p *pacer) take() time.Time {
	if p.interval <= 0 {
		return time.Time{}
	}
	due := p.next()
	p.issued++
	return due
}

// next is the next operation's intended start in the open model (zero in
// the closed).
func (p *pacer) next() time.Time {
	if p.interval <= 0 {
		return time.Time{}
	}
	if p.origin.IsZero() { // warm-up: pace from the first operation
		p.start(time.Now())
	}
	return p.origin.Add(time.Duration(p.issued) * p.interval)
}

// resume moves the open model's schedule so that its next operation is due
// no earlier than now, after a wait of the tool's own (Handle.Hold): the
// operations that fell due meanwhile were never offered, and counting
// them late would put the wait in their latency.
func (p *pacer) resume(now time.Time) {
	if p.interval <= 0 || p.origin.IsZero() {
		return
	}
	if due := p.next(); due.Before(now) {
		p.origin = p.origin.Add(now.Sub(due))
	}
}

// unsent is how many operations of the open model fell due before end
// and were not taken: the client was still on earlier ones (0 in the
// closed model).
func (p *pacer) unsent(end time.Time) int64 {
	if p.interval <= 0 || p.origin.IsZero() || !end.After(p.origin) {
		return 0
	}
	due := int64((end.Sub(p.origin) + p.interval - 1) / p.interval) // those with origin + i*interval < end
	return max(due-p.issued, 0)
}

// dueFrom reports whether the next operation is due at or after end (zero:
// no end). In the open model at a low rate one client's operations are
// seconds apart: waiting for one due past the warm-up's end delayed the
// client's whole measured phase (a find-max step at 2 operations/s measured
// none), and one due past the deadline stretched the measured phase by up
// to an interval, so that its achieved rate came out short.
func (p *pacer) dueFrom(end time.Time) bool {
	if p.interval <= 0 || end.IsZero() {
		return false
	}
	due := time.Now()
	if !p.origin.IsZero() {
		due = p.origin.Add(time.Duration(p.issued) * p.interval)
	}
	return !due.Before(end)
}

// stepDone enforces OP_MIN_INTERVAL between plan steps in the closed model.
func (p *pacer) stepDone() {
	next := p.nextStep()
	if next.IsZero() {
		return
	}
	sleepUntil(next, nil)
	p.stepFrom = time.Now()
}

// nextStep is the earliest start of the next plan step in the closed model
// with OP_MIN_INTERVAL (zero otherwise), its gap drawn anew.
func (p *pacer) nextStep() time.Time {
	if p.minStep <= 0 || p.interval > 0 {
		return time.Time{}
	}
	gap := p.minStep
	if p.random {
		gap = time.Duration(p.rng.Int64N(int64(p.minStep)))
	}
	return p.stepFrom.Add(gap)
}

// sleepUntil waits until t or until stop closes; it reports whether it
// waited the whole time.
func sleepUntil(t time.Time, stop <-chan struct{}) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-stop:
		return false
	}
}
