// Package engine is the one measuring loop every workload runs on. A
// workload brings its workers (a time-series client, a TPC-C terminal, a
// worker of a TSBS query file) and what it checks afterwards; the engine
// drives the workers closed loop or at a rate (open model, latency from
// each operation's intended start), holds the warm-up and the duration,
// times and records every operation in HDR histograms per one-second
// interval, finds stalls, kills and restarts the server (a crash), and
// calls the hooks that the progress line, the live outputs, the results
// store and the resources sampler hang on. So a capability built here
// reaches every workload. Workers are goroutines that block on their
// operations (Worker, Run), or state machines that groups of them serve
// from one goroutine each (AsyncWorker, RunAsync: CLIENT_IO=epoll), timed
// and recorded alike.
package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
)

// Config is how a run is driven.
type Config struct {
	Names []string // the operations: metrics.Kind i is Names[i]
	// Rate is operations per second for every worker of every process
	// together; 0 is the closed loop.
	Rate float64
	// Workers is the number of workers of every process (the rate's
	// divisor); FirstWorker is this process's first among them.
	Workers, FirstWorker int
	Warmup               time.Duration
	// Duration ends the measured phase; 0 lets the workers' plans end it.
	Duration time.Duration
	// MinStep spaces a worker's steps in the closed loop (OP_MIN_INTERVAL),
	// drawn uniformly below it with RandomStep.
	MinStep    time.Duration
	RandomStep bool
	Seed       uint64
	// Retries sends a write that failed for a transient cause again, after
	// Backoff doubled each time up to MaxBackoff.
	Retries             int
	Backoff, MaxBackoff time.Duration
	// StallMin and StallFraction say what a stall is (metrics.Stalls).
	StallMin      time.Duration
	StallFraction float64
	// PlanEnd names the stop when the workers' plans end ("loop",
	// "queries"); TotalOps is how many operations the plans hold (0:
	// unbounded, or unknown), for the progress line.
	PlanEnd  string
	TotalOps int64
	// EveryName makes the result list every operation of Names, zeros for
	// those the run never reached (a find-max step that ends in a
	// workload's writes), so that its matrices keep the workload's rows.
	EveryName bool
}

// Hooks follow a run; all are optional and none may block.
type Hooks struct {
	Progress func(Tick)
	// Monitor samples resources while the run measures.
	Monitor Monitor
	// OnInterval receives each one-second interval as it closes (seq from
	// 0, in the order of Result.Intervals).
	OnInterval func(seq int, iv summary.Interval)
	// OnMeasure is called once as the measured phase begins, the workers
	// already released; OnMeasured once it has ended.
	OnMeasure  func(start time.Time)
	OnMeasured func()
	// Crash kills the server At into the measured phase and restarts it.
	Crash *crash.Plan
}

// Tick is the state of the run at one moment, for the progress line.
type Tick struct {
	Phase    string // "warm-up" or "measure"
	Elapsed  time.Duration
	DoneOps  int64
	TotalOps int64 // 0 when unknown or unbounded
	Deadline time.Duration
	// LoopBound says the workers' plans can end the run; with a Deadline
	// too, whichever comes first ends it.
	LoopBound bool
	// P99MS is the worst 99th-percentile latency of the last second's
	// operations, in milliseconds, as pgbench -P shows the last interval's.
	P99MS        float64
	OpsPerSec    float64
	PointsPerSec float64
	Errors       int64
}

// Worker is one worker of a workload.
type Worker interface {
	// Step does the worker's next step, each of its operations through
	// h.Do; warm says the step belongs to the warm-up. It returns false
	// once the worker's plan is done.
	Step(ctx context.Context, h *Handle, warm bool) bool
}

// Result is what a run measured.
type Result struct {
	Start      time.Time // the measured phase's
	Elapsed    time.Duration
	Operations []summary.Operation
	Intervals  []summary.Interval
	Stalls     []summary.Stall
	// Warmup is the warm-up phase with its final counts (operations in
	// flight when measuring began included); nil without one.
	Warmup      *summary.Phase
	MeasuredCPU float64 // the tool's CPU seconds while measuring
	Resources   *summary.Resources
	Crash       *summary.Crash
	StopReason  string // "interrupted", "duration" or Config.PlanEnd
	Interrupted bool
	// NotSent are the open model's operations due before the deadline
	// that no worker sent (Handle.NotSent, summed).
	NotSent int64
}

// Record puts what was measured into s: the warm-up phase, the measured
// phase's start, length, operations, seconds and stalls, the tool's CPU,
// the resources, the crash and how the run stopped. Every workload's
// record takes its measurement from here.
func (r *Result) Record(s *summary.Summary) {
	if r.Warmup != nil {
		s.Phases = append(s.Phases, *r.Warmup)
	}
	s.MeasureStarted = r.Start.UTC()
	s.Tool.MeasuredCPUSeconds = r.MeasuredCPU
	s.Resources, s.Crash = r.Resources, r.Crash
	s.Elapsed = r.Elapsed.Seconds()
	s.Operations, s.Intervals, s.Stalls = r.Operations, r.Intervals, r.Stalls
	s.Interrupted, s.StopReason = r.Interrupted, r.StopReason
	s.NotSent = r.NotSent
}

