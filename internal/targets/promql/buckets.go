package promql

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Q7 on the server. A rollup such as max_over_time(sel[w]) evaluated at
// time t covers the samples in (t-w, t] (Prometheus 3 and VictoriaMetrics
// alike); with whole-millisecond timestamps, evaluated at t = Start +
// (i+1)*Bucket - 1 with w = Bucket it covers exactly bucket i, [Start +
// i*Bucket, Start + (i+1)*Bucket). One query_range with start = Start +
// Bucket - 1 ms and step = Bucket therefore answers every whole bucket,
// one value per series (or, aggregated, per sensor) and bucket that has a
// point: a window without samples yields no value (no lookback, no
// previous sample, no gap filling). A bucket clipped by the query's End,
// or by the schema's START_TIME, is evaluated on its own, at its clipped
// end - 1 ms with the clipped width as window (PlanBuckets).

// MaxBucketsPerRequest bounds the evaluation times of one query_range,
// below Prometheus' 11,000 points per series and VictoriaMetrics'
// -search.maxPointsPerTimeseries (30,000); MaxServerBuckets bounds a
// query's buckets computed on the server: beyond it (a millisecond bucket
// over days) computing from the points moves no more.
const (
	MaxBucketsPerRequest = 10_000
	MaxServerBuckets     = 50_000
)

// PlanBuckets lays a Q7's buckets, clipped to [max(Start, startTime), End),
// on evaluation grids: one for the whole buckets (Step = Window = Bucket,
// split in grids of at most MaxBucketsPerRequest times), and one single
// time for each clipped bucket at either end, with its clipped width as
// window. Each time t lies in the bucket it answers for: bucket
// (t - o) / Bucket, o the query's BucketOrigin. ok is false when there are
// more than MaxServerBuckets buckets; an empty plan means no bucket has a
// time in range.
func PlanBuckets(q *ts.Query, startTime int64) (grids []Grid, ok bool) {
	b, o := q.Bucket, q.BucketOrigin()
	lo := max(q.Start, startTime)
	if lo >= q.End {
		return nil, true
	}
	first, last := (lo-o)/b, (q.End-1-o)/b
	if last-first+1 > MaxServerBuckets {
		return nil, false
	}
	// bounds of bucket i clipped to [lo, End)
	from := func(i int64) int64 { return max(o+i*b, lo) }
	to := func(i int64) int64 { return min(o+(i+1)*b, q.End) }
	single := func(i int64) Grid {
		at := to(i) - 1
		return Grid{From: at, To: at, Step: b, Window: to(i) - from(i)}
	}
	whole := func(i int64) bool { return to(i)-from(i) == b }
	if first == last {
		return []Grid{single(first)}, true
	}
	f0, f1 := first, last
	if !whole(first) {
		grids = append(grids, single(first))
		f0++
	}
	if !whole(last) {
		f1--
	}
	for i := f0; i <= f1; i += MaxBucketsPerRequest {
		j := min(i+MaxBucketsPerRequest-1, f1)
		grids = append(grids, Grid{From: to(i) - 1, To: to(j) - 1, Step: b, Window: b})
	}
	if !whole(last) {
		grids = append(grids, single(last))
	}
	return grids, true
}

// Rollups are PromQL's rollup functions of the aggregates.
var Rollups = targets.AggregateNames{Count: "count_over_time", Sum: "sum_over_time", Avg: "avg_over_time",
	Min: "min_over_time", Max: "max_over_time"}

// The labels a Q7's expression puts on its answers (GroupByExpr): the
// position of the sensor in the query, and which half of an average
// across devices a value is.
const (
	SensorLabel = "tsbench_sensor"
	PartLabel   = "tsbench_part"
)

