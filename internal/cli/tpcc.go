package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/engine"
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
		Load: cfg.TPCCLoad, Seed: cfg.DataSeed, TxTimeout: cfg.WriteTimeout, Mode: cfg.TPCCMode, Rate: cfg.Rate}
}

// tpccAccess is the target's SQL access, or a usage error saying why it
// cannot run TPC-C.
func tpccAccess(d *targets.Driver) (*targets.SQLAccess, error) {
	switch {
	case d.SQL != nil && d.SQL.Open != nil:
		return d.SQL, nil
	case d.SQL != nil:
		return nil, usageError("WORKLOAD = tpcc: target %s cannot run TPC-C: %s", d.Name, d.SQL.Unsupported)
	}
	return nil, usageError("WORKLOAD = tpcc: target %s is not an SQL database with transactions; TPC-C runs on postgres "+
		"(and PostgreSQL-wire servers) and mysql (MySQL, MariaDB)", d.Name)
}

// runTPCC loads (or reuses) the TPC-C tables, runs the terminals, checks
// the consistency conditions and reports like any run: matrices (one row
// per transaction type), results store, thresholds.
func runTPCC(cfg *config.Config, label string, out runOutputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	driver, _ := targets.Lookup(cfg.Target)
	access, err := tpccAccess(driver)
	if err != nil {
		return nil, err
	}
	tc := tpccConfig(cfg)
	if err := tc.Validate(); err != nil {
		return nil, usageError("%v", err)
	}
	dataDir := datadir.Or(cfg.DataDir)
	runID := newRunID()
	opts := connect.Options(cfg, driver, dataDir)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	setup, cancelSetup := context.WithTimeout(ctx, setupTimeout)
	defer cancelSetup()
	stopLoad := onInterrupt(cancelSetup, cancel, stderr)
	db, err := access.Open(setup, opts)
	if err != nil {
		stopLoad()
		return nil, connectError(err, driver)
	}
	defer db.Close()
	// Asked before the run, so that an interrupted run names it too.
	version := tpcc.ServerVersion(setup, db, access.Dialect)
	fmt.Fprintf(stderr, "tsbench: run %s: TPC-C on %s, %d warehouses, %d terminals, %v measured\n",
		runID, driver.Name, tc.Warehouses, tc.Terminals, tc.Duration)
	if note := connect.TLSNote(cfg); note != "" {
		fmt.Fprintln(stderr, "tsbench: "+note)
	}
	load, consts, err := tpcc.Prepare(setup, db, access.Dialect, &tc)
	stopLoad()
	switch {
	case setup.Err() != nil:
		return nil, &exitError{ExitInterrupted, fmt.Errorf("%s: TPC-C load interrupted", driver.Name)}
	case err != nil:
		return nil, &exitError{ExitFailure, fmt.Errorf("%s: %w", driver.Name, err)}
	case load.Loaded && !tpcc.AllOK(load.Checks):
		return nil, &exitError{ExitVerify, fmt.Errorf("%s: the fresh TPC-C load breaks consistency conditions: %+v", driver.Name, load.Checks)}
	}
	if load.Loaded {
		fmt.Fprintf(stderr, "tsbench: loaded %d warehouses (%d rows) in %.1f s; the twelve consistency conditions hold\n",
			tc.Warehouses, load.Rows, load.Seconds)
	}
	r, err := tpcc.NewRun(db, access.Dialect, tc, consts)
	if err != nil {
		return nil, usageError("%v", err)
	}
	crash, err := crashPlan(cfg, driver)
	if err != nil {
		return nil, err
	}
	s, sess, err := measureTPCC(ctx, cancel, r, tc, cfg, runID, label, driver, out, dataDir, crash, stdout, stderr)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	s.TPCC = tpcc.Figures(s, tc, load, out.serverCores)
	s.Environment.ServerVersion = version
	if ctx.Err() == nil {
		check, cancelCheck := context.WithTimeout(context.Background(), setupTimeout)
		s.TPCC.Consistency, _ = tpcc.CheckConsistency(check, db, access.Dialect, false)
		s.TPCC.NewOrders, _ = r.CheckNewOrders(check)
		cancelCheck()
	}
	results.Complete(s, cfg, runID, driver, opts.DataDir, Version)
	return s, finishRun(s, cfg, label, dataDir, sess.store, sess.live, out, stdout, stderr)
}

// measureTPCC runs the terminals on the engine, in a session like every
// run's: progress, the live store and outputs, resource sampling, the
// crash.
func measureTPCC(ctx context.Context, abort func(), r *tpcc.Run, tc tpcc.Config, cfg *config.Config, runID, label string,
	driver *targets.Driver, out runOutputs, dataDir string, crash *crash.Plan, stdout, stderr io.Writer) (*summary.Summary, *session, error) {
	ec := engine.ConfigFrom(cfg)
	tc.Drive(&ec)
	eng := engine.New(ec, engine.Hooks{})
	sess, err := openSession(cfg, runID, label, driver, out, dataDir, eng.Interrupt, abort, stdout, stderr)
	if err != nil {
		return nil, nil, err
	}
	eng.Hooks = sess.hooks
	eng.Hooks.Crash = crash
	started := time.Now().UTC()
	workers, err := r.Open(ctx)
	defer r.Close()
	if err != nil {
		sess.close()
		return nil, nil, sess.abandon(driver, err, stderr)
	}
	handles := eng.Handles(len(workers))
	for i, c := range r.Clocks() {
		handles[i].Arrivals = c // a transaction ends at its last answer's arrival
	}
	res := eng.Run(ctx, workers, handles)
	sess.measured()
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: driver.Name, Started: started,
		OpenModel: ec.Rate > 0, RatePerSecond: ec.Rate, LatencyClock: arrival.ClockOf(r.Clocks())}
	res.Record(s)
	o := r.Outcome()
	s.TPCC = &summary.TPCC{Rollbacks: o.Rollbacks, DeliverySkipped: o.DeliverySkipped, Reconnects: o.Reconnects}
	if res.Warmup != nil {
		s.TPCC.WarmupTx = res.Warmup.Operations
	}
	return s, sess, nil
}
