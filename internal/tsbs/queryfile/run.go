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

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/engine"
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
	// Engine is how the workers are driven (a rate, the stall settings);
	// the file sets the operations, the plan and no warm-up (the burn-in
	// is TSBS's).
	Engine engine.Config
	// Clocks, when set, are the workers' arrival clocks, one per querier
	// in order, under which their connections were opened: each query
	// ends at its answer's arrival (engine.Handle.Arrivals).
	Clocks []*arrival.Clock
}

// clock is querier i's arrival clock, nil without one.
func (o *Options) clock(i int) *arrival.Clock {
	if i < len(o.Clocks) {
		return o.Clocks[i]
	}
	return nil
}

// Result is a measured query-file run.
type Result struct {
	Labels      []string // the query types, in order of first appearance
	Operations  []summary.Operation
	Intervals   []summary.Interval
	Elapsed     time.Duration // the measured phase: from its start to the last answer
	Measured    int64         // queries measured (burn-in excluded), answered or failed
	BurnedIn    int64
	Interrupted bool
	Engine      *engine.Result // the whole measurement
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

// Run runs qs through queriers, one per worker, and measures them (New,
// then Execute without hooks).
func Run(ctx context.Context, qs []Query, queriers []Querier, o Options) (*Result, error) {
	r, err := New(qs, o)
	if err != nil {
		return nil, err
	}
	return r.Execute(ctx, queriers, engine.Hooks{})
}

// File is one run of a query file: the engine's workers take its queries
// in order from one cursor.
type File struct {
	qs      []Query
	o       Options
	labels  []string
	kind    map[string]metrics.Kind
	total   int64 // queries to run, burn-in included
	burnIn  int64
	next    atomic.Int64 // the next query's index
	counted atomic.Int64 // queries measured, answered or failed
	eng     *engine.Engine
}

// New prepares a run of qs. A failed query is counted under its type and
// the run goes on (TSBS's runner stops at the first).
func New(qs []Query, o Options) (*File, error) {
	labels, _ := Types(qs)
	if len(labels) > metrics.MaxKinds {
		return nil, fmt.Errorf("tsbs query file: %d query types, at most %d in one run", len(labels), metrics.MaxKinds)
	}
	f := &File{qs: qs, o: o, labels: labels, kind: map[string]metrics.Kind{}, total: int64(len(qs))}
	for i, l := range labels {
		f.kind[l] = metrics.Kind(i)
	}
	if o.MaxQueries > 0 {
		f.total = min(f.total, o.MaxQueries)
	}
	f.burnIn = min(o.BurnIn, f.total)
	ec := o.Engine
	ec.Names, ec.Warmup, ec.Duration, ec.PlanEnd, ec.TotalOps = labels, 0, 0, "queries", f.total-f.burnIn
	f.eng = engine.New(ec, engine.Hooks{})
	return f, nil
}

// Interrupt stops the workers after their current query.
func (f *File) Interrupt() { f.eng.Interrupt() }

// Execute runs the burn-in, then the measured queries on the engine, one
// worker per querier; ctx's end interrupts it.
func (f *File) Execute(ctx context.Context, queriers []Querier, hooks engine.Hooks) (*Result, error) {
	if len(queriers) == 0 {
		return nil, errors.New("tsbs: a query file run needs at least one worker")
	}
	// The burn-in runs first, on every worker, before the clock starts:
	// TSBS's --burn-in leaves its queries out of the statistics.
	burnErr := each(ctx, queriers, func(ctx context.Context, i int, query Querier) {
		ctx = arrival.WithClock(ctx, f.o.clock(i)) // a connection it dials is the worker's
		for n := f.next.Add(1) - 1; n < f.burnIn && ctx.Err() == nil && !f.eng.Stopped(); n = f.next.Add(1) - 1 {
			f.call(ctx, query, n)
		}
	})
	f.next.Store(f.burnIn)
	f.eng.Config.Workers = len(queriers)
	f.eng.Hooks = hooks
	workers := make([]engine.Worker, len(queriers))
	for i, q := range queriers {
		workers[i] = &fileWorker{f: f, query: q}
	}
	handles := f.eng.Handles(len(queriers))
	for i, h := range handles {
		h.Arrivals = f.o.clock(i)
	}
	res := f.eng.Run(ctx, workers, handles)
	return &Result{Labels: f.labels, Operations: res.Operations, Intervals: res.Intervals, Elapsed: res.Elapsed,
		Measured: f.counted.Load(), BurnedIn: f.burnIn, Interrupted: res.Interrupted || ctx.Err() != nil || burnErr != nil,
		Engine: res}, nil
}

// fileWorker is one of TSBS's workers: it takes the file's next query,
// sends it and waits for its whole answer.
type fileWorker struct {
	f     *File
	query Querier
}

func (w *fileWorker) Step(ctx context.Context, h *engine.Handle, warm bool) bool {
	f := w.f
	n := f.next.Add(1) - 1
	if n >= f.total {
		return false
	}
	q := &f.qs[n]
	var a Answer
	done, err := h.Do(engine.Op{Kind: f.kind[q.HumanLabel], Timeout: f.o.Timeout}, warm, func(ctx context.Context) (int64, error) {
		var err error
		a, err = w.query(ctx, q)
		return a.Rows, err
	})
	if !done {
		return false
	}
	f.counted.Add(1)
	// The latency covers the whole answer, not the handing on.
	if err == nil && f.o.OnAnswer != nil {
		f.o.OnAnswer(int(n), q, a)
	}
	return true
}

// call runs burn-in query n under its deadline and hands its answer on.
func (f *File) call(ctx context.Context, query Querier, n int64) {
	if f.o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.o.Timeout)
		defer cancel()
	}
	q := &f.qs[n]
	if a, err := query(ctx, q); err == nil && f.o.OnAnswer != nil {
		f.o.OnAnswer(int(n), q, a)
	}
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
