package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/freshness"
	"github.com/tsbench/tsbench/internal/promrun"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// promStores are the targets that take remote write and answer PromQL.
var promStores = []string{"prometheus", "victoriametrics", "mimir", "thanos"}

// promConfig maps the run configuration onto the workload's.
func promConfig(cfg *config.Config) promrun.Config {
	return promrun.Config{
		Shape: promshape.Config{Targets: cfg.PromTargets, Interval: cfg.PromScrapeInterval, ChurnShare: cfg.PromChurnShare,
			ChurnPeriod: time.Duration(cfg.PromChurnPeriod) * cfg.PromScrapeInterval, Seed: cfg.DataSeed},
		Scrapes: int64(cfg.PromScrapes), WriteTimeout: cfg.WriteTimeout, ReadTimeout: cfg.ReadTimeout,
	}
}

// promOptions are the target's options for the workload: remote write 1.0
// (VictoriaMetrics' write_path=remote-write), or a usage error for a
// target that cannot take it.
func promOptions(cfg *config.Config, d *targets.Driver, dataDir string) (targets.Options, error) {
	ok := false
	for _, n := range promStores {
		ok = ok || n == d.Name
	}
	if !ok {
		return targets.Options{}, usageError("WORKLOAD = prometheus: target %s does not take Prometheus remote write; "+
			"the workload runs on %s", d.Name, strings.Join(promStores, ", "))
	}
	opts := connect.Options(cfg, d, dataDir)
	extra := map[string]string{}
	for k, v := range opts.Extra {
		extra[k] = v
	}
	switch w := extra["write_path"]; {
	case w == "" && d.Name == "victoriametrics":
		extra["write_path"] = "remote-write"
	case w != "" && w != "remote-write":
		return targets.Options{}, usageError("target option write_path = %s: not with WORKLOAD = prometheus, "+
			"which writes remote write 1.0 (write_path=remote-write)", w)
	}
	opts.Extra = extra
	return opts, nil
}

// openPromStores opens a connection per client.
func openPromStores(ctx context.Context, d *targets.Driver, opts targets.Options, n int) ([]targets.PromStore, []targets.Target, error) {
	var stores []targets.PromStore
	var opened []targets.Target
	for range n {
		t, err := d.Open(ctx, opts)
		if err != nil {
			return nil, opened, err
		}
		opened = append(opened, t)
		s, ok := t.(targets.PromStore)
		if !ok {
			return nil, opened, fmt.Errorf("%s: takes no remote write through tsbench", d.Name)
		}
		stores = append(stores, s)
	}
	return stores, opened, nil
}

// promRun is one run of the prometheus workload as the CLI drives it.
type promRun struct {
	cfg            *config.Config
	driver         *targets.Driver
	runID, label   string
	dataDir        string
	out            runOutputs
	r              *promrun.Run
	stores         []targets.PromStore
	probe          *freshness.Session // FRESHNESS, or nil
	crash          *crash.Plan        // CRASH_AT, or nil
	stdout, stderr io.Writer
}

