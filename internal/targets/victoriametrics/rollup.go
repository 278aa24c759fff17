package victoriametrics

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Q7 on the server. VictoriaMetrics evaluates a rollup such as
// max_over_time(sel[w]) at time t over the samples in (t-w, t]; with
// whole-millisecond timestamps, evaluated at t = Start + (i+1)*Bucket - 1
// with w = Bucket it covers exactly bucket i, [Start + i*Bucket,
// Start + (i+1)*Bucket). One /api/v1/query_range with start = Start +
// Bucket - 1 ms and step = Bucket therefore answers every whole bucket,
// one value per series (or, aggregated by (__name__), per sensor) and
// bucket that has a point: a window without samples yields no value (the
// explicit window is used as it is; no lookback, no previous sample, no
// gap filling — checked on 1.79 and 1.148). A bucket clipped by the query's
// End, or by the schema's START_TIME (before which the series hold only
// their registration sample, see register), is evaluated on its own, at
// its clipped end - 1 ms with the clipped width as window (see
// planBuckets). The requests carry nocache=1, so that a server with its
// result cache on neither aligns start and end to the step nor serves
// cached answers.
//
// The export path (clientside) remains for what the server cannot answer
// exactly or usefully (see groupBy): a Bucket <= 0, too many buckets,
// buckets near the wall clock (query_range replaces the last points within
// -search.latencyOffset of "now" by earlier values), and answers that are
// unusable (an error status, something that does not decode, values at
// times that are none of the buckets').

// maxBucketsPerRequest bounds the evaluation times of one query_range,
// well below -search.maxPointsPerTimeseries (30000 by default in 1.79 and
// 1.148); maxServerBuckets bounds a query's buckets computed on the server:
// beyond it (a millisecond bucket over days) the export moves no more.
const (
	maxBucketsPerRequest = 10_000
	maxServerBuckets     = 50_000
)

// nowMargin keeps query_range away from the wall clock: its answers' points
// later than now - latency_offset are replaced by earlier values. The
// requests ask for a 1 ms latency_offset; the margin covers the clocks of
// client and server disagreeing.
const nowMargin = 10 * time.Minute

// evalGrid is a run of evaluation times From, From+Step, ..., To with the
// same window.
type evalGrid struct{ From, To, Step, Window int64 }

// planBuckets lays a Q7's buckets, clipped to [max(Start, startTime), End),
// on evaluation grids: one for the whole buckets (Step = Window = Bucket,
// split in grids of at most maxBucketsPerRequest times), and one single
// time for each clipped bucket at either end, with its clipped width as
// window. Each time t lies in the bucket it answers for: bucket
// (t - o) / Bucket, o the query's BucketOrigin. ok is false when there are more than
// maxServerBuckets buckets; an empty plan means no bucket has a time in
// range.
func planBuckets(q *ts.Query, startTime int64) (grids []evalGrid, ok bool) {
	b, o := q.Bucket, q.BucketOrigin()
	lo := max(q.Start, startTime)
	if lo >= q.End {
		return nil, true
	}
	first, last := (lo-o)/b, (q.End-1-o)/b
	if last-first+1 > maxServerBuckets {
		return nil, false
	}
	// bounds of bucket i clipped to [lo, End)
	from := func(i int64) int64 { return max(o+i*b, lo) }
	to := func(i int64) int64 { return min(o+(i+1)*b, q.End) }
	single := func(i int64) evalGrid {
		at := to(i) - 1
		return evalGrid{From: at, To: at, Step: b, Window: to(i) - from(i)}
	}
	whole := func(i int64) bool { return to(i)-from(i) == b }
	if first == last {
		return []evalGrid{single(first)}, true
	}
	f0, f1 := first, last
	if !whole(first) {
		grids = append(grids, single(first))
		f0++
	}
	if !whole(last) {
		f1--
	}
	for i := f0; i <= f1; i += maxBucketsPerRequest {
		j := min(i+maxBucketsPerRequest-1, f1)
		grids = append(grids, evalGrid{From: to(i) - 1, To: to(j) - 1, Step: b, Window: b})
	}
	if !whole(last) {
		grids = append(grids, single(last))
	}
	return grids, true
}

// groupByPart labels the two halves of an average across devices (see
// groupByExpr).
const groupByPart = "tsbench_part"

