// Package runner executes a run: it sets up the target, starts the clients
// (closed loop, or open model at a fixed rate), samples the time series once a
// second, stops on the plan's end, the deadline or an interrupt, verifies what
// was stored, and returns the summary. Nothing measured is lost on an
// interrupt: the summary is built from whatever was recorded.
package runner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// Progress receives a line's worth of figures once a second.
type Progress func(Tick)

// Tick is the state of the measured phase at one moment.
type Tick struct {
	Phase    string // "warm-up" or "measure"
	Elapsed  time.Duration
	DoneOps  int64
	TotalOps int64 // 0 when unknown or unbounded (a run that lasts MaxTime)
	Deadline time.Duration
	// LoopBound says LOOP can end the run (it is not unbounded by
	// --duration); with a Deadline too, whichever comes first ends it.
	LoopBound bool
	// P99MS is the worst 99th-percentile latency of the last second's
	// operations, in milliseconds (0 when none finished), as pgbench -P
	// shows the last interval's latency.
	P99MS        float64
	OpsPerSec    float64
	PointsPerSec float64
	Errors       int64
}

// Runner holds one run's setup.
type Runner struct {
	cfg    *config.Config
	driver *targets.Driver
	opts   targets.Options
	schema *ts.Schema
	gen    *gen.Generator // nil when a dataset is replayed
	src    source

	// Progress, when set, is called once a second.
	Progress Progress
	// Monitor, when set, samples resource use during the measured phase
	// (see monitor.go).
	Monitor Monitor
	// OnInterval, when set, receives each one-second interval of the
	// measured phase as it closes (seq counts from 0, in the order of
	// Summary.Intervals), so that a results store keeps the run as it goes.
	// It is called from the interval loop and must not block.
	OnInterval func(seq int, iv summary.Interval)
	// OnMeasure, when set, is called once as the measured phase begins,
	// with its start time; the clients are already running.
	OnMeasure func(start time.Time)
	// Barrier, when set, makes this run one worker of several (WORKERS >
	// 1) that begin together.
	Barrier Barrier
	// Crash, when set, kills the server At into the measured phase and
	// restarts it (CRASH_AT): the run then maps the acknowledged points
	// the server lost.
	Crash *crash.Plan
	// PriorRows, when set, is how many rows of every device an earlier
	// phase of a scenario wrote with the same schema and seed: a run that
	// only queries them verifies they are stored and checks its answers
	// against them (the archiver's extraction reads what its insert wrote).
	PriorRows int64

	hosts *hostList   // HOST's hosts (hosts.go), made on first use
	own   *ownQueries // the user's own queries (ownqueries.go), if any

	stopOnce     sync.Once
	stopCh       chan struct{}
	interrupted  bool
	warmupEnd    time.Time
	measureStart chan struct{}
	deadline     time.Time
}

// Barrier has the workers of a scaled-out run begin together
// (internal/cluster). Worker 0 creates the schema and then calls
// SchemaReady; the others call WaitSchema before binding to it. Every
// worker calls Ready once its clients are connected: it returns the
// instant they all begin (warm-up, then measuring).
type Barrier interface {
	Kind() string
	SchemaReady(ctx context.Context) error
	WaitSchema(ctx context.Context) error
	Ready(ctx context.Context) (time.Time, error)
}

// New prepares a run of cfg against the driver.
func New(cfg *config.Config, d *targets.Driver, opts targets.Options) (*Runner, error) {
	schema := workload.Schema(cfg)
	if err := checkTypes(d, schema, cfg.TypeProportion); err != nil {
		return nil, err
	}
	g, err := gen.New(schema, workload.GenOptions(cfg))
	if err != nil {
		return nil, err
	}
	return &Runner{cfg: cfg, driver: d, opts: opts, schema: schema, gen: g, src: genSource{g},
		stopCh: make(chan struct{}), measureStart: make(chan struct{})}, nil
}

// NewReplay prepares a run that writes the rows of a dataset (the user's
// own data) instead of generated ones: the schema is the dataset's, batch
// n of a device is its rows [n*B, (n+1)*B), and with repeat the rows start
// again, shifted in time, once a device's are all written.
func NewReplay(cfg *config.Config, d *targets.Driver, opts targets.Options, ds *dataset.Dataset, repeat bool) *Runner {
	return &Runner{cfg: cfg, driver: d, opts: opts, schema: ds.Schema(cfg.Database),
		src:    dataSource{ds: ds, rows: cfg.BatchSize, repeat: repeat},
		stopCh: make(chan struct{}), measureStart: make(chan struct{})}
}

