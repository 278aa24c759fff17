package ts

import (
	"fmt"
	"strings"
)

// QueryKind is one of IoT-benchmark's query types Q1..Q10 (seed 002, table 1-6).
type QueryKind uint8

const (
	PrecisePoint        QueryKind = iota + 1 // Q1: time = start
	TimeRange                                // Q2: start <= time < end
	ValueRange                               // Q3: Q2 and value > lower
	AggRange                                 // Q4: agg over Q2
	AggValue                                 // Q5: agg over value > lower, whole series
	AggRangeValue                            // Q6: agg over Q3
	GroupBy                                  // Q7: agg per bucket over [start, end)
	LatestPoint                              // Q8: latest point of each series
	RangeQueryDesc                           // Q9: Q2 in descending time order
	ValueRangeQueryDesc                      // Q10: Q3 in descending time order
)

// QueryKinds lists Q1..Q10 in order.
var QueryKinds = []QueryKind{PrecisePoint, TimeRange, ValueRange, AggRange, AggValue,
	AggRangeValue, GroupBy, LatestPoint, RangeQueryDesc, ValueRangeQueryDesc}

var kindNames = [...]string{"", "PRECISE_POINT", "TIME_RANGE", "VALUE_RANGE", "AGG_RANGE",
	"AGG_VALUE", "AGG_RANGE_VALUE", "GROUP_BY", "LATEST_POINT", "RANGE_QUERY_DESC",
	"VALUE_RANGE_QUERY_DESC"}

// String is the name IoT-benchmark prints in its matrices.
func (k QueryKind) String() string {
	if k >= 1 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("QueryKind(%d)", k)
}

// Short is Q1..Q10.
func (k QueryKind) Short() string { return fmt.Sprintf("Q%d", k) }

// HasValueFilter reports whether the query filters on value > Lower.
func (k QueryKind) HasValueFilter() bool {
	return k == ValueRange || k == AggValue || k == AggRangeValue || k == ValueRangeQueryDesc
}

// HasTimeRange reports whether the query restricts time to [Start, End).
func (k QueryKind) HasTimeRange() bool {
	return k != AggValue && k != LatestPoint && k != PrecisePoint
}

// Aggregates reports whether the query returns aggregate values, not points.
func (k QueryKind) Aggregates() bool {
	return k == AggRange || k == AggValue || k == AggRangeValue || k == GroupBy
}

// Descending reports whether rows come newest first.
func (k QueryKind) Descending() bool { return k == RangeQueryDesc || k == ValueRangeQueryDesc }

// Aggregate is an aggregate function of Q4..Q7.
type Aggregate uint8

const (
	Count Aggregate = iota
	Sum
	Avg
	Min
	Max
)

var aggNames = [...]string{"count", "sum", "avg", "min", "max"}

func (a Aggregate) String() string {
	if int(a) < len(aggNames) {
		return aggNames[a]
	}
	return fmt.Sprintf("Aggregate(%d)", a)
}

// NeedsNumeric reports whether the aggregate only applies to numeric sensors.
func (a Aggregate) NeedsNumeric() bool { return a != Count }

// ParseAggregate accepts count, sum, avg, min, max in any case.
func ParseAggregate(s string) (Aggregate, error) {
	for i, n := range aggNames {
		if strings.EqualFold(s, n) {
			return Aggregate(i), nil
		}
	}
	return 0, fmt.Errorf("unknown aggregate %q (allowed: %s)", s, strings.Join(aggNames[:], ", "))
}

// Query is a typed description of one read; each target translates it into
// its own query language. Times are milliseconds since the epoch.
//
// Semantics every target must honour (the conformance suite checks them):
//   - ranges are half-open: Start <= time < End;
//   - Q1 matches time == Start;
//   - value filters are strict: value > Lower;
//   - aggregates are computed per series (device x sensor); Q7 buckets are
//     [o + i*Bucket, o + (i+1)*Bucket) clipped to [Start, End), where o is
//     BucketOrigin (Start, or the epoch with ClockBuckets), and buckets with
//     no point are not returned; a bucket is reported at its (unclipped)
//     start;
//   - Q8 returns the point with the greatest timestamp of each series;
//   - a Q7 with Across aggregates across the query's devices: one value per
//     sensor and bucket over every device's points in it, as TSBS's
//     single-groupby, cpu-max-all and groupby-orderby-limit take the
//     maximum across hosts;
//   - a Q7 with Limit > 0 (one sensor) returns only the Limit newest
//     buckets that have a point, newest first, as SQL's ORDER BY bucket
//     DESC LIMIT n.
type Query struct {
	Kind    QueryKind
	Devices []*Device
	Sensors []int // indexes into Schema.Sensors
	Start   int64
	End     int64
	Lower   float64
	Agg     Aggregate
	Bucket  int64
	Across  bool // Q7: aggregate across Devices (GROUP_BY_ACROSS_DEVICES)
	Limit   int  // Q7: the newest Limit buckets only (GROUP_BY_LIMIT); 0 = all
	// ClockBuckets aligns Q7's buckets on the clock, as TSBS's SQL does
	// (time_bucket, epoch arithmetic): a window from a random start then
	// has a part-bucket at either end, 61 minute buckets in an hour.
	ClockBuckets bool
	// Fleet, when set, makes the query one of TSBS's iot questions
	// (FleetQuery), answered by targets.FleetQuerier with rows.
	Fleet *FleetQuery
}

// BucketOrigin is where Q7's bucket 0 starts: the epoch with ClockBuckets,
// else the window's Start.
func (q *Query) BucketOrigin() int64 {
	if q.ClockBuckets {
		return 0
	}
	return q.Start
}

// BucketStart is the start of Q7's bucket that holds t (t >= the origin):
// where a bucket's value is reported.
func (q *Query) BucketStart(t int64) int64 {
	o := q.BucketOrigin()
	return o + (t-o)/q.Bucket*q.Bucket
}

// Result is what a target reports back from a query. Points counts the points
// (or aggregate values) returned; Sum adds up every numeric value returned
// (booleans as 0/1, text ignored) so that answers can be checked against the
// generator without materialising rows. First and Last are the timestamps of
// the first and last row in the order the database returned them, which shows
// the order of Q9 and Q10 (zero when there is no row or the kind has no
// row timestamps).
type Result struct {
	Points      int64
	Sum         float64
	First, Last int64
	// Squares adds up the squares of the values: a second checksum for
	// answers whose values cancel out in Sum (differences from a mean).
	Squares float64
}

// Add accounts for one returned value at time t.
func (r *Result) Add(t int64, v float64) {
	if r.Points == 0 {
		r.First = t
	}
	r.Last = t
	r.Points++
	r.Sum += v
	r.Squares += v * v
}

// Merge adds the answer of a sub-query over other series (another table,
// another sensor) to r. Rows of both are in time order (newest first when
// desc), so the merged first and last times are the extremes.
func (r *Result) Merge(b Result, desc bool) {
	if b.Points == 0 {
		return
	}
	switch {
	case r.Points == 0:
		r.First, r.Last = b.First, b.Last
	case desc:
		r.First, r.Last = max(r.First, b.First), min(r.Last, b.Last)
	default:
		r.First, r.Last = min(r.First, b.First), max(r.Last, b.Last)
	}
	r.Points += b.Points
	r.Sum += b.Sum
	r.Squares += b.Squares
}

// CountRange selects the points Count looks at: the listed devices (all when
// empty) and times in [Start, End) (all when End <= Start).
type CountRange struct {
	Devices []*Device
	Start   int64
	End     int64
}
