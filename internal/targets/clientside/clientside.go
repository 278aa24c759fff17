// Package clientside computes query answers from the raw points a server
// returned, for targets whose server cannot express a query kind exactly
// (value filters, buckets aligned to the window start, the latest point):
// the semantics are those of ts.Query, the same the conformance suite
// expects. A target that uses it declares those kinds in
// Capabilities.ClientSide, so reports say their latency includes moving
// every point in range. For TSBS's fleet questions it names what a
// question reads and of which trucks (fleet.go), for the targets whose
// server keeps no truck tags and that compute part of the answer.
package clientside

import (
	"fmt"
	"math"
	"sort"

	"github.com/tsbench/tsbench/internal/ts"
)

// Point is one returned point of a series. Numeric is false for values that
// are not numbers (TEXT), which value filters never keep.
type Point struct {
	T       int64
	V       float64
	Numeric bool
}

// Series are the points of one series (device x sensor), in any order.
type Series []Point

// Answer computes q from the series: rows for Q1-Q3, Q9 and Q10, one value
// per series (per bucket for Q7) for Q4-Q7, the newest point per series for
// Q8.
func Answer(q *ts.Query, all []Series) ts.Result {
	switch {
	case q.Kind == ts.LatestPoint:
		return Latest(all)
	case q.Kind.Aggregates():
		return Aggregate(q, all)
	}
	return Rows(q, all)
}

// keep applies a query's value filter: value > Lower, numbers only.
func keep(q *ts.Query, p Point) bool {
	return !q.Kind.HasValueFilter() || p.Numeric && p.V > q.Lower
}

// Rows returns the points that pass the value filter in time order (newest
// first for Q9 and Q10).
func Rows(q *ts.Query, all []Series) ts.Result {
	var pts []Point
	for _, sr := range all {
		for _, p := range sr {
			if keep(q, p) {
				pts = append(pts, p)
			}
		}
	}
	sort.SliceStable(pts, func(i, j int) bool {
		if q.Kind.Descending() {
			return pts[i].T > pts[j].T
		}
		return pts[i].T < pts[j].T
	})
	var r ts.Result
	for _, p := range pts {
		r.Add(p.T, p.V)
	}
	return r
}

// Latest returns the newest point of each series that has one.
func Latest(all []Series) ts.Result {
	var r ts.Result
	for _, sr := range all {
		if len(sr) == 0 {
			continue
		}
		best := sr[0]
		for _, p := range sr[1:] {
			if p.T > best.T {
				best = p
			}
		}
		r.Add(best.T, best.V)
	}
	r.First, r.Last = 0, 0 // Q8's row order is not defined
	return r
}

// acc accumulates one aggregate.
type acc struct {
	n             int64
	sum, min, max float64
}

func (a *acc) add(v float64) {
	a.n++
	a.sum += v
	a.min = math.Min(a.min, v)
	a.max = math.Max(a.max, v)
}

func (a *acc) value(f ts.Aggregate) float64 {
	switch f {
	case ts.Sum:
		return a.sum
	case ts.Avg:
		return a.sum / float64(a.n)
	case ts.Min:
		return a.min
	case ts.Max:
		return a.max
	}
	return float64(a.n)
}

// Aggregate computes Q4..Q7: one value per series (per bucket of
// [Start+i*Bucket, Start+(i+1)*Bucket) for Q7) that has a matching point.
func Aggregate(q *ts.Query, all []Series) ts.Result {
	if q.Across {
		return AcrossDevices(q, all)
	}
	var r ts.Result
	for _, sr := range all {
		groups := map[int64]*acc{}
		var order []int64
		for _, p := range sr {
			if !keep(q, p) {
				continue
			}
			b := int64(0)
			if q.Kind == ts.GroupBy && q.Bucket > 0 {
				b = (p.T - q.BucketOrigin()) / q.Bucket
			}
			a := groups[b]
			if a == nil {
				a = &acc{min: math.Inf(1), max: math.Inf(-1)}
				groups[b] = a
				order = append(order, b)
			}
			a.add(p.V)
		}
		for _, b := range order {
			r.Add(q.BucketOrigin()+b*q.Bucket, groups[b].value(q.Agg))
		}
	}
	r.First, r.Last = 0, 0 // aggregate row order is not defined
	return r
}

// Diff compares a query's result with the expected one as the conformance
// suite does — points, the sum of values (to a relative 1e-9), and for row
// queries and bucket-limited Q7s the first and last timestamps (their order)
// — and says how they differ, or "" when they agree.
func Diff(q *ts.Query, got, want ts.Result) string {
	if got.Points != want.Points {
		return fmt.Sprintf("points = %d, want %d", got.Points, want.Points)
	}
	if d := math.Abs(got.Sum - want.Sum); d > 1e-9*math.Max(1, math.Abs(want.Sum)) {
		return fmt.Sprintf("sum of values = %.12g, want %.12g", got.Sum, want.Sum)
	}
	ordered := !q.Kind.Aggregates() && q.Kind != ts.LatestPoint || q.Limit > 0
	if ordered && (got.First != want.First || got.Last != want.Last) {
		return fmt.Sprintf("first/last timestamps = %d/%d, want %d/%d (order of rows)", got.First, got.Last, want.First, want.Last)
	}
	return ""
}

// InWindow keeps the points of a series a query reads from the whole
// series: time = Start for Q1, Start <= time < End for kinds with a time
// range, all of them for Q5 and Q8.
func InWindow(q *ts.Query, sr Series) Series {
	var out Series
	for _, p := range sr {
		switch {
		case q.Kind == ts.PrecisePoint && p.T != q.Start:
		case q.Kind.HasTimeRange() && (p.T < q.Start || p.T >= q.End):
		default:
			out = append(out, p)
		}
	}
	return out
}
