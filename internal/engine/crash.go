package engine

import (
	"context"
	"time"

	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/summary"
)

// crashRun is the run's crash: the server killed At into the measured
// phase and restarted, while the workers go on.
type crashRun struct {
	result chan *summary.Crash
	cancel chan struct{}
}

// startCrash arms the crash from the measured phase's start; nil when the
// run has none.
func (e *Engine) startCrash(ctx context.Context, start time.Time) *crashRun {
	if e.Hooks.Crash == nil {
		return nil
	}
	c := &crashRun{result: make(chan *summary.Crash, 1), cancel: make(chan struct{})}
	go func() {
		t := time.NewTimer(time.Until(start.Add(e.Hooks.Crash.At)))
		defer t.Stop()
		select {
		case <-t.C:
			plan := *e.Hooks.Crash
			if f, ok := e.Hooks.Monitor.(follower); ok {
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

// end returns the crash's account; one still under way (the restart) is
// waited for, one not yet due is called off and said so.
func (c *crashRun) end(plan *crash.Plan) *summary.Crash {
	if c == nil {
		return nil
	}
	close(c.cancel)
	if r := <-c.result; r != nil {
		return r
	}
	return &summary.Crash{AtS: plan.At.Seconds(), Restart: plan.Restart, Error: plan.CalledOff()}
}
