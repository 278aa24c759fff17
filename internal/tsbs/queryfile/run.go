package queryfile

// Running a TSBS query file (tsbench run --tsbs-queries FILE) the way TSBS's
// runners (tsbs_run_queries_*) run it: workers take the file's queries in
// order, each sends its query unchanged and waits for the whole answer, and
// the latencies are kept per query type (HumanLabel). The first --burn-in
// queries run but are not measured, and --max-queries stops early. The
// latencies go into tsbench's recorder (HDR histograms, one-second
// intervals), so the run is reported, stored and compared like any other.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// Querier sends one query and reads its whole answer.
type Querier func(ctx context.Context, q *Query) (Answer, error)

// Answer is what a query answered: Rows counts its rows (SQL) or series
// (HTTP); an SQL answer keeps its first targets.MaxRows rows, an HTTP one
// its body.
type Answer struct {
	Rows  int64
	Table targets.Rows
	Body  []byte
}

// Options are TSBS's runner flags tsbench takes; its --workers is the
// number of queriers Run is given.
type Options struct {
	BurnIn     int64         // --burn-in: the file's first queries, run but not measured
	MaxQueries int64         // --max-queries: queries run, burn-in included; 0 is every query
	Timeout    time.Duration // each query's deadline; 0 is none
	// OnInterval, when set, is given each closed one-second interval.
	OnInterval func(seq int, iv summary.Interval)
	// OnAnswer, when set, is given every answer (burn-in included) as it
	// comes, from the workers at once: TSBS's --print-responses.
	OnAnswer func(n int, q *Query, a Answer)
}

// Result is a measured query-file run.
type Result struct {
	Labels      []string // the query types, in order of first appearance
	Operations  []summary.Operation
	Intervals   []summary.Interval
	Elapsed     time.Duration // from the first measured query's start to the last answer
	Measured    int64         // queries measured (burn-in excluded), answered or failed
	BurnedIn    int64
	Interrupted bool
}

// QuerierFor is how queries of kind ("sql" or "http") run on target t, or
// an error saying why t cannot run them: an SQL file needs a target that
// runs SQL statements (Language "sql"), an HTTP file one that sends a
// request as written (targets.PathQuerier). whole keeps every row of an SQL
// answer, for printing it; else the first targets.MaxRows are kept.
func QuerierFor(t targets.Target, d *targets.Driver, kind string, whole bool) (Querier, error) {
	switch kind {
	case "sql":
		sr, ok := t.(targets.StatementRunner)
		if !ok || d.Language == nil || d.Language.Name != "sql" {
			return nil, fmt.Errorf("target %s does not run SQL as written: TSBS's timescaledb query files run on an SQL target (postgres, timescaledb)", d.Name)
		}
		return func(ctx context.Context, q *Query) (Answer, error) {
			rows, err := sr.RunStatement(ctx, &targets.Statement{Text: q.SQL, KeepAll: whole, ServerText: true})
			return Answer{Rows: rows.Count, Table: rows}, err
		}, nil
	case "http":
		pq, ok := t.(targets.PathQuerier)
		if !ok {
			return nil, fmt.Errorf("target %s does not send HTTP queries as written: TSBS's victoriametrics query files run on victoriametrics, its influx ones on influxdb", d.Name)
		}
		return func(ctx context.Context, q *Query) (Answer, error) {
			body, err := pq.QueryPath(ctx, q.Method, q.Path, []byte(q.Body))
			if err == nil {
				err = answerError(body)
			}
			return Answer{Rows: int64(countSeries(body)), Body: body}, err
		}, nil
	}
	return nil, fmt.Errorf("tsbs query file: queries of kind %q: allowed: sql, http", kind)
}