// Engine drives one run's workers. Its Config and Hooks may be set until
// Run.
type Engine struct {
	Config Config
	Hooks  Hooks

	stopOnce    sync.Once
	stop        chan struct{}
	interrupted atomic.Bool
	warmupEnd   time.Time
	release     chan struct{} // closed when the measured phase begins
	deadline    time.Time     // set before release closes
}

// New prepares a run.
func New(cfg Config, hooks Hooks) *Engine {
	return &Engine{Config: cfg, Hooks: hooks, stop: make(chan struct{}), release: make(chan struct{})}
}

// Interrupt stops the workers after their current operation; what was
// measured so far becomes the result, marked interrupted.
func (e *Engine) Interrupt() {
	e.stopOnce.Do(func() {
		e.interrupted.Store(true)
		close(e.stop)
	})
}

// Stopped reports whether the run was interrupted.
func (e *Engine) Stopped() bool {
	select {
	case <-e.stop:
		return true
	default:
		return false
	}
}

// StopChan is closed by Interrupt.
func (e *Engine) StopChan() <-chan struct{} { return e.stop }

func (e *Engine) deadlineHit() bool {
	return !e.deadline.IsZero() && time.Now().After(e.deadline)
}

// Handles makes one handle per worker of this process, the i-th for
// worker FirstWorker+i; Run drives the workers with them.
func (e *Engine) Handles(n int) []*Handle {
	workers := make([]int, n)
	for i := range workers {
		workers[i] = e.Config.FirstWorker + i
	}
	return e.HandlesOf(workers)
}

// HandlesOf makes a handle for each of the given workers (their numbers
// among every process's Workers), for a process whose share is not one
// range of them: a TPC-C worker process runs the terminals of its
// warehouses. Each handle paces as that worker would in a single process.
func (e *Engine) HandlesOf(workers []int) []*Handle {
	hs := make([]*Handle, len(workers))
	for i, w := range workers {
		hs[i] = e.newHandle(w)
	}
	return hs
}

func (e *Engine) newHandle(worker int) *Handle {
	p := pacer{minStep: e.Config.MinStep, random: e.Config.RandomStep,
		rng: rand.New(rand.NewPCG(e.Config.Seed, uint64(worker)))}
	if e.Config.Rate > 0 {
		n := max(e.Config.Workers, 1)
		p.interval = time.Duration(float64(time.Second) * float64(n) / e.Config.Rate)
		p.phase = time.Duration(int64(p.interval) * int64(worker) / int64(n))
	}
	return &Handle{e: e, worker: worker, pacer: p}
}

// Run drives workers, each with its handle (Handles), through the
// warm-up and the measured phase, and returns what was measured. ctx
// bounds every operation; cancel it only to abort hard.
func (e *Engine) Run(ctx context.Context, workers []Worker, handles []*Handle) *Result {
	return e.run(ctx, handles, func(wg *sync.WaitGroup) {
		for i, w := range workers {
			wg.Add(1)
			go func() { defer wg.Done(); handles[i].drive(ctx, w) }()
		}
	})
}

// AsyncGroup is workers driven from one goroutine: Worker's worker i
// with Handles[i].
type AsyncGroup struct {
	Worker  AsyncWorker
	Handles []*Handle
}

// RunAsync is Run for workers driven by groups (AsyncWorker), a goroutine
// for each group.
func (e *Engine) RunAsync(ctx context.Context, groups []AsyncGroup) *Result {
	var handles []*Handle
	for _, g := range groups {
		handles = append(handles, g.Handles...)
	}
	return e.run(ctx, handles, func(wg *sync.WaitGroup) {
		for _, g := range groups {
			wg.Add(1)
			go func() { defer wg.Done(); e.driveAsync(ctx, g.Worker, g.Handles) }()
		}
	})
}

