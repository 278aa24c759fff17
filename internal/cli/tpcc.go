package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/report"
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
		Load: cfg.TPCCLoad, Seed: cfg.DataSeed, TxTimeout: cfg.WriteTimeout, Mode: cfg.TPCCMode}
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
	s, store, live, err := measureTPCC(ctx, cancel, r, cfg, runID, label, driver, out, dataDir, stdout, stderr)
	if err != nil {
		return nil, err
	}
	s.TPCC = tpcc.Figures(s, tc, load, out.serverCores)
	if ctx.Err() == nil {
		check, cancelCheck := context.WithTimeout(context.Background(), setupTimeout)
		s.TPCC.Consistency, _ = tpcc.CheckConsistency(check, db, access.Dialect, false)
		s.Environment.ServerVersion = tpcc.ServerVersion(check, db)
		cancelCheck()
	}
	results.Complete(s, cfg, runID, driver, opts.DataDir, Version)
	return s, finishRun(s, cfg, label, dataDir, store, live, out, stdout, stderr)
}

// measureTPCC runs the terminals with progress, live store and resource
// sampling, as runBenchmark does for time series.
func measureTPCC(ctx context.Context, abort func(), r *tpcc.Run, cfg *config.Config, runID, label string, driver *targets.Driver,
	out runOutputs, dataDir string, stdout, stderr io.Writer) (*summary.Summary, *results.Live, *liveRun, error) {
	store := results.OpenLive(out.results, dataDir, stderr)
	mon := resourceRecorder(store, cfg, driver, out)
	w := startRunWatch(cfg, r.Interrupt, abort, stdout, stderr)
	defer w.release()
	partial := results.Partial(cfg, runID, label, driver, Version)
	limit := tpccConfig(cfg).Duration
	started := time.Now().UTC()
	hooks := tpcc.Hooks{
		OnMeasure: func(start time.Time) {
			partial.MeasureStarted = start.UTC()
			store.Begin(partial)
			if mon != nil {
				mon.Start(start)
			}
		},
		OnInterval: store.Interval,
		Progress: func(elapsed time.Duration, iv summary.Interval, tot metrics.Totals) {
			if mon != nil {
				mon.Tick(time.Now())
			}
			if w.progress != nil {
				w.progress.Update(report.ProgressFromTPCC(elapsed, iv, tot, limit))
			}
		},
	}
	live, err := startLiveHooks(&hooks.OnInterval, mon, cfg, runID, label, driver, out.live, stderr)
	if err != nil {
		store.Abandon(runID)
		return nil, nil, nil, err
	}
	res, err := r.Execute(ctx, hooks)
	w.measured()
	if err != nil {
		return nil, nil, nil, abandonRun(live, store, runID, driver, err, stderr)
	}
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: driver.Name, Started: started,
		Elapsed: res.Elapsed.Seconds(), Operations: res.Operations, Intervals: res.Intervals,
		Interrupted: res.Interrupted, StopReason: res.StopReason, MeasureStarted: partial.MeasureStarted,
		Stalls: metrics.Stalls(res.Intervals, cfg.StallMin, cfg.StallFraction)}
	if mon != nil {
		s.Resources = mon.Stop(time.Now())
	}
	if cfg.Warmup > 0 {
		s.Phases = append(s.Phases, summary.Phase{Name: "warm-up", Seconds: cfg.Warmup.Seconds(), Operations: res.WarmupTx})
	}
	s.TPCC = &summary.TPCC{Rollbacks: res.Rollbacks, DeliverySkipped: res.DeliverySkipped, Reconnects: res.Reconnects,
		WarmupTx: res.WarmupTx}
	return s, store, live, nil
}

// abandonRun ends a run whose measurement failed: its live outputs closed,
// its record taken out of the store, the failure (exit 1) returned.
func abandonRun(live *liveRun, store *results.Live, runID string, driver *targets.Driver, err error, stderr io.Writer) error {
	_ = live.finish(nil, stderr)
	store.Abandon(runID)
	return &exitError{ExitFailure, fmt.Errorf("%s: %w", driver.Name, err)}
}
