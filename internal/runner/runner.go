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
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/freshness"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

// Runner holds one run's setup.
type Runner struct {
	cfg    *config.Config
	driver *targets.Driver
	opts   targets.Options
	schema *ts.Schema
	gen    *gen.Generator // nil when a dataset is replayed
	src    source

	// Hooks follow the run: the progress line, the resources sampler, the
	// live outputs and the results store (each second as it closes), the
	// start of the measured phase, the crash. The runner adds its own
	// freshness probe to them.
	Hooks engine.Hooks
	// Barrier, when set, makes this run one worker of several (WORKERS >
	// 1) that begin together.
	Barrier Barrier
	// PriorRows, when set, is how many rows of every device an earlier
	// phase of a scenario wrote with the same schema and seed: a run that
	// only queries them verifies they are stored and checks its answers
	// against them (the archiver's extraction reads what its insert wrote).
	PriorRows int64

	hosts *hostList   // HOST's hosts (hosts.go), made on first use
	own   *ownQueries // the user's own queries (ownqueries.go), if any

	eng *engine.Engine // drives the clients and measures them
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
	return &Runner{cfg: cfg, driver: d, opts: opts, schema: schema, gen: g, src: genSource{g}, eng: newEngine(cfg)}, nil
}

// NewReplay prepares a run that writes the rows of a dataset (the user's
// own data) instead of generated ones: the schema is the dataset's, batch
// n of a device is its rows [n*B, (n+1)*B), and with repeat the rows start
// again, shifted in time, once a device's are all written.
func NewReplay(cfg *config.Config, d *targets.Driver, opts targets.Options, ds *dataset.Dataset, repeat bool) *Runner {
	return &Runner{cfg: cfg, driver: d, opts: opts, schema: ds.Schema(cfg.Database),
		src: dataSource{ds: ds, rows: cfg.BatchSize, repeat: repeat}, eng: newEngine(cfg)}
}

// newEngine is the engine of a time series run: its clients driven as cfg
// says, until LOOP ends their plans.
func newEngine(cfg *config.Config) *engine.Engine {
	ec := engine.ConfigFrom(cfg)
	ec.PlanEnd = "loop"
	return engine.New(ec, engine.Hooks{})
}

// Schema is the run's schema.
func (r *Runner) Schema() *ts.Schema { return r.schema }

// Generator is the run's data generator (nil for a replay).
func (r *Runner) Generator() *gen.Generator { return r.gen }

// Interrupt stops the clients after their current operation; what was
// measured so far becomes the result, marked interrupted.
func (r *Runner) Interrupt() { r.eng.Interrupt() }

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
	loops, err := r.openOwnLoops(ctx, admin, clients)
	if err != nil {
		return nil, err
	}
	defer closeLoops(loops)
	probe, err := r.prepareFreshness(ctx)
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	if err := r.startBarrier(ctx, s); err != nil {
		return nil, err
	}

	elapsed := r.measure(ctx, clients, loops, s, probe)
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
	r.eng.SleepUntil(start)
	return nil
}