// Schema is the run's schema.
func (r *Runner) Schema() *ts.Schema { return r.schema }

// Generator is the run's data generator (nil for a replay).
func (r *Runner) Generator() *gen.Generator { return r.gen }

// Interrupt stops the clients after their current operation; what was
// measured so far becomes the result, marked interrupted.
func (r *Runner) Interrupt() {
	r.stopOnce.Do(func() {
		r.interrupted = true
		close(r.stopCh)
	})
}

func (r *Runner) stopped() bool {
	select {
	case <-r.stopCh:
		return true
	default:
		return false
	}
}

func (r *Runner) deadlineHit() bool {
	return !r.deadline.IsZero() && time.Now().After(r.deadline)
}

// Run executes the whole run. ctx bounds setup, verification and every
// operation; cancel it only to abort hard (Interrupt is the graceful stop).
func (r *Runner) Run(ctx context.Context) (*summary.Summary, error) {
	cfg := r.cfg
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: r.driver.Name,
		Started: time.Now().UTC(), OpenModel: cfg.Rate > 0, RatePerSecond: cfg.Rate}

	admin, err := r.openAdmin(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: connect: %w", r.driver.Name, err)
	}
	defer admin.Close()
	if err := r.schemaBarrier(ctx, admin, s); err != nil {
		return nil, err
	}
	if err := r.prepareOwn(ctx, admin); err != nil {
		return nil, err
	}
	clients, err := r.openClients(ctx)
	defer func() {
		for _, c := range clients {
			c.conn.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	probe, err := r.prepareFreshness(ctx)
	if err != nil {
		return nil, err
	}
	defer probe.close()
	if err := r.startBarrier(ctx, s); err != nil {
		return nil, err
	}

	elapsed := r.measure(ctx, clients, s, probe)
	r.finish(ctx, admin, clients, s, elapsed)
	return s, nil
}

// schemaBarrier sets up the schema; with a barrier only worker 0 creates
// it, and the others wait until it has.
func (r *Runner) schemaBarrier(ctx context.Context, admin targets.Target, s *summary.Summary) error {
	if r.Barrier == nil {
		return r.setup(ctx, admin, s, r.cfg.CreateSchema)
	}
	first := r.cfg.WorkerIndex == 0
	if !first {
		if err := r.Barrier.WaitSchema(r.stopContext(ctx)); err != nil {
			return err
		}
	}
	if err := r.setup(ctx, admin, s, r.cfg.CreateSchema && first); err != nil {
		return err
	}
	if first {
		return r.Barrier.SchemaReady(ctx)
	}
	return nil
}

// startBarrier waits at the barrier until every worker is ready, then until
// the start instant they agreed on, and records this worker's share.
func (r *Runner) startBarrier(ctx context.Context, s *summary.Summary) error {
	if r.Barrier == nil {
		return nil
	}
	lo, hi := r.cfg.ClientRange()
	s.Worker = &summary.Worker{Group: r.cfg.RunGroup, Index: r.cfg.WorkerIndex, Workers: r.cfg.Workers,
		Clients: [2]int{lo, hi}, Barrier: r.Barrier.Kind()}
	start, err := r.Barrier.Ready(r.stopContext(ctx))
	if err != nil {
		return err
	}
	s.Worker.StartAt = start.UTC()
	sleepUntil(start, r.stopCh)
	return nil
}

// stopContext is ctx, also ended by Interrupt: a wait at the barrier ends
// on the first Ctrl-C.
func (r *Runner) stopContext(ctx context.Context) context.Context {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-r.stopCh:
		case <-c.Done():
		}
		cancel()
	}()
	return c
}

// setup creates the schema when create is set (timed on its own: excluded
// from throughput), else binds to the existing one.
func (r *Runner) setup(ctx context.Context, admin targets.Target, s *summary.Summary, create bool) error {
	if r.cfg.QueryOnly {
		return nil // the user's own data: nothing created, nothing bound
	}
	if !create {
		if b, ok := admin.(targets.Binder); ok {
			return b.Bind(ctx, r.schema)
		}
		return nil
	}
	t0 := time.Now()
	if err := admin.Setup(ctx, r.schema, r.cfg.DeleteData); err != nil {
		return fmt.Errorf("%s: create schema: %w", r.driver.Name, err)
	}
	s.SchemaSeconds = time.Since(t0).Seconds()
	s.Phases = append(s.Phases, summary.Phase{Name: "schema", Seconds: s.SchemaSeconds})
	if r.cfg.InitWait > 0 {
		time.Sleep(r.cfg.InitWait)
	}
	return nil
}