// runPrometheus writes the prometheus workload's scrapes by remote write,
// evaluates its rules, alerts and dashboards with every answer checked
// against the model, and counts the stored samples, reporting like any
// run.
func runPrometheus(cfg *config.Config, label string, out runOutputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	driver, _ := targets.Lookup(cfg.Target)
	p := &promRun{cfg: cfg, driver: driver, runID: newRunID(), label: label, dataDir: datadir.Or(cfg.DataDir), out: out,
		stdout: stdout, stderr: stderr}
	opts, err := promOptions(cfg, driver, p.dataDir)
	if err != nil {
		return nil, err
	}
	if p.crash, err = crashPlan(cfg, driver); err != nil {
		return nil, err
	}
	pc := promrun.Plan(promConfig(cfg), time.Now(), "tsbench-"+p.runID)
	if p.r, err = promrun.New(pc); err != nil {
		return nil, usageError("WORKLOAD = prometheus: %v", err)
	}
	p.r.Report = func(s string) { fmt.Fprintln(stderr, "tsbench: "+s) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened, err := p.open(ctx, opts)
	defer func() {
		p.probe.Close()
		for _, t := range opened {
			t.Close()
		}
	}()
	if err != nil {
		return nil, connectError(err, driver)
	}
	fmt.Fprintf(stderr, "tsbench: run %s: prometheus workload on %s: %d targets x %d series, %d scrapes every %v from %s, "+
		"churn %v every %d scrapes, then %d queries checked; job=%q\n", p.runID, driver.Name, pc.Shape.Targets,
		p.r.Model().SeriesPerTarget(), pc.Scrapes, pc.Shape.Interval, time.UnixMilli(pc.Shape.Start).UTC().Format(time.RFC3339),
		pc.Shape.ChurnShare, cfg.PromChurnPeriod, p.r.Queries(), pc.Shape.Job)
	s, sess, err := p.measure(ctx, cancel)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	if n, lost := p.r.Resent(), p.r.FailedWrites(); n+lost > 0 {
		fmt.Fprintf(stderr, "tsbench: remote write: %d writes sent again after a recoverable failure, %d scrapes given up\n", n, lost)
	}
	if ctx.Err() == nil {
		vctx, cancelV := context.WithTimeout(context.Background(), setupTimeout)
		s.Verify = p.r.Verify(vctx, p.stores[0])
		cancelV()
	}
	results.Complete(s, cfg, p.runID, driver, opts.DataDir, Version)
	return s, finishRun(s, cfg, label, p.dataDir, sess.store, sess.live, out, stdout, stderr)
}

// open opens a store per client, prepares the store, and opens the
// freshness probe (FRESHNESS); it returns the connections opened, to be
// closed however it went.
func (p *promRun) open(ctx context.Context, opts targets.Options) ([]targets.Target, error) {
	setup, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	stores, opened, err := openPromStores(setup, p.driver, opts, p.cfg.Clients)
	if err != nil {
		return opened, err
	}
	p.stores = stores
	if err := stores[0].Begin(setup); err != nil {
		return opened, err
	}
	if p.cfg.Freshness {
		p.probe, err = freshness.Open(setup, p.driver.Name, p.driver.Open, opts, runner.FreshnessSettings(p.cfg))
	}
	return opened, err
}

// measure runs the workload's workers on the engine, in a session like
// every run's, with the freshness probe and the crash.
func (p *promRun) measure(ctx context.Context, abort func()) (*summary.Summary, *session, error) {
	ec := engine.ConfigFrom(p.cfg)
	ec.Names = promrun.Names
	ec.PlanEnd = "queries"
	ec.TotalOps = p.r.Operations(len(p.stores))
	eng := engine.New(ec, engine.Hooks{})
	sess, err := openSession(p.cfg, p.runID, p.label, p.driver, p.out, p.dataDir, eng.Interrupt, abort, p.stdout, p.stderr)
	if err != nil {
		return nil, nil, err
	}
	var fresh *summary.Freshness
	eng.Hooks = p.probe.Around(ctx, sess.hooks, func(f *summary.Freshness) { fresh = f })
	eng.Hooks.Crash = p.crash
	started := time.Now().UTC()
	workers := p.r.Open(p.stores)
	res := eng.Run(ctx, workers, eng.Handles(len(workers)))
	sess.measured()
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: p.driver.Name, Started: started,
		OpenModel: ec.Rate > 0, RatePerSecond: ec.Rate, Freshness: fresh}
	res.Record(s)
	keepEveryOperation(s)
	return s, sess, nil
}

// keepEveryOperation gives the summary a row for each of the workload's
// operations, zeros for those the run did not reach (a find-max step ends
// before the read load): its matrices are then the workload's, never
// IoT-benchmark's rows, which a run of INGESTION alone would print.
func keepEveryOperation(s *summary.Summary) {
	for _, name := range promrun.Names {
		if s.Op(name) == nil {
			s.Operations = append(s.Operations, summary.Operation{Name: name})
		}
	}
}
