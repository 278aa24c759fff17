package clientside

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// Partials combines per-part aggregates into the same answer AcrossDevices
// computes from the points: the parts here are each series' own buckets
// (as IoTDB returns them), so every aggregate is split as finely as it can.
func TestPartialsMatchAcrossDevices(t *testing.T) {
	pt := func(t int64, v float64) Point { return Point{T: t, V: v, Numeric: true} }
	// Three devices x two sensors, device by device; buckets of 1 s from 50.
	all := []Series{
		{pt(100, 1), pt(1100, 4), pt(2100, 2), pt(2900, -3)}, // d0 s0
		{pt(100, 7), pt(4000, 1.5)},                          // d0 s1
		{pt(150, 3), pt(2200, 9)},                            // d1 s0
		{pt(3100, 5)},                                        // d1 s1
		{pt(1000, 8), pt(1049, 2), pt(5100, 0.25)},           // d2 s0
		{}, // d2 s1
	}
	for _, agg := range []ts.Aggregate{ts.Count, ts.Sum, ts.Avg, ts.Min, ts.Max} {
		for _, limit := range []int{0, 1, 2, 10} {
			sensors := []int{0, 1}
			if limit > 0 {
				sensors = []int{0} // a limit counts the buckets of one sensor
			}
			q := ts.Query{Kind: ts.GroupBy, Agg: agg, Sensors: sensors, Start: 50, End: 6000,
				Bucket: 1000, Across: true, Limit: limit}
			var series []Series
			for i, sr := range all {
				if limit == 0 || i%2 == 0 {
					series = append(series, sr)
				}
			}
			want := AcrossDevices(&q, series)
			p := NewPartials(&q)
			for i, sr := range series {
				// One part per series and bucket, as a server's GROUP BY
				// per series returns it.
				buckets := map[int64]*acc{}
				for _, pnt := range sr {
					b := q.Start + (pnt.T-q.Start)/q.Bucket*q.Bucket
					if buckets[b] == nil {
						buckets[b] = &acc{min: 1e300, max: -1e300}
					}
					buckets[b].add(pnt.V)
				}
				for b, a := range buckets {
					v := a.value(agg)
					if agg == ts.Avg {
						v = a.sum
					}
					p.Add(i%len(sensors), b, v, a.n)
				}
			}
			got := p.Result()
			if d := Diff(&q, got, want); d != "" || got.Points == 0 {
				t.Errorf("%s limit %d: %s (got %+v, want %+v)", agg, limit, d, got, want)
			}
		}
	}
}