// groupByExpr is the MetricsQL of a Q7 over the series sel selects, with a
// window of window ms:
//   - per series: <agg>_over_time(sel[w]) keep_metric_names (the names tell
//     the sensors' series of a device apart);
//   - across devices, one series per sensor (by (__name__)): count and sum
//     add up, min and max take the extreme, of each series' rollup;
//   - the average across devices weighs every point alike, not every
//     device: the sum and the count, in one answer, told apart by the label
//     tsbench_part, divided by tsbench (clientside.Partials); a division on
//     the server would match series without their names and fail.
func groupByExpr(q *ts.Query, sel string, window int64) (string, error) {
	roll := func(fn string) string {
		return fn + "(" + sel + "[" + strconv.FormatInt(window, 10) + "ms]) keep_metric_names"
	}
	fn, err := rollup(q.Agg)
	if err != nil {
		return "", err
	}
	if !q.Across {
		return roll(fn), nil
	}
	by := func(agg, fn string) string { return agg + "(" + roll(fn) + ") by (__name__)" }
	switch q.Agg {
	case ts.Count, ts.Sum:
		return by("sum", fn), nil
	case ts.Min:
		return by("min", fn), nil
	case ts.Max:
		return by("max", fn), nil
	}
	return `label_set(` + by("sum", "sum_over_time") + `, "` + groupByPart + `", "sum") or label_set(` +
		by("sum", "count_over_time") + `, "` + groupByPart + `", "count")`, nil
}

// unusableError is an answer of the server that groupBy cannot use: the
// query falls back to the export.
type unusableError struct{ err error }

func (e *unusableError) Error() string { return e.err.Error() }

// rangeSeries is one series of a query_range answer: its labels and its
// values by evaluation time (ms).
type rangeSeries struct {
	name   string // __name__
	part   string // tsbench_part
	times  []int64
	values []float64
}

// rangeDecoder holds what reading query_range answers needs, kept from one
// query to the next (rangeDecoders): the answer's bytes and the series
// with their slices of times and values (see decode in scan.go).
type rangeDecoder struct {
	body   bytes.Buffer
	series []rangeSeries
}

var rangeDecoders = sync.Pool{New: func() any { return new(rangeDecoder) }}

// queryRange evaluates expr on grid g. A transport error is returned as
// it is; an error status or an answer that does not decode, or has a value
// at a time off the grid, as an unusableError. The series are d's, valid
// until d's next use.
func (t *Target) queryRange(ctx context.Context, d *rangeDecoder, expr string, g evalGrid) ([]rangeSeries, error) {
	// Written out rather than with url.Values, whose map and sorted Encode
	// were a tenth of a small query's CPU.
	q := "query=" + url.QueryEscape(expr) + "&start=" + seconds(g.From) + "&end=" + seconds(g.To) +
		"&step=" + seconds(g.Step) + "&nocache=1&latency_offset=1ms"
	data, err := t.doInto(ctx, http.MethodGet, "/api/v1/query_range", q, nil, &d.body)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) || ctx.Err() != nil {
			return nil, err
		}
		return nil, &unusableError{err}
	}
	return d.decode(data, expr, g)
}

// The reasons a Q7 is answered from the export instead of the server's
// rollups, as the run's notes count them (targets.Fallbacks).
const (
	fallbackBucket   = "GROUP_BY with a bucket <= 0, answered from /api/v1/export"
	fallbackBuckets  = "GROUP_BY with more buckets than query_range serves, answered from /api/v1/export"
	fallbackNow      = "GROUP_BY within 10 minutes of the wall clock (query_range replaces the newest points there), answered from /api/v1/export"
	fallbackUnusable = "GROUP_BY whose query_range answer was unusable, answered from /api/v1/export"
)

// onServer is groupBy's way when the server's rollups answered.
const onServer = ""