// run starts the workers (startWorkers adds each goroutine it starts to wg) and
// measures them.
func (e *Engine) run(ctx context.Context, handles []*Handle, startWorkers func(wg *sync.WaitGroup)) *Result {
	warmStart := time.Now()
	e.warmupEnd = warmStart.Add(e.Config.Warmup)
	var wg sync.WaitGroup
	startWorkers(&wg)
	e.tickWarmup(handles, warmStart)

	start := time.Now()
	res := &Result{Start: start}
	if e.Config.Duration > 0 {
		e.deadline = start.Add(e.Config.Duration)
	}
	run := metrics.NewRunNamed(len(handles), e.Config.Rate > 0, start, e.Config.Names)
	for i, h := range handles {
		h.rec = run.Client(i)
	}
	cpu := sysinfo.SelfUsage()
	close(e.release)
	crashed := e.startCrash(ctx, start)
	if e.Hooks.OnMeasure != nil {
		e.Hooks.OnMeasure(start) // after the workers are released: it costs them nothing
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	e.collect(run, start, done)
	res.MeasuredCPU = sysinfo.CPUSince(cpu)
	res.Elapsed = time.Since(start)
	run.Snapshot(time.Now())
	if e.Hooks.Monitor != nil {
		res.Resources = e.Hooks.Monitor.Stop(time.Now())
	}
	if e.Hooks.OnMeasured != nil {
		e.Hooks.OnMeasured()
	}
	res.Crash = crashed.end(e.Hooks.Crash)
	res.Operations = run.Operations(res.Elapsed)
	if e.Config.EveryName {
		res.Operations = everyName(res.Operations, e.Config.Names)
	}
	res.Intervals = run.Intervals()
	res.Stalls = metrics.Stalls(res.Intervals, e.Config.StallMin, e.Config.StallFraction)
	if e.Config.Warmup > 0 {
		res.Warmup = warmPhase(handles, start.Sub(warmStart))
	}
	switch {
	case e.interrupted.Load():
		res.Interrupted, res.StopReason = true, "interrupted"
	case e.deadlineHit():
		res.StopReason = "duration"
		res.NotSent = notSent(handles, e.deadline)
	default:
		res.StopReason = e.Config.PlanEnd
	}
	return res
}

// notSent sets each handle's operations that fell due before the
// deadline and were never sent, and returns their sum. Only a run that
// lasted its duration has them: a plan that ended sent every operation,
// and an interrupted run's rest was called off.
func notSent(handles []*Handle, deadline time.Time) int64 {
	var n int64
	for _, h := range handles {
		h.notSent = h.pacer.unsent(deadline)
		n += h.notSent
	}
	return n
}

// tickWarmup waits out the warm-up, reporting progress.
func (e *Engine) tickWarmup(handles []*Handle, from time.Time) {
	for time.Now().Before(e.warmupEnd) && !e.Stopped() {
		sleepUntil(minTime(time.Now().Add(time.Second), e.warmupEnd), e.stop)
		if e.Hooks.Progress != nil {
			e.Hooks.Progress(Tick{Phase: "warm-up", Elapsed: time.Since(from), DoneOps: warmPhase(handles, 0).Operations,
				Deadline: e.Config.Warmup})
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func warmPhase(handles []*Handle, d time.Duration) *summary.Phase {
	p := &summary.Phase{Name: "warm-up", Seconds: d.Seconds()}
	for _, h := range handles {
		p.Operations += h.warmOps.Load()
		p.Points += h.warmPoints.Load()
	}
	return p
}

// collect snapshots the interval series once a second until the workers
// end (metrics.Run.Collect), feeding the monitor, the live outputs and
// the progress line.
func (e *Engine) collect(run *metrics.Run, start time.Time, done <-chan struct{}) {
	if e.Hooks.Monitor != nil {
		e.Hooks.Monitor.Start(start)
	}
	run.Collect(done, func(now time.Time, seq int, iv summary.Interval, tot metrics.Totals) {
		if e.Hooks.Monitor != nil {
			e.Hooks.Monitor.Tick(now)
		}
		if e.Hooks.OnInterval != nil && iv.Seconds > 0 {
			e.Hooks.OnInterval(seq, iv)
		}
		if e.Hooks.Progress != nil {
			e.Hooks.Progress(e.tick(now.Sub(start), iv, tot))
		}
	})
}

func (e *Engine) tick(elapsed time.Duration, iv summary.Interval, tot metrics.Totals) Tick {
	t := Tick{Phase: "measure", Elapsed: elapsed, DoneOps: tot.OKOps + tot.FailOps, Deadline: e.Config.Duration,
		Errors: tot.FailOps, TotalOps: e.Config.TotalOps, LoopBound: e.Config.TotalOps > 0}
	var ops, pts int64
	for _, o := range iv.Ops {
		ops += o.OKOps
		pts += o.OKPoints
		t.P99MS = max(t.P99MS, o.P99MS)
	}
	if iv.Seconds > 0 {
		t.OpsPerSec, t.PointsPerSec = float64(ops)/iv.Seconds, float64(pts)/iv.Seconds
	}
	return t
}

// SleepUntil waits until t or until the run is interrupted; it reports
// whether it waited the whole time.
func (e *Engine) SleepUntil(t time.Time) bool { return sleepUntil(t, e.stop) }

// everyName is ops with a zero row for each of names it lacks, in the
// order of names.
func everyName(ops []summary.Operation, names []string) []summary.Operation {
	out := make([]summary.Operation, 0, len(names))
	for _, name := range names {
		i := slices.IndexFunc(ops, func(op summary.Operation) bool { return op.Name == name })
		if i < 0 {
			out = append(out, summary.Operation{Name: name})
			continue
		}
		out = append(out, ops[i])
	}
	return out
}
