package targettest

import (
	"math"
	"sort"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Expect computes, from the generator alone, the Result a target must return
// for q when rows [0, rows) of every device were written. It follows the
// semantics documented on ts.Query.
func Expect(g *gen.Generator, q *ts.Query, rows int64) ts.Result {
	return ExpectPresent(g, q, rows, nil)
}

// ExpectPresent is Expect over data whose cells present says are there
// (nil: every cell): an empty cell is no point.
func ExpectPresent(g *gen.Generator, q *ts.Query, rows int64, present func(dev, sensor int, k int64) bool) ts.Result {
	has := func(dev, sensor int, k int64) bool { return present == nil || present(dev, sensor, k) }
	if q.Across {
		return clientside.AcrossDevices(q, expectSeries(g, q, rows, has))
	}
	switch q.Kind {
	case ts.AggRange, ts.AggValue, ts.AggRangeValue, ts.GroupBy:
		return expectAggregate(g, q, rows, has)
	case ts.LatestPoint:
		var r ts.Result
		for _, d := range q.Devices {
			for _, sn := range q.Sensors {
				for k := rows - 1; k >= 0; k-- {
					if has(d.Index, sn, k) {
						v, _ := g.Number(d.Index, sn, k)
						r.Add(g.Time(k), v)
						break
					}
				}
			}
		}
		r.First, r.Last = 0, 0 // Q8's row order is not defined
		return r
	}
	// Row kinds: every matching point, in time order (descending for Q9/Q10).
	type point struct {
		t int64
		v float64
	}
	var pts []point
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			for _, k := range rowRange(g, q, rows) {
				if !has(d.Index, sn, k) {
					continue
				}
				v, numeric := g.Number(d.Index, sn, k)
				if q.Kind.HasValueFilter() && (!numeric || !(v > q.Lower)) {
					continue
				}
				if !numeric {
					v = 0
				}
				pts = append(pts, point{g.Time(k), v})
			}
		}
	}
	sort.SliceStable(pts, func(i, j int) bool {
		if q.Kind.Descending() {
			return pts[i].t > pts[j].t
		}
		return pts[i].t < pts[j].t
	})
	var r ts.Result
	for _, p := range pts {
		r.Add(p.t, p.v)
	}
	return r
}

// expectSeries lists the points of q's window, series by series, device by
// device in the order clientside's answers read them.
func expectSeries(g *gen.Generator, q *ts.Query, rows int64, has func(dev, sensor int, k int64) bool) []clientside.Series {
	var all []clientside.Series
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			var sr clientside.Series
			for _, k := range rowRange(g, q, rows) {
				if has(d.Index, sn, k) {
					v, numeric := g.Number(d.Index, sn, k)
					sr = append(sr, clientside.Point{T: g.Time(k), V: v, Numeric: numeric})
				}
			}
			all = append(all, sr)
		}
	}
	return all
}

// rowRange lists the row indexes whose timestamps the query's time condition
// selects.
func rowRange(g *gen.Generator, q *ts.Query, rows int64) []int64 {
	var out []int64
	switch {
	case q.Kind == ts.PrecisePoint:
		if k, exact := g.RowAt(q.Start); exact && k < rows {
			out = append(out, k)
		}
	case q.Kind.HasTimeRange():
		for k := int64(0); k < rows; k++ {
			if t := g.Time(k); t >= q.Start && t < q.End {
				out = append(out, k)
			}
		}
	default:
		for k := int64(0); k < rows; k++ {
			out = append(out, k)
		}
	}
	return out
}

// expectAggregate computes Q4..Q7: one value per series (per bucket for Q7)
// that has at least one matching point.
func expectAggregate(g *gen.Generator, q *ts.Query, rows int64, has func(dev, sensor int, k int64) bool) ts.Result {
	var r ts.Result
	for _, d := range q.Devices {
		for _, sn := range q.Sensors {
			groups := map[int64]*acc{}
			var order []int64
			for _, k := range rowRange(g, q, rows) {
				if !has(d.Index, sn, k) {
					continue
				}
				v, numeric := g.Number(d.Index, sn, k)
				if q.Kind.HasValueFilter() && (!numeric || !(v > q.Lower)) {
					continue
				}
				b := int64(0)
				if q.Kind == ts.GroupBy {
					b = (g.Time(k) - q.Start) / q.Bucket
				}
				a := groups[b]
				if a == nil {
					a = &acc{min: math.Inf(1), max: math.Inf(-1)}
					groups[b] = a
					order = append(order, b)
				}
				a.add(v)
			}
			for _, b := range order {
				r.Add(q.Start+b*q.Bucket, groups[b].value(q.Agg))
			}
		}
	}
	r.First, r.Last = 0, 0 // aggregate row order is not defined
	return r
}

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
