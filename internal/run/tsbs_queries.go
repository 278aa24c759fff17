package run

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/exit"
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
func runTSBSQueries(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	driver, _ := targets.Lookup(cfg.Target)
	qs, err := queryfile.Read(cfg.TSBSQueryFile)
	if err != nil {
		return nil, exit.Usagef("TSBS_QUERY_FILE = %q: %v", cfg.TSBSQueryFile, err)
	}
	dataDir := datadir.Or(cfg.DataDir)
	runID := NewID()
	opts := connect.Options(cfg, driver, dataDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	queriers, clocks, version, closeAll, err := openQueriers(ctx, driver, opts, cfg.Clients, qs[0].Kind(), cfg.TSBSPrintResponses)
	defer closeAll()
	if err != nil {
		return nil, err
	}
	labels, _ := queryfile.Types(qs)
	fmt.Fprintf(stderr, "tsbench: run %s: %d queries of %d TSBS query types from %s on %s, %d workers\n",
		runID, len(qs), len(labels), cfg.TSBSQueryFile, driver.Name, len(queriers))
	s, sess, err := measureTSBSQueries(ctx, cancel, qs, queriers, clocks, cfg, runID, label, driver, out, dataDir, stdout, stderr)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	s.Environment.ServerVersion = version
	results.Complete(s, cfg, runID, driver, opts.DataDir, Version)
	if err := finishRun(s, cfg, label, dataDir, sess.store, sess.live, out, stdout, stderr); err != nil {
		return s, err
	}
	printTSBSStats(stdout, s, len(queriers))
	return s, nil
}

// openQueriers opens one connection per worker, under the worker's
// arrival clock, and its querier for the file's kind of query, and asks
// the server its version (as every run names it; "" when the target
// cannot tell); closeAll closes what was opened, also on error.
func openQueriers(ctx context.Context, d *targets.Driver, opts targets.Options, workers int, kind string,
	whole bool) (_ []queryfile.Querier, clocks []*arrival.Clock, version string, closeAll func(), _ error) {
	var opened []targets.Target
	closeAll = func() {
		for _, t := range opened {
			t.Close()
		}
	}
	setup, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var queriers []queryfile.Querier
	for range max(workers, 1) {
		clock := &arrival.Clock{}
		t, err := d.Open(arrival.WithClock(setup, clock), opts)
		if err != nil {
			return nil, nil, "", closeAll, connectError(err, d)
		}
		opened = append(opened, t)
		q, err := queryfile.QuerierFor(t, d, kind, whole)
		if err != nil {
			return nil, nil, "", closeAll, exit.Usagef("TSBS_QUERY_FILE: %v", err)
		}
		queriers, clocks = append(queriers, q), append(clocks, clock)
	}
	if v, ok := opened[0].(targets.Versioner); ok {
		version, _ = v.ServerVersion(setup)
	}
	return queriers, clocks, version, closeAll, nil
}

// measureTSBSQueries runs the file on the engine, in a session like every
// run's: progress, the live store and outputs, resource sampling.
func measureTSBSQueries(ctx context.Context, abort func(), qs []queryfile.Query, queriers []queryfile.Querier, clocks []*arrival.Clock, cfg *config.Config,
	runID, label string, driver *targets.Driver, out Outputs, dataDir string, stdout, stderr io.Writer) (*summary.Summary, *session, error) {
	o := queryfile.Options{BurnIn: cfg.TSBSBurnIn, MaxQueries: cfg.TSBSMaxQueries, Timeout: cfg.ReadTimeout,
		Engine: engine.ConfigFrom(cfg), Clocks: clocks}
	if cfg.TSBSPrintResponses {
		o.OnAnswer = responsePrinter(stdout, stderr)
	}
	f, err := queryfile.New(qs, o)
	if err != nil {
		return nil, nil, exit.Usagef("TSBS_QUERY_FILE = %q: %v", cfg.TSBSQueryFile, err)
	}
	// Answers printed on stdout (--print-responses) must not stop the run
	// when stdout's reader goes: the session watches a discarded stdout.
	sess, err := openSession(cfg, runID, label, driver, out, dataDir, f.Interrupt, abort, io.Discard, stderr)
	if err != nil {
		return nil, nil, err
	}
	started := time.Now().UTC()
	res, err := f.Execute(ctx, queriers, sess.hooks)
	sess.measured()
	if err != nil {
		sess.close()
		return nil, nil, sess.abandon(driver, err, stderr)
	}
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, Target: driver.Name, Started: started,
		OpenModel: cfg.Rate > 0, RatePerSecond: cfg.Rate, LatencyClock: arrival.ClockOf(clocks)}
	res.Engine.Record(s)
	if res.Interrupted {
		s.Interrupted, s.StopReason = true, "interrupted"
	}
	if res.BurnedIn > 0 {
		s.Phases = append(s.Phases, summary.Phase{Name: "burn-in", Operations: res.BurnedIn})
	}
	return s, sess, nil
}

