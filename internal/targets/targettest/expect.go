package targettest

import (
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
//
// The generator's points in q's window go through clientside, whose answers
// follow ts.Query's semantics and are checked against hand-made answers in
// its own tests: what the suite expects and what a target computes from
// returned points are one piece of code, so they cannot drift apart.
func ExpectPresent(g *gen.Generator, q *ts.Query, rows int64, present func(dev, sensor int, k int64) bool) ts.Result {
	has := func(dev, sensor int, k int64) bool { return present == nil || present(dev, sensor, k) }
	return clientside.Answer(q, expectSeries(g, q, rows, has))
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