// groupBy answers a Q7 from the server's rollups (see the top of the
// file). way is onServer, or why the query is to be answered from the
// export instead: a plan the server cannot serve exactly, or an unusable
// answer.
func (t *Target) groupBy(ctx context.Context, s *ts.Schema, q *ts.Query, sel string) (res ts.Result, way string, err error) {
	if q.Bucket <= 0 {
		return res, fallbackBucket, nil
	}
	grids, ok := planBuckets(q, s.StartTime)
	if !ok {
		return res, fallbackBuckets, nil
	}
	if n := len(grids); n > 0 && grids[n-1].To > time.Now().Add(-nowMargin).UnixMilli() {
		return res, fallbackNow, nil
	}
	sensor := map[string]int{} // metric name -> position in q.Sensors
	for i, sn := range q.Sensors {
		sensor[s.Sensors[sn].Name] = i
	}
	d := rangeDecoders.Get().(*rangeDecoder)
	defer rangeDecoders.Put(d)
	parts := clientside.NewPartials(q)
	type key struct {
		sensor int
		at     int64
	}
	type avg struct {
		sum, n       float64
		hasSum, hasN bool
	}
	avgs := map[key]*avg{}
	// Across devices, Count, Sum, Min and Max come one value per sensor
	// and bucket, the bucket's answer: without a Limit (which orders and
	// cuts buckets) they go straight into the result, as Partials would
	// put them (a count as an integer), without its map and sort, a tenth
	// of single-groupby-5-8-1's CPU. seen (per sensor, the buckets from
	// the first in range) refuses a bucket answered twice.
	direct := q.Agg != ts.Avg && q.Limit == 0
	o := q.BucketOrigin()
	firstBucket := (max(q.Start, s.StartTime) - o) / q.Bucket
	nb := (q.End-1-o)/q.Bucket - firstBucket + 1 // at most maxServerBuckets (planBuckets)
	var seen *bucketSet
	if q.Across && q.Agg != ts.Avg {
		seen = newBucketSet(int64(len(q.Sensors)) * nb)
	}
	for _, g := range grids {
		expr, err := groupByExpr(q, sel, g.Window)
		if err != nil {
			return res, onServer, err
		}
		series, err := t.queryRange(ctx, d, expr, g)
		if err != nil {
			var ue *unusableError
			if errors.As(err, &ue) {
				return ts.Result{}, fallbackUnusable, nil
			}
			return ts.Result{}, onServer, err
		}
		for _, sr := range series {
			if !q.Across {
				for i, tm := range sr.times {
					res.Add(q.BucketStart(tm), sr.values[i])
				}
				continue
			}
			pos, known := sensor[sr.name]
			if !known {
				return ts.Result{}, fallbackUnusable, nil
			}
			for i, tm := range sr.times {
				k, v := key{pos, tm}, sr.values[i]
				if q.Agg != ts.Avg {
					b := (tm-o)/q.Bucket - firstBucket
					if b < 0 || b >= nb || !seen.add(int64(pos)*nb+b) {
						return ts.Result{}, fallbackUnusable, nil
					}
					switch {
					case !direct:
						parts.Add(pos, tm, v, 1)
					case q.Agg == ts.Count:
						res.Add(q.BucketStart(tm), float64(int64(v)))
					default:
						res.Add(q.BucketStart(tm), v)
					}
					continue
				}
				a := avgs[k]
				if a == nil {
					a = &avg{}
					avgs[k] = a
				}
				switch {
				case sr.part == "sum" && !a.hasSum:
					a.sum, a.hasSum = v, true
				case sr.part == "count" && !a.hasN:
					a.n, a.hasN = v, true
				default:
					return ts.Result{}, fallbackUnusable, nil
				}
			}
		}
	}
	if !q.Across || direct {
		res.First, res.Last = 0, 0 // aggregate row order is not defined
		return res, onServer, nil
	}
	for k, a := range avgs {
		if !a.hasSum || !a.hasN || a.n < 1 {
			return ts.Result{}, fallbackUnusable, nil
		}
		parts.Add(k.sensor, k.at, a.sum, int64(a.n))
	}
	return parts.Result(), onServer, nil
}

// bucketSet is a set of bucket numbers below n: a slice when n is small
// enough (a query's buckets times its sensors, usually a few hundred),
// else a map.
type bucketSet struct {
	dense  []bool
	sparse map[int64]bool
}

func newBucketSet(n int64) *bucketSet {
	if n <= 1<<16 {
		return &bucketSet{dense: make([]bool, n)}
	}
	return &bucketSet{sparse: map[int64]bool{}}
}

// add puts i in the set; false when it was there already.
func (b *bucketSet) add(i int64) bool {
	if b.dense != nil {
		was := b.dense[i]
		b.dense[i] = true
		return !was
	}
	was := b.sparse[i]
	b.sparse[i] = true
	return !was
}
