package promrun

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// account counts job i's answer, of the digest given and taken in
// latency (as the engine measured it), under its query's name; the first
// mismatch or error of each query goes to Report.
func (r *Run) account(i int, digest uint64, latency time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j := &r.jobs[i]
	c := r.checks[j.q.Name]
	c.answers++
	switch {
	case err == nil:
		r.digests[i], r.ok[i] = digest, true
		c.latency.add(latency)
		return
	case errors.Is(err, errMismatch):
		r.digests[i], r.ok[i] = digest, true
		c.latency.add(latency)
		c.mismatches++
	default:
		c.errors++
	}
	if c.first == "" {
		c.first = err.Error()
		if r.Report != nil {
			r.Report(fmt.Sprintf("%s %s: %v", Names[kindOp(j.q.Kind)], j.q.Name, err))
		}
	}
}

// Checks are the answers checked, one entry per query asked: OK when
// every answer was the model's. A query the run stopped before asking is
// left out: no answer of it was checked.
func (r *Run) Checks() []summary.QueryCheck {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]summary.QueryCheck, 0, len(r.order))
	for _, name := range r.order {
		c := r.checks[name]
		if c.answers == 0 {
			continue
		}
		qc := summary.QueryCheck{Query: name, Points: c.answers - c.errors,
			Window: fmt.Sprintf("%d answers checked", c.answers-c.errors), OK: c.mismatches == 0 && c.errors == 0,
			Digest: r.digest(name), LatencyMS: c.latency.summary()}
		if c.perEngine != "" {
			qc.Expr, qc.Engine = c.perEngine, r.cfg.Engine
		}
		switch {
		case c.mismatches > 0:
			qc.Detail = fmt.Sprintf("%d of %d answers differ from the model's; the first: %s", c.mismatches, c.answers-c.errors, c.first)
		case c.errors > 0:
			qc.Error = fmt.Sprintf("%d queries failed; the first: %s", c.errors, c.first)
		}
		out = append(out, qc)
	}
	return out
}

// digest is the digest of every answer to the query named, in the plan's
// order; "" unless every one of them was answered (the run stopped before
// some, or some failed): a part of the answers compares with nothing.
func (r *Run) digest(name string) string {
	var ds []uint64
	for i := range r.jobs {
		if r.jobs[i].q.Name != name {
			continue
		}
		if !r.ok[i] {
			return ""
		}
		ds = append(ds, r.digests[i])
	}
	return combine(ds)
}

// countSamples is the samples the store holds of the run's series, staleness
// markers left out: count_over_time over the whole written range, asked
// in as many queries as countExprs makes, their answers added.
func (r *Run) countSamples(ctx context.Context, s targets.PromStore) (int64, error) {
	return r.count(ctx, s, "sum")
}

// countSeries is the run's series the store holds a sample of: each
// metric's count of series with one over the whole written range.
func (r *Run) countSeries(ctx context.Context, s targets.PromStore) (int64, error) {
	return r.count(ctx, s, "count")
}

// count adds the answers of countExprs(agg).
func (r *Run) count(ctx context.Context, s targets.PromStore, agg string) (int64, error) {
	if err := r.settleStore(ctx, s); err != nil {
		return 0, fmt.Errorf("settle before counting: %w", err)
	}
	iv := r.cfg.Shape.Interval.Milliseconds()
	last := r.m.Time(r.cfg.Scrapes - 1)
	var n int64
	for _, expr := range r.countExprs(agg, r.cfg.Scrapes*iv) {
		c, err := r.countOne(ctx, s, expr, last)
		if err != nil {
			return 0, err
		}
		n += c
	}
	return n, nil
}

// countOne asks one of countExprs at t.
func (r *Run) countOne(ctx context.Context, s targets.PromStore, expr string, t int64) (int64, error) {
	form := url.Values{"query": {expr}, "time": {promql.Seconds(t)}}.Encode()
	cctx, cancel := context.WithTimeout(ctx, r.cfg.ReadTimeout)
	defer cancel()
	data, err := s.PromQuery(cctx, "/api/v1/query", form)
	if err != nil {
		return 0, err
	}
	v, err := DecodeVector(data)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s: %w", expr, err)
	case len(v) != 1:
		return 0, fmt.Errorf("%s: %d series, want one", expr, len(v))
	}
	return int64(v[0].Value), nil
}

// maxCountQuery bounds a counting query's length: VictoriaMetrics
// refuses a query over 16 KiB (-search.maxQueryLen), and the node
// profile's 318 metrics take about 30 KiB.
const maxCountQuery = 8 << 10

// countExprs is the sum, over every metric of the run, of agg (sum: the
// samples; count: the series) of count_over_time over the window w (ms),
// a metric at a time, split into queries of at
// most maxCountQuery bytes (or one metric's term, if longer): count_over_time
// drops the metric name, and Prometheus refuses an answer with two series
// of the same labels, which {job="..."} of every metric would give. A
// term with no sample is 0 (or vector(0)) rather than emptying the sum.
// A worker process (WORKERS) counts the series of its own slots, by their
// instance labels.
func (r *Run) countExprs(agg string, w int64) []string {
	names := make([]string, 0, len(r.metrics))
	for n := range r.metrics {
		names = append(names, n)
	}
	sort.Strings(names)
	sel := "job=" + promql.Quote(r.cfg.Shape.Job)
	if r.lo != 0 || r.hi != r.cfg.Shape.Targets {
		sel += ",instance=~" + promql.Quote(r.m.InstancePattern(r.lo, r.hi))
	}
	var exprs []string
	var b strings.Builder
	for _, n := range names {
		term := fmt.Sprintf("(%s(count_over_time(%s{%s}[%dms])) or vector(0))", agg, n, sel, w)
		if b.Len() > 0 && b.Len()+len(" + ")+len(term) > maxCountQuery {
			exprs = append(exprs, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(term)
	}
	if b.Len() > 0 {
		exprs = append(exprs, b.String())
	}
	return exprs
}

// Verify counts the stored samples against the acknowledged ones and
// adds the answers checked.
func (r *Run) Verify(ctx context.Context, s targets.PromStore) *summary.Verify {
	v := &summary.Verify{ExpectedPoints: r.Acked(), Queries: r.Checks()}
	switch {
	case r.cfg.NoReads:
		v.QueriesSkipped = "PROM_READS = none: the run writes only"
	case r.cfg.WriteOnly:
		v.QueriesSkipped = "worker 0 of the group asks the read load, once every worker has written"
	case len(v.Queries) == 0:
		v.QueriesSkipped = fmt.Sprintf("the run stopped before its read load (none of its %d queries asked)", len(r.jobs))
	}
	n, err := r.countSamples(ctx, s)
	if err != nil {
		v.Error = err.Error()
		return v
	}
	v.Judge(n)
	r.judgeSeries(ctx, s, v)
	return v
}

// judgeSeries counts the stored series of a run that wrote every scrape
// and holds them to the model's: a store that split or merged series
// (a label changed on the way) fails the verification.
func (r *Run) judgeSeries(ctx context.Context, s targets.PromStore, v *summary.Verify) {
	all := int64(r.hi-r.lo) * int64(r.m.SeriesPerTarget()) * r.cfg.Scrapes
	if r.Acked() != all {
		return // not every scrape written: the series alive are not known
	}
	n, err := r.countSeries(ctx, s)
	if err != nil {
		v.Error = "counting the series: " + err.Error()
		return
	}
	v.ExpectedSeries, v.StoredSeries = r.m.SeriesWritten(r.lo, r.hi, r.cfg.Scrapes-1), n
	v.OK = v.OK && n == v.ExpectedSeries
}
