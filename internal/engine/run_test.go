package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/summary"
)

// fakeStore is the store the engine's tests drive: each call answers at
// once with the operation's points, or as answer says for that call
// (numbered from 1 across the workers), and it counts what it was asked,
// warm-up apart.
type fakeStore struct {
	answer func(n int64) (time.Duration, error) // nil: at once, no error
	calls  atomic.Int64
	warm   atomic.Int64
}

func (s *fakeStore) call(ctx context.Context, warm bool, points int64) (int64, error) {
	n := s.calls.Add(1)
	if warm {
		s.warm.Add(1)
	}
	if s.answer == nil {
		return points, nil
	}
	wait, err := s.answer(n)
	select {
	case <-time.After(wait):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	if err != nil {
		return 0, err
	}
	return points, nil
}

// writer is a worker that writes batches of points to the fake store:
// plan of them (0: until the run ends), one operation a step.
type writer struct {
	store  *fakeStore
	plan   int
	points int64
	done   int
}

func (w *writer) Step(ctx context.Context, h *Handle, warm bool) bool {
	if w.plan > 0 && w.done >= w.plan {
		return false
	}
	w.done++
	ok, _ := h.Do(Op{Kind: 0, Points: w.points, Write: true}, warm, func(ctx context.Context) (int64, error) {
		return w.store.call(ctx, warm, w.points)
	})
	return ok
}

// runWriters runs n writers of plan steps on store under cfg and hooks.
func runWriters(t *testing.T, cfg Config, hooks Hooks, store *fakeStore, n, plan int) *Result {
	t.Helper()
	cfg.Names = []string{"INGESTION"}
	cfg.Workers = n
	e := New(cfg, hooks)
	workers := make([]Worker, n)
	for i := range workers {
		workers[i] = &writer{store: store, plan: plan, points: 10}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return e.Run(ctx, workers, e.Handles(n))
}

func ingestion(t *testing.T, r *Result) summary.Operation {
	t.Helper()
	if len(r.Operations) != 1 || r.Operations[0].Name != "INGESTION" {
		t.Fatalf("operations %+v", r.Operations)
	}
	return r.Operations[0]
}

// The closed loop runs every worker's plan to its end: every operation
// the store answered is counted once, with its points, and the plans'
// end is the stop reason.
func TestClosedLoopRunsThePlans(t *testing.T) {
	store := &fakeStore{}
	r := runWriters(t, Config{PlanEnd: "loop"}, Hooks{}, store, 3, 50)
	op := ingestion(t, r)
	if op.OKOperations != 150 || op.OKPoints != 1500 || op.FailOperations != 0 || store.calls.Load() != 150 {
		t.Errorf("%d ok (%d points), %d failed, %d calls; want 150, 1500, 0, 150", op.OKOperations, op.OKPoints,
			op.FailOperations, store.calls.Load())
	}
	if r.StopReason != "loop" || r.Interrupted || op.ServiceMS != nil {
		t.Errorf("stop %q, interrupted %v, service time %v (closed loop: none apart)", r.StopReason, r.Interrupted, op.ServiceMS)
	}
}

// The open model counts latency from each operation's intended start: one
// answer held 300 ms makes the operations due behind it wait, and their
// latencies, not their service times, show the queue (coordinated
// omission corrected). 100 operations at 200 a second.
func TestOpenModelLatencyFromIntendedStart(t *testing.T) {
	const stall = 300 * time.Millisecond
	store := &fakeStore{answer: func(n int64) (time.Duration, error) {
		if n == 20 {
			return stall, nil
		}
		return 0, nil
	}}
	r := runWriters(t, Config{Rate: 200, PlanEnd: "loop"}, Hooks{}, store, 1, 100)
	op := ingestion(t, r)
	if op.OKOperations != 100 || op.ServiceMS == nil {
		t.Fatalf("%d operations, service time %v", op.OKOperations, op.ServiceMS)
	}
	// 60 operations are due in the 300 ms stall at one per 5 ms: queued
	// behind it they waited from about 300 ms down to nothing, so more
	// than a tenth of all waited over 100 ms; served at once, their
	// service times stay below it.
	if op.LatencyMS.Max < 0.9*float64(stall.Milliseconds()) || op.LatencyMS.P90 < 100 {
		t.Errorf("latency max %.1f ms, p90 %.1f ms: the %v stall's queue is not in the latencies", op.LatencyMS.Max,
			op.LatencyMS.P90, stall)
	}
	if op.ServiceMS.P90 >= 100 || op.ServiceMS.Max < 0.9*float64(stall.Milliseconds()) {
		t.Errorf("service time p90 %.1f ms, max %.1f ms: want the queue out of it, the stalled answer in it",
			op.ServiceMS.P90, op.ServiceMS.Max)
	}
}

// The warm-up's operations are counted apart and never recorded: the
// store's warm calls are the warm-up phase's operations, the others the
// measured ones, and the two make up every call.
func TestWarmupApart(t *testing.T) {
	store := &fakeStore{}
	r := runWriters(t, Config{Warmup: 200 * time.Millisecond, Duration: 200 * time.Millisecond, MinStep: 5 * time.Millisecond},
		Hooks{}, store, 2, 0)
	op := ingestion(t, r)
	if r.Warmup == nil || r.Warmup.Operations == 0 || r.Warmup.Operations != store.warm.Load() ||
		r.Warmup.Points != 10*r.Warmup.Operations {
		t.Fatalf("warm-up %+v; the store saw %d warm calls", r.Warmup, store.warm.Load())
	}
	if op.OKOperations == 0 || op.OKOperations+r.Warmup.Operations != store.calls.Load() {
		t.Errorf("%d measured + %d warm-up operations, %d calls", op.OKOperations, r.Warmup.Operations, store.calls.Load())
	}
	if r.StopReason != "duration" || r.Elapsed < 200*time.Millisecond {
		t.Errorf("stopped by %q after %v", r.StopReason, r.Elapsed)
	}
}

// errRefused is a server's refusal; a broken connection is transient.
var (
	errRefused = errors.New("the server refused the batch")
	errReset   = fmt.Errorf("write: %w", syscall.ECONNRESET)
)

// A write that failed for a transient cause is sent again while RETRIES
// allows and counted once, its retries beside it; a server's refusal is
// not sent again.
func TestRetries(t *testing.T) {
	for _, tt := range []struct {
		name                  string
		fails                 int64 // the first calls that fail
		err                   error
		retries               int
		ok, failed, retriedOp int64
		calls                 int64
	}{
		{"transient, retried to success", 2, errReset, 3, 1, 0, 2, 3},
		{"transient, more failures than retries", 5, errReset, 3, 0, 1, 3, 4},
		{"a refusal is not retried", 5, errRefused, 3, 0, 1, 0, 1},
		{"no retries asked", 1, errReset, 0, 0, 1, 0, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store := &fakeStore{answer: func(n int64) (time.Duration, error) {
				if n <= tt.fails {
					return 0, tt.err
				}
				return 0, nil
			}}
			r := runWriters(t, Config{Retries: tt.retries, Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond,
				PlanEnd: "loop"}, Hooks{}, store, 1, 1)
			op := ingestion(t, r)
			if op.OKOperations != tt.ok || op.FailOperations != tt.failed || op.Retries != tt.retriedOp ||
				store.calls.Load() != tt.calls {
				t.Errorf("%d ok, %d failed, %d retries, %d calls; want %d, %d, %d, %d", op.OKOperations, op.FailOperations,
					op.Retries, store.calls.Load(), tt.ok, tt.failed, tt.retriedOp, tt.calls)
			}
		})
	}
}

// Interrupt stops the workers after their current operation: the run
// ends long before its plans, marked interrupted, with what it measured.
func TestInterrupt(t *testing.T) {
	store := &fakeStore{}
	var e *Engine
	var once sync.Once
	hooks := Hooks{OnMeasure: func(time.Time) {
		go once.Do(func() { time.Sleep(100 * time.Millisecond); e.Interrupt() })
	}}
	cfg := Config{Names: []string{"INGESTION"}, Workers: 2, MinStep: 10 * time.Millisecond, PlanEnd: "loop"}
	e = New(cfg, hooks)
	workers := []Worker{&writer{store: store, plan: 1000, points: 10}, &writer{store: store, plan: 1000, points: 10}}
	r := e.Run(context.Background(), workers, e.Handles(2))
	op := ingestion(t, r)
	if !r.Interrupted || r.StopReason != "interrupted" || op.OKOperations == 0 || op.OKOperations >= 2000 {
		t.Errorf("interrupted %v (%q) with %d operations of 2,000 planned", r.Interrupted, r.StopReason, op.OKOperations)
	}
}

// The crash hook runs its plan At into the measured phase while the
// workers go on, and the run waits for it to end; one not yet due when
// the run ends is called off and said so. (A partition's plan, through a
// cut of the test's own: no server process is needed.)
func TestCrashHook(t *testing.T) {
	var start, cut atomic.Int64 // the measured phase's start, the cut's (Unix ns)
	plan := func(at time.Duration) *crash.Plan {
		return &crash.Plan{At: at, Partition: 150 * time.Millisecond, Host: "127.0.0.1", Port: 1, Timeout: time.Second,
			Cut: func(ctx context.Context, d time.Duration) {
				cut.Store(time.Now().UnixNano())
				time.Sleep(d)
			}}
	}
	hooks := Hooks{Crash: plan(100 * time.Millisecond), OnMeasure: func(s time.Time) { start.Store(s.UnixNano()) }}
	r := runWriters(t, Config{Duration: time.Second, MinStep: 5 * time.Millisecond}, hooks, &fakeStore{}, 1, 0)
	c := r.Crash
	if c == nil || c.Error != "" || c.PartitionS != 0.15 || c.KilledAtS < 0.1 || c.BackAfterS < 0.15 {
		t.Fatalf("crash %+v", c)
	}
	// Late by as much as a loaded machine delays a timer, never early.
	if at := time.Duration(cut.Load() - start.Load()); at < 100*time.Millisecond || at > 900*time.Millisecond {
		t.Errorf("cut %v into the measured phase, planned at 100ms", at)
	}
	if op := ingestion(t, r); op.OKOperations == 0 {
		t.Error("no operation beside the crash")
	}

	r = runWriters(t, Config{Duration: 100 * time.Millisecond}, Hooks{Crash: plan(time.Minute)}, &fakeStore{}, 1, 0)
	if c := r.Crash; c == nil || c.Error != "the measured phase ended before the partition was due: nothing was cut" || c.KilledAtS != 0 {
		t.Errorf("a partition due after the run: %+v", c)
	}
}