// GroupByExpr is the PromQL of a Q7 over the series sel(k) selects for
// each sensor k of the query (its position in q.Sensors), with a window
// of window ms. A rollup drops the metric name, and the series of two
// sensors of a device would then be one labelset (which PromQL refuses),
// so each sensor's rollup is marked with its position (SensorLabel) and
// the sensors' answers joined with or:
//   - per series: <agg>_over_time(sel(k)[w]);
//   - across devices, one series per sensor: count and sum add up, min and
//     max take the extreme, of each series' rollup;
//   - the average across devices weighs every point alike, not every
//     device: the sum and the count, told apart by PartLabel, divided by
//     tsbench (Buckets).
func GroupByExpr(q *ts.Query, sel func(k int) string, window int64) (string, error) {
	fn, err := Rollups.Of("promql", q.Agg)
	if err != nil {
		return "", err
	}
	w := Window(window)
	return EachSensor(len(q.Sensors), func(k int) string {
		roll := func(fn string) string { return fn + "(" + sel(k) + w + ")" }
		switch {
		case !q.Across:
			return roll(fn)
		case q.Agg == ts.Count || q.Agg == ts.Sum:
			return "sum(" + roll(fn) + ")"
		case q.Agg == ts.Min:
			return "min(" + roll(fn) + ")"
		case q.Agg == ts.Max:
			return "max(" + roll(fn) + ")"
		}
		return Mark("sum("+roll("sum_over_time")+")", PartLabel, "sum") + " or " +
			Mark("sum("+roll("count_over_time")+")", PartLabel, "count")
	}), nil
}

// Mark is expr with the label set to value on every series of its answer.
func Mark(expr, label, value string) string {
	return "label_replace(" + expr + ", " + Quote(label) + ", " + Quote(value) + `, "", "")`
}

// EachSensor joins with or the expressions of n sensors, each one's
// answers marked with its position (SensorLabel): a rollup drops the
// metric name, and two sensors' series of a device would otherwise be one
// labelset, which PromQL refuses.
func EachSensor(n int, one func(k int) string) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		if k > 0 {
			b.WriteString(" or ")
		}
		b.WriteString(Mark(one(k), SensorLabel, strconv.Itoa(k)))
	}
	return b.String()
}

// Buckets gathers a Q7's answers from the server into its result: per
// series, each value is its bucket's; across devices, one value per
// sensor and bucket (an average's sum and count apart). A Limit (the
// newest buckets only) and the average go through clientside.Partials;
// the others straight into the result, as Partials would put them (a
// count as an integer), without its map and sort (a tenth of
// single-groupby-5-8-1's CPU on VictoriaMetrics).
type Buckets struct {
	q       *ts.Query
	res     ts.Result
	parts   *clientside.Partials
	avgs    map[bucketKey]*avgParts
	direct  bool
	origin  int64
	first   int64 // the first bucket in range
	n       int64 // buckets in range
	seen    *BucketSet
	invalid bool
}

type bucketKey struct {
	sensor int
	at     int64
}

type avgParts struct {
	sum, n       float64
	hasSum, hasN bool
}

// NewBuckets prepares the gathering of q's answers, its buckets from
// max(Start, startTime) (at most MaxServerBuckets: PlanBuckets says so
// first).
func NewBuckets(q *ts.Query, startTime int64) *Buckets {
	b := &Buckets{q: q, parts: clientside.NewPartials(q), avgs: map[bucketKey]*avgParts{},
		direct: q.Agg != ts.Avg && q.Limit == 0, origin: q.BucketOrigin()}
	b.first = (max(q.Start, startTime) - b.origin) / q.Bucket
	b.n = (q.End-1-b.origin)/q.Bucket - b.first + 1
	if q.Across && q.Agg != ts.Avg {
		b.seen = NewBucketSet(int64(len(q.Sensors)) * b.n)
	}
	return b
}