// responsePrinter prints the workers' answers one at a time on w, as
// TSBS's --print-responses does; the first answer it cannot print is
// warned about on stderr, the rest are skipped.
func responsePrinter(w, stderr io.Writer) func(int, *queryfile.Query, queryfile.Answer) {
	var mu sync.Mutex
	failed := false
	return func(n int, q *queryfile.Query, a queryfile.Answer) {
		mu.Lock()
		defer mu.Unlock()
		if failed {
			return
		}
		if err := queryfile.WriteResponse(w, n, q, a); err != nil {
			failed = true
			fmt.Fprintln(stderr, "tsbench: warning: --print-responses:", err)
		}
	}
}

// printTSBSStats prints the run's latencies in the shape of TSBS's runner
// (tsbs_run_queries_*): the query count and rate, then each query type's
// min, median, mean, max, standard deviation, sum and count in
// milliseconds, types sorted and padded as TSBS pads them, with "all
// queries" among them, and the wall clock. Medians and standard deviations
// are the HDR histograms' (microsecond resolution); min, mean and max are
// exact. Failed queries, which stop TSBS's runner, are counted on a line
// of their own.
func printTSBSStats(w io.Writer, s *summary.Summary, workers int) {
	all := metrics.NewHistogram()
	var count, failed int64
	lines := map[string]string{}
	for i := range s.Operations {
		op := &s.Operations[i]
		h, err := metrics.Decode(op.Histogram)
		if err != nil || h == nil {
			h = metrics.NewHistogram()
		}
		all.Merge(h)
		count += op.OKOperations
		failed += op.FailOperations
		l := op.LatencyMS
		lines[op.Name] = tsbsStatLine(l.Min, l.P50, l.Avg, l.Max, h.StdDev()/1000, l.Avg*float64(op.OKOperations)/1000, op.OKOperations)
	}
	const allLabel = "all queries"
	lines[allLabel] = tsbsStatLine(float64(all.Min())/1000, float64(all.ValueAtQuantile(50))/1000, all.Mean()/1000,
		float64(all.Max())/1000, all.StdDev()/1000, all.Mean()*float64(all.TotalCount())/1e6, all.TotalCount())
	rate := 0.0
	if s.Elapsed > 0 {
		rate = float64(count) / s.Elapsed
	}
	fmt.Fprintf(w, "Run complete after %d queries with %d workers (Overall query rate %0.2f queries/sec):\n", count, workers, rate)
	labels := slices.Sorted(maps.Keys(lines))
	width := 0
	for _, l := range labels {
		width = max(width, len(l))
	}
	for _, l := range labels {
		fmt.Fprintf(w, "%-*s:\n%s\n", width, l, lines[l])
	}
	if failed > 0 {
		fmt.Fprintf(w, "failed queries: %d (not in the figures above)\n", failed)
		if needsTimeBucket(s) {
			fmt.Fprintln(w, timeBucketHint)
		}
	}
	fmt.Fprintf(w, "wall clock time: %fsec\n", s.Elapsed)
}

// timeBucketHint is said when TSBS's SQL met a server without
// TimescaleDB's time_bucket: six of its iot statements call it whatever
// --timescale-use-time-bucket says.
const timeBucketHint = "hint: the server has no time_bucket: TSBS's SQL calls TimescaleDB's; " +
	"on plain PostgreSQL define it as docs/tsbs.md (TSBS's query files) shows"

// needsTimeBucket reports whether a query of s failed for want of
// time_bucket (PostgreSQL: "function time_bucket(...) does not exist").
func needsTimeBucket(s *summary.Summary) bool {
	for _, op := range s.Operations {
		for _, f := range op.Failures {
			if strings.Contains(f.Example, "function time_bucket(") && strings.Contains(f.Example, "does not exist") {
				return true
			}
		}
	}
	return false
}

// tsbsStatLine is one query type's figures as TSBS's runner prints them.
func tsbsStatLine(minMS, medMS, meanMS, maxMS, stddevMS, sumSec float64, count int64) string {
	return fmt.Sprintf("min: %8.2fms, med: %8.2fms, mean: %8.2fms, max: %7.2fms, stddev: %8.2fms, sum: %5.1fsec, count: %d",
		minMS, medMS, meanMS, maxMS, stddevMS, sumSec, count)
}
