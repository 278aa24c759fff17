package run

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/cluster"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/tpcc"
)

// defaultTPCCDuration is a TPC-C run's measured phase when --duration is
// not given: LOOP means nothing to a terminal.
const defaultTPCCDuration = time.Minute

// setupTimeout bounds connecting, loading and checking.
const setupTimeout = 2 * time.Hour

// tpccConfig maps the run configuration onto a TPC-C run.
func tpccConfig(cfg *config.Config) tpcc.Config {
	d := cfg.MaxTime
	if d == 0 {
		d = defaultTPCCDuration
	}
	return tpcc.Config{Warehouses: cfg.TPCCWarehouses, Terminals: cfg.Clients, Duration: d, Warmup: cfg.Warmup,
		Think: cfg.TPCCThink, Unlogged: cfg.TPCCTables == "unlogged", Tablespace: cfg.TPCCTablespace,
		Load: cfg.TPCCLoad, Seed: cfg.DataSeed, TxTimeout: cfg.WriteTimeout, Mode: cfg.TPCCMode, Rate: cfg.Rate,
		Share: tpcc.Share{Index: cfg.WorkerIndex, Of: cfg.Workers}}
}

// tpccAccess is the target's SQL access, or a usage error saying why it
// cannot run TPC-C.
func tpccAccess(d *targets.Driver) (*targets.SQLAccess, error) {
	switch {
	case d.SQL != nil && d.SQL.Open != nil:
		return d.SQL, nil
	case d.SQL != nil:
		return nil, exit.Usagef("WORKLOAD = tpcc: target %s cannot run TPC-C: %s", d.Name, d.SQL.Unsupported)
	}
	return nil, exit.Usagef("WORKLOAD = tpcc: target %s is not an SQL database with transactions; TPC-C runs on postgres "+
		"(and PostgreSQL-wire servers) and mysql (MySQL, MariaDB)", d.Name)
}

// tpccRun is one TPC-C run of this process: the whole run, or a worker's
// share of it (WORKERS, tpcc.Share).
type tpccRun struct {
	cfg            *config.Config
	tc             tpcc.Config
	driver         *targets.Driver
	access         *targets.SQLAccess
	opts           targets.Options
	db             *sql.DB
	version        string
	runID, label   string
	dataDir        string
	out            Outputs
	stdout, stderr io.Writer
	load           tpcc.LoadResult
	r              *tpcc.Run
	barrier        *cluster.StoreBarrier // a worker process's, or nil
}

// runTPCC loads (or reuses) the TPC-C tables, runs the terminals, checks
// the consistency conditions and reports like any run: matrices (one row
// per transaction type), results store, thresholds. A worker process
// (WORKERS) runs the terminals of its warehouses: worker 0 loads, the
// others wait for its load, all start together, and worker 0 checks the
// consistency conditions once every worker has ended.
func runTPCC(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	p, err := newTPCCRun(cfg, label, out, stdout, stderr)
	if err != nil {
		return nil, err
	}
	crash, err := crashPlan(cfg, p.driver)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	setup, cancelSetup := context.WithTimeout(ctx, setupTimeout)
	defer cancelSetup()
	stopLoad := onInterrupt(cancelSetup, cancel, stderr)
	defer stopLoad()
	if err := p.open(setup); err != nil {
		return nil, err
	}
	defer p.db.Close()
	if !cfg.Scaled() {
		if err := p.prepare(setup); err != nil {
			return nil, err
		}
		stopLoad()
	}
	s, sess, err := p.measure(ctx, cancel, setup, stopLoad, crash)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	s.TPCC = tpcc.Figures(s, p.tc, p.load, out.ServerCores)
	s.TPCC.Terminals = len(p.tc.TerminalIDs())
	s.Environment.ServerVersion = p.version
	if ctx.Err() == nil {
		p.check(s.TPCC)
	}
	results.Complete(s, cfg, p.runID, p.driver, p.opts.DataDir, Version)
	return s, finishRun(s, cfg, label, p.dataDir, sess.store, sess.live, out, stdout, stderr)
}