// Add takes the value v evaluated at time tm: per series, a series'
// (sensor is not read); across devices, that of the sensor at position
// sensor of q.Sensors, part being PartLabel's value ("sum" or "count" for
// an average, else ""). It reports false, and the result is unusable,
// for a bucket answered twice or out of range, or a part that does not
// fit.
func (b *Buckets) Add(sensor int, part string, tm int64, v float64) bool {
	q := b.q
	if !q.Across {
		b.res.Add(q.BucketStart(tm), v)
		return true
	}
	if sensor < 0 || sensor >= len(q.Sensors) {
		b.invalid = true
		return false
	}
	if q.Agg != ts.Avg {
		i := (tm-b.origin)/q.Bucket - b.first
		if i < 0 || i >= b.n || !b.seen.Add(int64(sensor)*b.n+i) {
			b.invalid = true
			return false
		}
		switch {
		case !b.direct:
			b.parts.Add(sensor, tm, v, 1)
		case q.Agg == ts.Count:
			b.res.Add(q.BucketStart(tm), float64(int64(v)))
		default:
			b.res.Add(q.BucketStart(tm), v)
		}
		return true
	}
	k := bucketKey{sensor, tm}
	a := b.avgs[k]
	if a == nil {
		a = &avgParts{}
		b.avgs[k] = a
	}
	switch {
	case part == "sum" && !a.hasSum:
		a.sum, a.hasSum = v, true
	case part == "count" && !a.hasN:
		a.n, a.hasN = v, true
	default:
		b.invalid = true
		return false
	}
	return true
}

// Result is the query's answer; ok is false when an Add was refused or an
// average lacks a half.
func (b *Buckets) Result() (ts.Result, bool) {
	if b.invalid {
		return ts.Result{}, false
	}
	if !b.q.Across || b.direct {
		res := b.res
		res.First, res.Last = 0, 0 // aggregate row order is not defined
		return res, true
	}
	for k, a := range b.avgs {
		if !a.hasSum || !a.hasN || a.n < 1 {
			return ts.Result{}, false
		}
		b.parts.Add(k.sensor, k.at, a.sum, int64(a.n))
	}
	return b.parts.Result(), true
}

// BucketSet is a set of bucket numbers below n: a slice when n is small
// enough (a query's buckets times its sensors, usually a few hundred),
// else a map.
type BucketSet struct {
	dense  []bool
	sparse map[int64]bool
}

// NewBucketSet is an empty set of numbers below n.
func NewBucketSet(n int64) *BucketSet {
	if n <= 1<<16 {
		return &BucketSet{dense: make([]bool, n)}
	}
	return &BucketSet{sparse: map[int64]bool{}}
}

// Add puts i in the set; false when it was there already.
func (b *BucketSet) Add(i int64) bool {
	if b.dense != nil {
		was := b.dense[i]
		b.dense[i] = true
		return !was
	}
	was := b.sparse[i]
	b.sparse[i] = true
	return !was
}

// AddSeries adds every value of series to b: each series at the sensor
// position sensorOf gives its first kept label, in the part its second
// names. It is false when sensorOf knows no position or a value falls
// outside the buckets: the answer cannot be used.
func (b *Buckets) AddSeries(series []Series, sensorOf func(label string) (int, bool)) bool {
	for _, sr := range series {
		pos, ok := sensorOf(sr.Labels[0])
		if !ok {
			return false
		}
		for i, tm := range sr.Times {
			if !b.Add(pos, sr.Labels[1], tm, sr.Values[i]) {
				return false
			}
		}
	}
	return true
}

// RangeQuery evaluates expr on grid g, decoding the matrix answer with d.
type RangeQuery func(ctx context.Context, d *Decoder, expr string, g Grid) ([]Series, error)

// Gather answers q's buckets on the server: on each grid it evaluates the
// expression expr builds for the grid's window, through query, and adds
// the answer's series to the buckets (AddSeries with sensorOf). usable is
// false when an answer cannot be used (an UnusableError, a series of no
// sensor, a value outside the buckets): the caller answers another way.
// err is any other error of the query.
func Gather(ctx context.Context, q *ts.Query, startTime int64, grids []Grid, expr func(window int64) (string, error),
	query RangeQuery, sensorOf func(label string) (int, bool)) (res ts.Result, usable bool, err error) {
	d := GetDecoder()
	defer PutDecoder(d)
	buckets := NewBuckets(q, startTime)
	for _, g := range grids {
		e, err := expr(g.Window)
		if err != nil {
			return res, true, err
		}
		series, err := query(ctx, d, e, g)
		if ue := (*UnusableError)(nil); errors.As(err, &ue) {
			return res, false, nil
		} else if err != nil {
			return res, true, err
		}
		if !buckets.AddSeries(series, sensorOf) {
			return res, false, nil
		}
	}
	res, usable = buckets.Result()
	return res, usable, nil
}