// Run runs qs through queriers, one per worker, and measures them.
// A failed query is counted under its type and the run goes on (TSBS's
// runner stops at the first); ctx's end interrupts it.
func Run(ctx context.Context, qs []Query, queriers []Querier, o Options) (*Result, error) {
	if len(queriers) == 0 {
		return nil, errors.New("tsbs: a query file run needs at least one worker")
	}
	labels, _ := Types(qs)
	if len(labels) > metrics.MaxKinds {
		return nil, fmt.Errorf("tsbs query file: %d query types, at most %d in one run", len(labels), metrics.MaxKinds)
	}
	kind := map[string]metrics.Kind{}
	for i, l := range labels {
		kind[l] = metrics.Kind(i)
	}
	total := int64(len(qs))
	if o.MaxQueries > 0 {
		total = min(total, o.MaxQueries)
	}
	burnIn := min(o.BurnIn, total)
	var next atomic.Int64
	// The burn-in runs first, on every worker, before the clock starts:
	// TSBS's --burn-in leaves its queries out of the statistics.
	burnErr := each(ctx, queriers, func(ctx context.Context, i int, query Querier) {
		for n := next.Add(1) - 1; n < burnIn && ctx.Err() == nil; n = next.Add(1) - 1 {
			call(ctx, query, int(n), &qs[n], o)
		}
	})
	next.Store(burnIn)
	start := time.Now()
	rec := metrics.NewRunNamed(len(queriers), false, start, labels)
	done := make(chan struct{})
	var last atomic.Int64 // the last answer's time, ns since start
	var measured atomic.Int64
	go func() {
		defer close(done)
		_ = each(ctx, queriers, func(ctx context.Context, i int, query Querier) {
			c := rec.Client(i)
			for n := next.Add(1) - 1; n < total && ctx.Err() == nil; n = next.Add(1) - 1 {
				q := &qs[n]
				t0 := time.Now()
				rows, lat, err := call(ctx, query, int(n), q, o)
				measured.Add(1)
				if err != nil {
					c.Fail(kind[q.HumanLabel], 0, err)
				} else {
					c.Record(kind[q.HumanLabel], rows, lat, lat)
				}
				end := int64(t0.Add(lat).Sub(start))
				for prev := last.Load(); end > prev && !last.CompareAndSwap(prev, end); prev = last.Load() {
				}
			}
		})
	}()
	collect(rec, done, o.OnInterval)
	rec.Snapshot(time.Now())
	elapsed := time.Duration(last.Load())
	res := &Result{Labels: labels, Operations: rec.Operations(elapsed), Intervals: rec.Intervals(),
		Elapsed: elapsed, Measured: measured.Load(), BurnedIn: burnIn, Interrupted: ctx.Err() != nil || burnErr != nil}
	return res, nil
}

// call runs query n under its deadline and hands its answer on; the
// latency covers the whole answer, not the handing on.
func call(ctx context.Context, query Querier, n int, q *Query, o Options) (rows int64, latency time.Duration, err error) {
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	t0 := time.Now()
	a, err := query(ctx, q)
	latency = time.Since(t0)
	if err == nil && o.OnAnswer != nil {
		o.OnAnswer(n, q, a)
	}
	return a.Rows, latency, err
}

// each runs work on every querier at once and waits for all; it returns
// ctx's error if ctx ended meanwhile.
func each(ctx context.Context, queriers []Querier, work func(ctx context.Context, i int, q Querier)) error {
	var wg sync.WaitGroup
	for i, q := range queriers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(ctx, i, q)
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// collect closes one-second intervals until done (metrics.Run.Collect).
func collect(rec *metrics.Run, done <-chan struct{}, onInterval func(int, summary.Interval)) {
	rec.Collect(done, func(_ time.Time, seq int, iv summary.Interval, _ metrics.Totals) {
		if onInterval != nil && iv.Seconds > 0 {
			onInterval(seq, iv)
		}
	})
}

// countSeries counts the series of a JSON answer by their keys: "metric"
// in a Prometheus-style answer ({"data":{"result":[{"metric":...},...]}}),
// "columns" in an InfluxQL one ({"results":[{"series":[{"columns":...}]}]}).
// TSBS's runners read the body, not its values.
func countSeries(body []byte) int {
	return bytes.Count(body, []byte(`"metric":`)) + bytes.Count(body, []byte(`"columns":`))
}

// answerError is the error a 2xx answer reports in its body: InfluxDB
// answers a statement it cannot run with 200 and {"results":[{"error":...}]},
// Prometheus-style APIs with {"status":"error","error":...}. TSBS's runners
// do not look; tsbench counts such a query as failed.
func answerError(body []byte) error {
	var a struct {
		Status  string `json:"status"`
		Error   string `json:"error"`
		Results []struct {
			Error string `json:"error"`
		} `json:"results"`
	}
	if json.Unmarshal(body, &a) != nil {
		return errors.New("the answer is not JSON")
	}
	if a.Status == "error" || a.Error != "" {
		return fmt.Errorf("the server answered: %s", a.Error)
	}
	for _, r := range a.Results {
		if r.Error != "" {
			return fmt.Errorf("the server answered: %s", r.Error)
		}
	}
	return nil
}