func (r *Runner) openClients(ctx context.Context) ([]*client, error) {
	cfg := r.cfg
	var clients []*client
	lo, hi := cfg.ClientRange() // all clients, or this worker's share
	for i := lo; i < hi; i++ {
		conn, host, err := r.openClient(ctx, i)
		if err != nil {
			return clients, fmt.Errorf("%s: connect client %d: %w", r.driver.Name, i, err)
		}
		c := &client{id: i, slot: i - lo, r: r, conn: conn, host: host,
			devices: workload.ClientDevices(cfg, r.schema, i),
			plan:    workload.ClientPlan(cfg.OperationOrder, r.weights(), r.loop(), i, cfg.Clients),
			queries: workload.NewQueries(cfg, r.schema, i),
			batch:   r.src.newBatch(),
			filler:  r.src.newFiller(),
			own:     r.newOwnClient(i),
		}
		c.stored = make([]int64, len(c.devices))
		c.acked = make([]spans, len(c.devices))
		clients = append(clients, c)
		if b, ok := conn.(targets.Binder); ok && !cfg.QueryOnly {
			if err := b.Bind(ctx, r.schema); err != nil {
				return clients, fmt.Errorf("%s: prepare client %d: %w", r.driver.Name, i, err)
			}
		}
		c.pacer = r.newPacer(i)
	}
	return clients, nil
}

// unboundedLoop is the plan length of a run that lasts MaxTime: more
// operations than any run performs (the warm-up plan uses the same).
const unboundedLoop = 1 << 62

// loop is the number of plan steps per client: LOOP, or unbounded when
// --duration alone sets the run's length (config.Config.LoopUnbounded).
func (r *Runner) loop() int64 {
	if r.cfg.LoopUnbounded {
		return unboundedLoop
	}
	return r.cfg.Loop
}

func (r *Runner) newPacer(client int) pacer {
	p := pacer{minStep: r.cfg.OpMinInterval, random: r.cfg.OpMinIntervalRand,
		rng: rand.New(rand.NewPCG(uint64(r.cfg.DataSeed), uint64(client)))}
	if r.cfg.Rate > 0 {
		p.interval = time.Duration(float64(time.Second) * float64(r.cfg.Clients) / r.cfg.Rate)
		p.phase = time.Duration(int64(p.interval) * int64(client) / int64(r.cfg.Clients))
	}
	return p
}

// measure runs warm-up and the measured phase and returns the latter's length.
func (r *Runner) measure(ctx context.Context, clients []*client, s *summary.Summary, probe *freshnessRun) time.Duration {
	cfg := r.cfg
	warmStart := time.Now()
	r.warmupEnd = warmStart.Add(cfg.Warmup)
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() { defer wg.Done(); c.run(ctx) }()
	}
	r.tickWarmup(clients, warmStart)

	start := time.Now()
	if cfg.Warmup > 0 {
		s.Phases = append(s.Phases, r.warmPhase(clients, start.Sub(warmStart)))
	}
	if cfg.MaxTime > 0 {
		r.deadline = start.Add(cfg.MaxTime)
	}
	run := metrics.NewRunNamed(len(clients), cfg.Rate > 0, start, r.opNames())
	for _, c := range clients {
		c.rec = run.Client(c.slot)
	}
	cpu := sysinfo.SelfUsage()
	close(r.measureStart)
	probe.start(ctx)
	crashed := r.startCrash(ctx, start)
	if r.OnMeasure != nil {
		r.OnMeasure(start) // after the clients are released: it costs them nothing
	}

	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	r.collect(run, start, done, r.totalOps(clients))
	s.Tool.MeasuredCPUSeconds = sysinfo.CPUSince(cpu)
	elapsed := time.Since(start)
	run.Snapshot(time.Now())
	r.monitorStop(s, start, time.Now())
	probe.end(s)
	crashed.end(s, r.Crash)

	s.Elapsed = elapsed.Seconds()
	s.Operations = run.Operations(elapsed)
	s.Intervals = run.Intervals()
	s.Stalls = metrics.Stalls(s.Intervals, cfg.StallMin, cfg.StallFraction)
	s.Hosts = r.hostSummaries()
	switch {
	case r.interrupted:
		s.Interrupted, s.StopReason = true, "interrupted"
	case r.deadlineHit():
		s.StopReason = "duration"
	default:
		s.StopReason = "loop"
	}
	return elapsed
}