// newTPCCRun checks cfg's TPC-C settings (a usage error names the first
// wrong one) and makes the run.
func newTPCCRun(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*tpccRun, error) {
	driver, _ := targets.Lookup(cfg.Target)
	access, err := tpccAccess(driver)
	if err != nil {
		return nil, err
	}
	tc := tpccConfig(cfg)
	if err := tc.Validate(); err != nil {
		return nil, exit.Usagef("%v", err)
	}
	dataDir := datadir.Or(cfg.DataDir)
	return &tpccRun{cfg: cfg, tc: tc, driver: driver, access: access, opts: connect.Options(cfg, driver, dataDir),
		runID: NewID(), label: label, dataDir: dataDir, out: out, stdout: stdout, stderr: stderr}, nil
}

// open connects, asks the server's version (before the run, so that an
// interrupted run names it too) and says what runs.
func (p *tpccRun) open(ctx context.Context) error {
	db, err := p.access.Open(ctx, p.opts)
	if err != nil {
		return connectError(err, p.driver)
	}
	p.db = db
	p.version = tpcc.ServerVersion(ctx, db, p.access.Dialect)
	share := ""
	if p.cfg.Scaled() {
		first, last := p.tc.WarehouseRange()
		share = fmt.Sprintf(" (worker %d of %d: warehouses %d..%d, %d of the terminals)", p.cfg.WorkerIndex, p.cfg.Workers,
			first, last, len(p.tc.TerminalIDs()))
	}
	fmt.Fprintf(p.stderr, "tsbench: run %s: TPC-C on %s, %d warehouses, %d terminals%s, %v measured\n",
		p.runID, p.driver.Name, p.tc.Warehouses, p.tc.Terminals, share, p.tc.Duration)
	if note := connect.TLSNote(p.cfg); note != "" {
		fmt.Fprintln(p.stderr, "tsbench: "+note)
	}
	return nil
}

// prepare loads the tables (or reuses a complete load) and makes the run
// of the terminals on them.
func (p *tpccRun) prepare(ctx context.Context) error {
	load, consts, err := tpcc.Prepare(ctx, p.db, p.access.Dialect, &p.tc)
	switch {
	case ctx.Err() != nil:
		return exit.With(exit.Interrupted, fmt.Errorf("%s: TPC-C load interrupted", p.driver.Name))
	case err != nil:
		return exit.With(exit.Failure, fmt.Errorf("%s: %w", p.driver.Name, err))
	case load.Loaded && !tpcc.AllOK(load.Checks):
		return exit.With(exit.Verify, fmt.Errorf("%s: the fresh TPC-C load breaks consistency conditions: %+v", p.driver.Name, load.Checks))
	}
	if load.Loaded {
		fmt.Fprintf(p.stderr, "tsbench: loaded %d warehouses (%d rows) in %.1f s; the twelve consistency conditions hold\n",
			p.tc.Warehouses, load.Rows, load.Seconds)
	}
	p.load = load
	r, err := tpcc.NewRun(p.db, p.access.Dialect, p.tc, consts)
	if err != nil {
		return exit.Usagef("%v", err)
	}
	p.r = r
	return nil
}

