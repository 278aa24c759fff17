package runner

import (
	"context"
	"time"

	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/summary"
)

// crashRun is the run's crash (CRASH_AT): the server killed At into the
// measured phase and restarted, while the clients go on.
type crashRun struct {
	result chan *summary.Crash
	cancel chan struct{}
}

// follower is a Monitor that can follow a server restarted under a new
// pid (monitor.Recorder).
type follower interface {
	Follow(*summary.ServerProcess)
}

// startCrash arms the crash from the measured phase's start; nil when the
// run has none.
func (r *Runner) startCrash(ctx context.Context, start time.Time) *crashRun {
	if r.Crash == nil {
		return nil
	}
	c := &crashRun{result: make(chan *summary.Crash, 1), cancel: make(chan struct{})}
	go func() {
		t := time.NewTimer(time.Until(start.Add(r.Crash.At)))
		defer t.Stop()
		select {
		case <-t.C:
			plan := *r.Crash
			if f, ok := r.Monitor.(follower); ok {
				plan.OnRestart = f.Follow // the sampler watches the new process
			}
			c.result <- plan.Do(ctx, start)
		case <-c.cancel:
			c.result <- nil
		case <-ctx.Done():
			c.result <- nil
		}
	}()
	return c
}

// end records the crash; one still under way (the restart) is waited for,
// one not yet due is called off and said so.
func (c *crashRun) end(s *summary.Summary, plan *crash.Plan) {
	if c == nil {
		return
	}
	close(c.cancel)
	if s.Crash = <-c.result; s.Crash == nil {
		s.Crash = &summary.Crash{AtS: plan.At.Seconds(), Restart: plan.Restart,
			Error: "the measured phase ended before the crash was due: nothing was killed"}
	}
}