// tickWarmup waits out the warm-up, reporting progress.
func (r *Runner) tickWarmup(clients []*client, from time.Time) {
	for time.Now().Before(r.warmupEnd) && !r.stopped() {
		sleepUntil(minTime(time.Now().Add(time.Second), r.warmupEnd), r.stopCh)
		if r.Progress != nil {
			var ops int64
			for _, c := range clients {
				ops += c.warmOpsNow()
			}
			r.Progress(Tick{Phase: "warm-up", Elapsed: time.Since(from), DoneOps: ops, Deadline: r.cfg.Warmup})
		}
	}
}

func (r *Runner) warmPhase(clients []*client, d time.Duration) summary.Phase {
	p := summary.Phase{Name: "warm-up", Seconds: d.Seconds()}
	for _, c := range clients {
		p.Operations += c.warmOpsNow()
		p.Points += c.warmPointsNow()
	}
	return p
}

// collect snapshots the interval series once a second until the clients
// end (metrics.Run.Collect), feeding the monitor, the live outputs and the
// progress line.
func (r *Runner) collect(run *metrics.Run, start time.Time, done <-chan struct{}, total int64) {
	r.monitorStart(start)
	run.Collect(done, func(now time.Time, seq int, iv summary.Interval, tot metrics.Totals) {
		r.monitorTick(now)
		if r.OnInterval != nil && iv.Seconds > 0 {
			r.OnInterval(seq, iv)
		}
		if r.Progress == nil {
			return
		}
		var ops, pts int64
		for _, o := range iv.Ops {
			ops += o.OKOps
			pts += o.OKPoints
		}
		t := Tick{Phase: "measure", Elapsed: now.Sub(start), DoneOps: tot.OKOps + tot.FailOps,
			TotalOps: total, Deadline: r.cfg.MaxTime, Errors: tot.FailOps, LoopBound: !r.cfg.LoopUnbounded}
		if iv.Seconds > 0 {
			t.OpsPerSec, t.PointsPerSec = float64(ops)/iv.Seconds, float64(pts)/iv.Seconds
		}
		for _, o := range iv.Ops {
			t.P99MS = max(t.P99MS, o.P99MS)
		}
		r.Progress(t)
	})
}

// totalOps is the number of operations the plans hold (a write step is one
// operation per owned device); 0 when the run lasts MaxTime instead.
func (r *Runner) totalOps(clients []*client) int64 {
	if r.cfg.LoopUnbounded {
		return 0
	}
	var n int64
	for _, c := range clients {
		counts := c.plan.Counts()
		n += counts[workload.Write] * int64(len(c.devices))
		for _, k := range counts[1:] {
			n += k
		}
	}
	return n
}

