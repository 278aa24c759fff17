package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/promrun"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/results"
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

// runPrometheus writes the prometheus workload's scrapes by remote write,
// evaluates its rules, alerts and dashboards with every answer checked
// against the model, and counts the stored samples, reporting like any
// run.
func runPrometheus(cfg *config.Config, label string, out runOutputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	driver, _ := targets.Lookup(cfg.Target)
	dataDir := datadir.Or(cfg.DataDir)
	opts, err := promOptions(cfg, driver, dataDir)
	if err != nil {
		return nil, err
	}
	runID := newRunID()
	pc := promrun.Plan(promConfig(cfg), time.Now(), "tsbench-"+runID)
	r, err := promrun.New(pc)
	if err != nil {
		return nil, usageError("WORKLOAD = prometheus: %v", err)
	}
	r.Report = func(s string) { fmt.Fprintln(stderr, "tsbench: "+s) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	setup, cancelSetup := context.WithTimeout(ctx, time.Minute)
	stores, opened, err := openPromStores(setup, driver, opts, cfg.Clients)
	if err == nil {
		err = stores[0].Begin(setup)
	}
	cancelSetup()
	defer func() {
		for _, t := range opened {
			t.Close()
		}
	}()
	if err != nil {
		return nil, connectError(err, driver)
	}
	fmt.Fprintf(stderr, "tsbench: run %s: prometheus workload on %s: %d targets x %d series, %d scrapes every %v from %s, "+
		"churn %v every %d scrapes, then %d queries checked; job=%q\n", runID, driver.Name, pc.Shape.Targets,
		r.Model().SeriesPerTarget(), pc.Scrapes, pc.Shape.Interval, time.UnixMilli(pc.Shape.Start).UTC().Format(time.RFC3339),
		pc.Shape.ChurnShare, cfg.PromChurnPeriod, r.Queries(), pc.Shape.Job)
	s, sess, err := measurePrometheus(ctx, cancel, r, stores, cfg, runID, label, driver, out, dataDir, stdout, stderr)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	if ctx.Err() == nil {
		vctx, cancelV := context.WithTimeout(context.Background(), setupTimeout)
		s.Verify = r.Verify(vctx, stores[0])
		cancelV()
	}
	results.Complete(s, cfg, runID, driver, opts.DataDir, Version)
	return s, finishRun(s, cfg, label, dataDir, sess.store, sess.live, out, stdout, stderr)
}

// measurePrometheus runs the workload's workers on the engine, in a
// session like every run's.
func measurePrometheus(ctx context.Context, abort func(), r *promrun.Run, stores []targets.PromStore, cfg *config.Config,
	runID, label string, driver *targets.Driver, out runOutputs, dataDir string, stdout, stderr io.Writer) (*summary.Summary, *session, error) {
	ec := engine.ConfigFrom(cfg)
	ec.Names = promrun.Names
	ec.PlanEnd = "queries"
	ec.TotalOps = r.Operations(len(stores))
	eng := engine.New(ec, engine.Hooks{})
	sess, err := openSession(cfg, runID, label, driver, out, dataDir, eng.Interrupt, abort, stdout, stderr)
	if err != nil {
		return nil, nil, err
	}
	eng.Hooks = sess.hooks
	started := time.Now().UTC()
	workers := r.Open(stores)
	res := eng.Run(ctx, workers, eng.Handles(len(workers)))
	sess.measured()
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: driver.Name, Started: started,
		OpenModel: ec.Rate > 0, RatePerSecond: ec.Rate}
	res.Record(s)
	return s, sess, nil
}
