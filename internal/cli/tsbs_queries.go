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
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/tsbs/queryfile"
)

// runTSBSQueries runs a query file of tsbs_generate_queries as written
// (TSBS_QUERY_FILE, --tsbs-queries) on the data the server already holds:
// no schema, no writes, no counts. Each query type is an operation of the
// run, reported in the matrices, stored and compared like any run, and
// printed as TSBS's runner prints its statistics.
func runTSBSQueries(cfg *config.Config, label string, out runOutputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	driver, _ := targets.Lookup(cfg.Target)
	qs, err := queryfile.Read(cfg.TSBSQueryFile)
	if err != nil {
		return nil, usageError("TSBS_QUERY_FILE = %q: %v", cfg.TSBSQueryFile, err)
	}
	dataDir := datadir.Or(cfg.DataDir)
	runID := newRunID()
	opts := connect.Options(cfg, driver, dataDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	queriers, closeAll, err := openQueriers(ctx, driver, opts, cfg.Clients, qs[0].Kind())
	defer closeAll()
	if err != nil {
		return nil, err
	}
	labels, counts := queryfile.Types(qs)
	fmt.Fprintf(stderr, "tsbench: run %s: %d queries of %d TSBS query types from %s on %s, %d workers\n",
		runID, len(qs), len(labels), cfg.TSBSQueryFile, driver.Name, len(queriers))
	s, store, live, err := measureTSBSQueries(ctx, cancel, qs, queriers, cfg, runID, label, driver, out, dataDir, stderr)
	if err != nil {
		return nil, err
	}
	results.Complete(s, cfg, runID, driver, opts.DataDir, Version)
	if err := finishRun(s, cfg, label, dataDir, store, live, out, stdout, stderr); err != nil {
		return s, err
	}
	printTSBSStats(stdout, s, labels, counts)
	return s, nil
}

// openQueriers opens one connection per worker and its querier for the
// file's kind of query; closeAll closes what was opened, also on error.
func openQueriers(ctx context.Context, d *targets.Driver, opts targets.Options, workers int, kind string) ([]queryfile.Querier, func(), error) {
	var opened []targets.Target
	closeAll := func() {
		for _, t := range opened {
			t.Close()
		}
	}
	setup, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var queriers []queryfile.Querier
	for range max(workers, 1) {
		t, err := d.Open(setup, opts)
		if err != nil {
			return nil, closeAll, connectError(err, d)
		}
		opened = append(opened, t)
		q, err := queryfile.QuerierFor(t, d, kind)
		if err != nil {
			return nil, closeAll, usageError("TSBS_QUERY_FILE: %v", err)
		}
		queriers = append(queriers, q)
	}
	return queriers, closeAll, nil
}

// measureTSBSQueries runs the file with progress, the live store and the
// live outputs, as measureTPCC does for TPC-C.
func measureTSBSQueries(ctx context.Context, abort func(), qs []queryfile.Query, queriers []queryfile.Querier, cfg *config.Config,
	runID, label string, driver *targets.Driver, out runOutputs, dataDir string, stderr io.Writer) (*summary.Summary, *results.Live, *liveRun, error) {
	store := results.OpenLive(out.results, dataDir, stderr)
	w := startRunWatch(cfg, abort, abort, io.Discard, stderr)
	defer w.release()
	partial := results.Partial(cfg, runID, label, driver, Version)
	started := time.Now().UTC()
	partial.MeasureStarted = started
	store.Begin(partial)
	o := queryfile.Options{BurnIn: cfg.TSBSBurnIn, MaxQueries: cfg.TSBSMaxQueries,
		Timeout: cfg.ReadTimeout, OnInterval: store.Interval}
	live, err := startLiveHooks(&o.OnInterval, nil, cfg, runID, label, driver, out.live, stderr)
	if err != nil {
		store.Abandon(runID)
		return nil, nil, nil, err
	}
	res, err := queryfile.Run(ctx, qs, queriers, o)
	w.measured()
	if err != nil {
		_ = live.finish(nil, stderr)
		store.Abandon(runID)
		return nil, nil, nil, &exitError{ExitFailure, fmt.Errorf("%s: %w", driver.Name, err)}
	}
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: driver.Name, Started: started,
		Elapsed: res.Elapsed.Seconds(), Operations: res.Operations, Intervals: res.Intervals,
		Interrupted: res.Interrupted, StopReason: "queries", MeasureStarted: partial.MeasureStarted,
		Stalls: metrics.Stalls(res.Intervals, cfg.StallMin, cfg.StallFraction)}
	if res.Interrupted {
		s.StopReason = "interrupted"
	}
	if res.BurnedIn > 0 {
		s.Phases = append(s.Phases, summary.Phase{Name: "burn-in", Operations: res.BurnedIn})
	}
	return s, store, live, nil
}

// printTSBSStats prints each query type's latencies in the shape of TSBS's
// runner (tsbs_run_queries_*): min, median, mean, max, standard deviation,
// sum and count, in milliseconds, then all queries together and the wall
// clock. The standard deviation is the HDR histogram's, at its microsecond
// resolution.
func printTSBSStats(w io.Writer, s *summary.Summary, labels []string, inFile map[string]int) {
	fmt.Fprintln(w, "TSBS query statistics (as tsbs_run_queries prints them):")
	width := 0
	for _, l := range labels {
		width = max(width, len(l))
	}
	var all []*summary.Operation
	for i := range s.Operations {
		all = append(all, &s.Operations[i])
	}
	for _, l := range labels {
		for _, op := range all {
			if op.Name == l {
				fmt.Fprintf(w, "%-*s:\n%s (%d in the file, %d failed)\n", width, l, tsbsStatLine(op), inFile[l], op.FailOperations)
			}
		}
	}
	fmt.Fprintf(w, "wall clock time: %.6f sec\n", s.Elapsed)
}

func tsbsStatLine(op *summary.Operation) string {
	l := op.LatencyMS
	sd := 0.0
	if h, err := metrics.Decode(op.Histogram); err == nil && h != nil {
		sd = h.StdDev() / 1000
	}
	sum := l.Avg * float64(op.OKOperations) / 1000
	return fmt.Sprintf("min: %10.2fms, med: %10.2fms, mean: %10.2fms, max: %10.2fms, stddev: %10.2fms, sum: %7.1fsec, count: %d",
		l.Min, l.P50, l.Avg, l.Max, sd, sum, op.OKOperations)
}