// stopContext is ctx, also ended by Interrupt: a wait at the barrier ends
// on the first Ctrl-C.
func (r *Runner) stopContext(ctx context.Context) context.Context {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-r.eng.StopChan():
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
		var conn targets.Target = loopServed{}
		var host *hostStats
		arrived := &arrival.Clock{}
		if !r.loopsServe() {
			var err error
			if conn, host, err = r.openClient(arrival.WithClock(ctx, arrived), i); err != nil {
				return clients, fmt.Errorf("%s: connect client %d: %w", r.driver.Name, i, err)
			}
		}
		c := &client{id: i, r: r, conn: conn, host: host, arrived: arrived,
			devices: workload.ClientDevices(cfg, r.schema, i),
			plan:    workload.ClientPlan(cfg.OperationOrder, r.weights(), r.loop(), i, cfg.Clients),
			queries: workload.NewQueries(cfg, r.schema, i),
			batch:   r.src.newBatch(),
			filler:  r.src.newFiller(),
			own:     r.newOwnClient(i),
		}
		c.stored = make([]int64, len(c.devices))
		c.acked = make([]spans, len(c.devices))
		c.holed = make([]bool, len(c.devices))
		clients = append(clients, c)
		if b, ok := conn.(targets.Binder); ok && !cfg.QueryOnly {
			if err := b.Bind(ctx, r.schema); err != nil {
				return clients, fmt.Errorf("%s: prepare client %d: %w", r.driver.Name, i, err)
			}
		}
	}
	for i, h := range r.eng.Handles(len(clients)) {
		c := clients[i]
		c.h = h
		h.Arrivals = c.arrived
		if c.host != nil {
			h.Observe = c.observe
		}
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

// measure runs warm-up and the measured phase on the engine and records
// them in s; it returns the measured phase's length.
// With loops, event loops serve the clients (CLIENT_IO=epoll).
func (r *Runner) measure(ctx context.Context, clients []*client, loops []*ownLoop, s *summary.Summary, probe *freshness.Session) time.Duration {
	r.eng.Config.Names = r.opNames()
	r.eng.Config.TotalOps = r.totalOps(clients)
	r.eng.Hooks = probe.Around(ctx, r.Hooks, func(f *summary.Freshness) { s.Freshness = f })
	workers := make([]engine.Worker, len(clients))
	handles := make([]*engine.Handle, len(clients))
	for i, c := range clients {
		workers[i], handles[i] = c, c.h
	}
	var res *engine.Result
	if loops != nil {
		res = r.eng.RunAsync(ctx, asyncGroups(loops))
		var clocks []string
		for _, l := range loops {
			s.Reconnects += l.loop.Reconnects()
			if c := l.loop.Clock(); !slices.Contains(clocks, c) {
				clocks = append(clocks, c)
			}
		}
		s.LatencyClock = strings.Join(clocks, "; ")
	} else {
		res = r.eng.Run(ctx, workers, handles)
		s.LatencyClock = stampedClock(clients)
	}
	res.Record(s)
	for _, c := range clients {
		if c.host != nil {
			c.host.mu.Lock()
			c.host.notSent += c.h.NotSent()
			c.host.mu.Unlock()
		}
	}
	s.Hosts = r.hostSummaries()
	return res.Elapsed
}

// stampedClock says what ended the latencies of clients served by their
// own goroutines (arrival.ClockOf).
func stampedClock(clients []*client) string {
	clocks := make([]*arrival.Clock, len(clients))
	for i, c := range clients {
		clocks[i] = c.arrived
	}
	return arrival.ClockOf(clocks)
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

// clientTotals adds up the clients' points written in the warm-up,
// duplicate points and points in doubt, and puts their connections'
// reconnections and fallbacks into s.
func clientTotals(clients []*client, s *summary.Summary) (warm, duplicates, inDoubt int64) {
	for _, c := range clients {
		warm += c.h.WarmPoints()
		duplicates += atomic.LoadInt64(&c.duplicatePoints)
		inDoubt += c.h.InDoubtPoints()
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
	return warm, duplicates, inDoubt
}

// finish verifies, asks the target for its version and size, and fills in
// the parts of the summary that come after the measured phase.
func (r *Runner) finish(ctx context.Context, admin targets.Target, clients []*client, s *summary.Summary, elapsed time.Duration) {
	acked, duplicates, inDoubt := clientTotals(clients, s)
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

// countAttempts bounds the counts verification makes: the first, then
// three more after pauses of 0, 1 and 2 s.
const countAttempts = 4

func (r *Runner) verify(ctx context.Context, admin targets.Target, clients []*client, v *summary.Verify) {
	rng := ts.CountRange{}
	counted := r.countedDevices(clients)
	for i := range counted {
		rng.Devices = append(rng.Devices, &counted[i])
	}
	n, err := admin.Count(ctx, rng)
	// A count that failed for a reason that passes is made again, after
	// a pause that doubles: the admin connection sat idle through the run,
	// and a server that restarted meanwhile has dropped it (a target
	// re-opens a dropped connection on its next operation); a replicated
	// store just past a fault may time out while it catches a node up.
	for pause := time.Duration(0); err != nil && metrics.Transient(err) && len(v.CountFailures) < countAttempts-1; {
		v.CountFailures = append(v.CountFailures, err.Error())
		select {
		case <-time.After(pause):
		case <-ctx.Done():
		}
		pause = max(2*pause, time.Second)
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