// measure runs the terminals on the engine, in a session like every
// run's: progress, the live store and outputs, resource sampling, the
// crash. A worker process meets its group first (meet).
func (p *tpccRun) measure(ctx context.Context, abort func(), setup context.Context, stopLoad func(),
	crash *crash.Plan) (*summary.Summary, *session, error) {
	ec := engine.ConfigFrom(p.cfg)
	p.tc.Drive(&ec)
	eng := engine.New(ec, engine.Hooks{})
	sess, err := openSession(p.cfg, p.runID, p.label, p.driver, p.out, p.dataDir, eng.Interrupt, abort, p.stdout, p.stderr)
	if err != nil {
		return nil, nil, err
	}
	eng.Hooks = sess.hooks
	eng.Hooks.Crash = crash
	if err := p.meetLoaded(setup, sess); err != nil {
		sess.close()
		sess.drop(p.stderr)
		return nil, nil, err
	}
	stopLoad()
	started := time.Now().UTC()
	workers, err := p.r.Open(ctx)
	defer p.r.Close()
	if err != nil {
		sess.close()
		return nil, nil, sess.abandon(p.driver, err, p.stderr)
	}
	share, err := p.start(ctx, eng)
	if err != nil {
		sess.close()
		sess.drop(p.stderr)
		return nil, nil, err
	}
	handles := eng.HandlesOf(p.tc.TerminalIDs())
	for i, c := range p.r.Clocks() {
		handles[i].Arrivals = c // a transaction ends at its last answer's arrival
	}
	res := eng.Run(ctx, workers, handles)
	sess.measured()
	p.ended(ctx)
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: p.driver.Name, Started: started,
		OpenModel: ec.Rate > 0, RatePerSecond: ec.Rate, LatencyClock: arrival.ClockOf(p.r.Clocks()), Worker: share}
	res.Record(s)
	o := p.r.Outcome()
	s.TPCC = &summary.TPCC{Rollbacks: o.Rollbacks, DeliverySkipped: o.DeliverySkipped, Reconnects: o.Reconnects}
	if res.Warmup != nil {
		s.TPCC.WarmupTx = res.Warmup.Operations
	}
	return s, sess, nil
}

// meetLoaded has a worker process meet its group in the results store
// around the load: worker 0 prepares it, the others wait and then take
// the load worker 0 made (TPCC_LOAD = never: they load nor create
// anything, and do not race at it). A single process has prepared already.
func (p *tpccRun) meetLoaded(ctx context.Context, sess *session) error {
	if !p.cfg.Scaled() {
		return nil
	}
	b, err := storeBarrier(p.cfg, sess.store, p.runID)
	if err != nil {
		return err
	}
	p.barrier = b
	if p.cfg.WorkerIndex == 0 {
		if err := p.prepare(ctx); err != nil {
			return err
		}
		return b.SchemaReady(ctx)
	}
	if err := b.WaitSchema(ctx); err != nil {
		return err
	}
	p.tc.Joined = true
	return p.prepare(ctx)
}

// start has a worker process wait for its group to be ready, and sleeps
// until the instant they all start; it returns the worker's share, nil for
// a single process.
func (p *tpccRun) start(ctx context.Context, eng *engine.Engine) (*summary.Worker, error) {
	if p.barrier == nil {
		return nil, nil
	}
	at, err := p.barrier.Ready(ctx)
	if err != nil {
		return nil, err
	}
	share := results.WorkerShare(p.cfg)
	first, last := p.tc.WarehouseRange()
	share.Clients, share.Warehouses = [2]int{}, [2]int{first, last}
	share.Barrier, share.StartAt = p.barrier.Kind(), at.UTC()
	eng.SleepUntil(at)
	return share, nil
}

// ended tells worker 0 that this worker's terminals have stopped: it
// checks the consistency conditions once every worker's have.
func (p *tpccRun) ended(ctx context.Context) {
	if p.barrier == nil || p.cfg.WorkerIndex == 0 || ctx.Err() != nil {
		return
	}
	if err := p.barrier.Ended(ctx); err != nil {
		fmt.Fprintf(p.stderr, "tsbench: warning: %v: worker 0 will wait for this worker until BARRIER_TIMEOUT\n", err)
	}
}

// check verifies the run: its New-Orders at once (its warehouses are its
// own: no other worker's New-Order enters their districts), and the
// consistency conditions, which hold only with no transaction under way:
// a worker other than 0 leaves them to worker 0, which checks them once
// every worker has ended.
func (p *tpccRun) check(t *summary.TPCC) {
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	t.NewOrders, _ = p.r.CheckNewOrders(ctx)
	if p.barrier != nil && p.cfg.WorkerIndex != 0 {
		t.ConsistencyBy = "worker 0"
		return
	}
	if p.barrier != nil {
		if err := p.barrier.AllEnded(ctx); err != nil {
			fmt.Fprintf(p.stderr, "tsbench: warning: %v: the consistency conditions are checked while that worker's terminals may still run\n", err)
		}
	}
	t.Consistency, _ = tpcc.CheckConsistency(ctx, p.db, p.access.Dialect, false)
}
