package targettest

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Queries returns the conformance queries: every kind Q1..Q10 over in-order
// and out-of-order devices, one and several series, windows whose edges fall
// on and between rows, value filters, every aggregate, and group-by buckets
// that do not divide the window.
func Queries(s *ts.Schema) []ts.Query {
	dev := func(idx ...int) []*ts.Device {
		var out []*ts.Device
		for _, i := range idx {
			out = append(out, &s.Devices[i])
		}
		return out
	}
	var numeric, all []int
	for i, sn := range s.Sensors {
		all = append(all, i)
		if sn.Type.Numeric() {
			numeric = append(numeric, i)
		}
	}
	lastTwo := numeric[len(numeric)-2:]
	at := func(row int64) int64 { return s.StartTime + row*s.PointStep }
	type window struct{ start, end int64 }
	windows := []window{
		{at(5), at(5) + 37_500},   // starts on a row, ends between rows
		{at(60) + 1, at(119) + 1}, // starts between rows, ends after the last row
		{at(0) - 10_000, at(200)}, // covers everything
		{at(30), at(40) + 1},      // IoT-benchmark's closed window: ends on a row, data beyond
	}
	var qs []ts.Query
	add := func(q ts.Query) { qs = append(qs, q) }

	// Q1: on a row, between rows, beyond the data.
	for _, t := range []int64{at(17), at(17) + 500, at(500)} {
		add(ts.Query{Kind: ts.PrecisePoint, Devices: dev(0, 3, 5), Sensors: all, Start: t, End: t + 1})
	}
	for _, w := range windows {
		for _, kind := range []ts.QueryKind{ts.TimeRange, ts.RangeQueryDesc} {
			add(ts.Query{Kind: kind, Devices: dev(1, 2, 4), Sensors: all, Start: w.start, End: w.end})
		}
		for _, kind := range []ts.QueryKind{ts.ValueRange, ts.ValueRangeQueryDesc} {
			for _, lower := range []float64{-5, 20.5} {
				add(ts.Query{Kind: kind, Devices: dev(0, 3), Sensors: numeric, Start: w.start, End: w.end, Lower: lower})
			}
		}
	}
	for _, agg := range []ts.Aggregate{ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max} {
		sensors := numeric
		if agg == ts.Count {
			sensors = all // count applies to every type
		}
		w := windows[0]
		add(ts.Query{Kind: ts.AggRange, Devices: dev(2, 5), Sensors: sensors, Start: w.start, End: w.end, Agg: agg})
		add(ts.Query{Kind: ts.AggValue, Devices: dev(1, 4), Sensors: lastTwo, Lower: -5, Agg: agg})
		add(ts.Query{Kind: ts.AggRangeValue, Devices: dev(0, 3), Sensors: lastTwo, Start: w.start, End: w.end, Lower: 10, Agg: agg})
		add(ts.Query{Kind: ts.GroupBy, Devices: dev(3, 4), Sensors: lastTwo, Start: at(3) + 200, End: at(90), Bucket: 7_000, Agg: agg})
		add(clockQ7(ts.Query{Kind: ts.GroupBy, Devices: dev(3, 4), Sensors: lastTwo, End: at(90), Bucket: 7_000, Agg: agg}, at(3)+200))
	}
	add(ts.Query{Kind: ts.LatestPoint, Devices: dev(0, 2, 5), Sensors: all})
	add(ts.Query{Kind: ts.LatestPoint, Devices: dev(4), Sensors: lastTwo})
	return qs
}

// AcrossQueries returns the conformance queries of targets that declare
// GroupByAcross: Q7s aggregated across devices with every aggregate, and
// bucket-limited ones (TSBS's groupby-orderby-limit) whose limit is below,
// and above, the buckets that hold points.
func AcrossQueries(s *ts.Schema) []ts.Query {
	var numeric []int
	for i, sn := range s.Sensors {
		if sn.Type.Numeric() {
			numeric = append(numeric, i)
		}
	}
	lastTwo := numeric[len(numeric)-2:]
	at := func(row int64) int64 { return s.StartTime + row*s.PointStep }
	devs := func(idx ...int) []*ts.Device {
		var out []*ts.Device
		for _, i := range idx {
			out = append(out, &s.Devices[i])
		}
		return out
	}
	var qs []ts.Query
	for _, agg := range []ts.Aggregate{ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max} {
		qs = append(qs, ts.Query{Kind: ts.GroupBy, Devices: devs(1, 3, 4), Sensors: lastTwo,
			Start: at(3) + 200, End: at(90), Bucket: 7_000, Agg: agg, Across: true})
	}
	for _, agg := range []ts.Aggregate{ts.Avg, ts.Max} {
		qs = append(qs, clockQ7(ts.Query{Kind: ts.GroupBy, Devices: devs(1, 3, 4), Sensors: lastTwo,
			End: at(90), Bucket: 7_000, Agg: agg, Across: true}, at(3)+200))
	}
	for _, limit := range []int{5, 1000} {
		qs = append(qs, ts.Query{Kind: ts.GroupBy, Devices: devs(0, 1, 2, 3, 4, 5), Sensors: lastTwo[1:],
			Start: at(0), End: at(100) + 1, Bucket: 7_000, Agg: ts.Max, Across: true, Limit: limit})
	}
	qs = append(qs, clockQ7(ts.Query{Kind: ts.GroupBy, Devices: devs(0, 1, 2, 3, 4, 5), Sensors: lastTwo[1:],
		End: at(100) + 1, Bucket: 7_000, Agg: ts.Max, Across: true, Limit: 5}, at(0)+1500))
	return qs
}

// clockQ7 is q with buckets on the clock (TSBS's), starting at start or,
// should start fall on a clock bucket's edge, a second later: its first
// and last buckets are then clipped by the window.
func clockQ7(q ts.Query, start int64) ts.Query {
	if start%q.Bucket == 0 {
		start += 1000
	}
	q.Start, q.ClockBuckets = start, true
	return q
}

// describe names a query for test output.
func describe(s *ts.Schema, q *ts.Query) string {
	var devs []string
	for _, d := range q.Devices {
		devs = append(devs, d.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s_x%d", strings.Join(devs, "+"), len(q.Sensors))
	if q.Kind.HasTimeRange() || q.Kind == ts.PrecisePoint {
		fmt.Fprintf(&b, "_t%+d", (q.Start-s.StartTime)/1000)
	}
	if q.Kind.HasValueFilter() {
		fmt.Fprintf(&b, "_gt%g", q.Lower)
	}
	if q.Kind.Aggregates() {
		b.WriteString("_" + q.Agg.String())
	}
	if q.Across {
		b.WriteString("_across")
	}
	if q.Limit > 0 {
		fmt.Fprintf(&b, "_limit%d", q.Limit)
	}
	if q.ClockBuckets {
		b.WriteString("_clock")
	}
	return b.String()
}