// finish verifies, asks the target for its version and size, and fills in
// the parts of the summary that come after the measured phase.
func (r *Runner) finish(ctx context.Context, admin targets.Target, clients []*client, s *summary.Summary, elapsed time.Duration) {
	var acked int64
	for i := range s.Phases {
		if s.Phases[i].Name == "warm-up" {
			// Final counts: an operation in flight when the measured phase
			// began finished after the phase was first recorded.
			s.Phases[i] = r.warmPhase(clients, time.Duration(s.Phases[i].Seconds*float64(time.Second)))
		}
	}
	var duplicates, inDoubt int64
	for _, c := range clients {
		acked += c.warmPointsNow()
		duplicates += atomic.LoadInt64(&c.duplicatePoints)
		inDoubt += atomic.LoadInt64(&c.inDoubtPoints)
		if rc, ok := c.conn.(targets.Reconnector); ok {
			s.Reconnects += rc.Reconnects()
		}
		if fc, ok := c.conn.(targets.FallbackCounter); ok {
			for reason, n := range fc.Fallbacks() {
				if s.Fallbacks == nil {
					s.Fallbacks = map[string]int64{}
				}
				s.Fallbacks[reason] += n
			}
		}
	}
	if w := s.Op(workload.Write.String()); w != nil {
		acked += w.OKPoints
	}
	wrote := acked > 0 || (s.Op(workload.Write.String()) != nil)
	if ctx.Err() != nil {
		// Aborted (a second Ctrl-C): counting now would report a failed
		// verification that is no fault of the database.
		if r.cfg.Verify && wrote {
			s.Verify = &summary.Verify{ExpectedPoints: acked, Skipped: "the run was aborted; nothing was counted"}
		}
		return
	}
	parent := ctx
	// Whatever the server does now (it may be stopped, or gone), what comes
	// after the measured phase is bounded, by READ_OPERATION_TIMEOUT in all:
	// the run's results are waiting.
	ctx, cancel := context.WithTimeout(ctx, r.cfg.ReadTimeout)
	defer cancel()
	if r.cfg.Verify && (wrote || r.PriorRows > 0) {
		counted := r.countedDevices(clients)
		prior := r.PriorRows * int64(len(counted)*len(r.schema.Sensors))
		if g, ok := r.src.(genSource); ok && r.PriorRows > 0 {
			prior -= g.g.MissingCells(counted, r.PriorRows) // sparse generated data
		}
		s.Verify = &summary.Verify{ExpectedPoints: prior + acked - duplicates, DuplicatePoints: duplicates, InDoubtPoints: inDoubt}
		r.verify(ctx, admin, clients, s.Verify)
		r.mapLoss(ctx, admin, clients, s.Verify)
		hostCounts(admin, s.Hosts)
		if r.separateHosts() {
			s.Verify.QueriesSkipped = "HOSTS_DATA = separate: no host holds every device, so no answer can be checked against one host"
		} else {
			s.Verify.Queries = r.checkQueries(ctx, admin, clients, s)
		}
	}
	// The own queries' answers are asked after verification, which waits
	// for what the server shows (VictoriaMetrics' search cache), each
	// bounded by READ_OPERATION_TIMEOUT on its own.
	r.ownSummary(parent, admin, clients, s)
	if v, ok := admin.(targets.Versioner); ok {
		if ver, err := v.ServerVersion(ctx); err == nil {
			s.Environment.ServerVersion = ver
		}
	}
	if m, ok := admin.(targets.NameMapper); ok {
		s.NameMapping = m.NameMapping()
	}
	if sz, ok := admin.(targets.Sizer); ok && wrote {
		if n, err := sz.StorageBytes(ctx); err == nil && n > 0 {
			s.StorageBytes = n
			// Per point only when the database held nothing else: the
			// size covers everything stored, earlier runs' data included.
			if stored := acked - duplicates; stored > 0 && r.cfg.DeleteData && r.cfg.CreateSchema {
				s.BytesPerPoint = float64(n) / float64(stored)
			}
		}
	}
}

// verify counts the distinct points the target stored for this run's
// devices and judges v, the points it acknowledged (warm-up included), by
// them. A worker counts the devices of its own clients: the others' are
// theirs to count.
//
// A replayed file may hold a (device, time) more than once: the server
// keeps one point per series and time, so those rows' points are expected
// once (duplicates, counted and reported). Writes in doubt may add up to
// their points (summary.Verify.Judge).
// countedDevices are the devices whose points verification counts: every
// device, or in a scaled-out run (WORKERS > 1) this worker's clients'
// (the others count theirs).
func (r *Runner) countedDevices(clients []*client) []ts.Device {
	if !r.cfg.Scaled() {
		return r.schema.Devices
	}
	var out []ts.Device
	for _, c := range clients {
		out = append(out, c.devices...)
	}
	return out
}

func (r *Runner) verify(ctx context.Context, admin targets.Target, clients []*client, v *summary.Verify) {
	rng := ts.CountRange{}
	counted := r.countedDevices(clients)
	for i := range counted {
		rng.Devices = append(rng.Devices, &counted[i])
	}
	n, err := admin.Count(ctx, rng)
	if err != nil && metrics.Cause(err) == metrics.CauseConnection {
		// The admin connection sat idle through the run: a server that
		// restarted meanwhile has dropped it, and a target re-opens a
		// dropped connection on its next operation.
		n, err = admin.Count(ctx, rng)
	}
	switch {
	case errors.Is(err, targets.ErrUnsupported):
		v.Skipped = err.Error() // the target keeps nothing to count (null)
	case err != nil:
		v.Error = fmt.Sprintf("%s: count stored points: %v", r.driver.Name, err)
	default:
		v.Judge(n)
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
