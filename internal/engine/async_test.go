package engine

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// steady is an AsyncWorker whose every operation takes service to answer,
// timed by the clock: what a server of fixed speed would do. plan bounds
// each worker's operations (0: unbounded).
type steady struct {
	service  time.Duration
	timeout  time.Duration
	plan     int
	begun    []int
	answerAt []time.Time // zero: nothing in flight
	aborted  int
	warmSeen int
}

func newSteady(workers int, service time.Duration) *steady {
	return &steady{service: service, begun: make([]int, workers), answerAt: make([]time.Time, workers)}
}

func (s *steady) Begin(i int, warm bool) (Op, bool, error) {
	if s.plan > 0 && s.begun[i] >= s.plan {
		return Op{}, false, nil
	}
	if !s.answerAt[i].IsZero() {
		panic("a second operation begun on a busy worker")
	}
	s.begun[i]++
	if warm {
		s.warmSeen++
	}
	s.answerAt[i] = time.Now().Add(s.service)
	return Op{Kind: 0, Timeout: s.timeout}, true, nil
}

func (s *steady) Wait(until time.Time, done func(int, time.Time, int64, error)) error {
	first := until
	for _, at := range s.answerAt {
		if !at.IsZero() && at.Before(first) {
			first = at
		}
	}
	time.Sleep(time.Until(first))
	now := time.Now()
	for i, at := range s.answerAt {
		if !at.IsZero() && !at.After(now) {
			s.answerAt[i] = time.Time{}
			done(i, now, 1, nil)
		}
	}
	return nil
}

func (s *steady) Abort(i int) { s.answerAt[i], s.aborted = time.Time{}, s.aborted+1 }

func runSteady(t *testing.T, cfg Config, s *steady) *Result {
	t.Helper()
	cfg.Names = []string{"Q"}
	e := New(cfg, Hooks{})
	res := e.RunAsync(context.Background(), []AsyncGroup{{s, e.Handles(len(s.begun))}})
	if len(res.Operations) != 1 {
		t.Fatalf("operations: %+v", res.Operations)
	}
	return res
}

func sum(xs []int) (n int) {
	for _, x := range xs {
		n += x
	}
	return n
}

// The engine drives an AsyncWorker's workers as it drives goroutines:
// every operation begun is recorded once, paced in the open model with
// latency from its intended start, given up at its deadline, and the
// warm-up's are counted apart.
func TestRunAsync(t *testing.T) {
	t.Run("closed model, plans end the run", func(t *testing.T) {
		s := newSteady(3, 2*time.Millisecond)
		s.plan = 20
		res := runSteady(t, Config{Workers: 3, PlanEnd: "loop"}, s)
		op := res.Operations[0]
		if op.OKOperations != 60 || sum(s.begun) != 60 || res.StopReason != "loop" {
			t.Fatalf("%d ok of %d begun, stop %q; want 60, loop", op.OKOperations, sum(s.begun), res.StopReason)
		}
		if op.LatencyMS.Min < 2 || op.LatencyMS.Max > 200 {
			t.Errorf("latency %+v: want from 2 ms (the service time)", op.LatencyMS)
		}
	})
	t.Run("two groups, a goroutine each", func(t *testing.T) {
		a, b := newSteady(2, time.Millisecond), newSteady(1, time.Millisecond)
		a.plan, b.plan = 10, 10
		e := New(Config{Names: []string{"Q"}, Workers: 3, PlanEnd: "loop"}, Hooks{})
		hs := e.Handles(3)
		res := e.RunAsync(context.Background(), []AsyncGroup{{a, hs[:2]}, {b, hs[2:]}})
		if n := res.Operations[0].OKOperations; n != 30 || sum(a.begun) != 20 || sum(b.begun) != 10 {
			t.Fatalf("%d operations, begun %v and %v: want 30, each worker's 10", n, a.begun, b.begun)
		}
	})
	t.Run("open model, latency from the intended start", func(t *testing.T) {
		// 2 workers at 100 operations/s together, each answered in 30 ms:
		// a worker can do 33/s of its 50, so its operations queue and the
		// last ones wait several hundred milliseconds past their start.
		s := newSteady(2, 30*time.Millisecond)
		res := runSteady(t, Config{Workers: 2, Rate: 100, Duration: time.Second}, s)
		op := res.Operations[0]
		if op.OKOperations < 50 || op.OKOperations > 70 {
			t.Errorf("%d operations in 1 s at 30 ms each on 2 workers, want about 66", op.OKOperations)
		}
		if op.LatencyMS.Max < 250 || op.ServiceMS == nil || op.ServiceMS.Max > 100 {
			t.Errorf("latency max %.1f ms, service %+v: want the queue counted in latency, not in service", op.LatencyMS.Max, op.ServiceMS)
		}
	})
	t.Run("open model at a rate the workers keep up with", func(t *testing.T) {
		s := newSteady(2, time.Millisecond)
		res := runSteady(t, Config{Workers: 2, Rate: 200, Duration: time.Second}, s)
		if n := res.Operations[0].OKOperations; n < 180 || n > 202 {
			t.Errorf("%d operations in 1 s at 200/s, want 200", n)
		}
		if res.Elapsed < time.Second {
			t.Errorf("the measured phase lasted %v, want its whole second", res.Elapsed)
		}
	})
	t.Run("deadlines", func(t *testing.T) {
		s := newSteady(2, time.Hour)
		s.timeout = 40 * time.Millisecond
		res := runSteady(t, Config{Workers: 2, Duration: 400 * time.Millisecond}, s)
		op := res.Operations[0]
		if op.OKOperations != 0 || op.FailOperations < 10 || int(op.FailOperations) != s.aborted {
			t.Fatalf("%d ok, %d failed, %d given up: want every operation failed at its deadline and given up", op.OKOperations, op.FailOperations, s.aborted)
		}
		if len(op.Failures) == 0 || op.Failures[0].Cause != "timeout" {
			t.Errorf("failures %+v: want timeouts", op.Failures)
		}
	})
	t.Run("warm-up", func(t *testing.T) {
		s := newSteady(2, 5*time.Millisecond)
		res := runSteady(t, Config{Workers: 2, Warmup: 200 * time.Millisecond, Duration: 200 * time.Millisecond}, s)
		var warm summary.Phase
		if res.Warmup != nil {
			warm = *res.Warmup
		}
		measured := res.Operations[0].OKOperations
		// Both phases hold operations (about 80 each; a busy CI machine
		// once did 38 in the measured one), each counted once.
		if warm.Operations == 0 || int(warm.Operations) != s.warmSeen || measured == 0 || int(measured)+s.warmSeen != sum(s.begun) {
			t.Errorf("warm-up %d (begun %d), measured %d, begun %d: want both phases counted apart, every operation once",
				warm.Operations, s.warmSeen, measured, sum(s.begun))
		}
	})
	t.Run("interrupt", func(t *testing.T) {
		s := newSteady(2, 5*time.Millisecond)
		e := New(Config{Names: []string{"Q"}, Workers: 2, Duration: time.Minute}, Hooks{})
		time.AfterFunc(300*time.Millisecond, e.Interrupt)
		start := time.Now()
		res := e.RunAsync(context.Background(), []AsyncGroup{{s, e.Handles(2)}})
		if !res.Interrupted || time.Since(start) > 5*time.Second || res.Operations[0].OKOperations == 0 {
			t.Errorf("interrupted %v after %v with %d operations", res.Interrupted, time.Since(start), res.Operations[0].OKOperations)
		}
	})
}
