package clientside

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestAnswer(t *testing.T) {
	a := Series{{T: 3000, V: 5, Numeric: true}, {T: 1000, V: 1, Numeric: true}, {T: 2000, V: -2, Numeric: true}}
	b := Series{{T: 1500, V: 10, Numeric: true}, {T: 2500, V: 0, Numeric: false}}
	all := []Series{a, b}
	tests := []struct {
		name string
		q    ts.Query
		want ts.Result
	}{
		{"rows in time order", ts.Query{Kind: ts.TimeRange}, ts.Result{Points: 5, Sum: 14, First: 1000, Last: 3000}},
		{"value filter drops text and <= lower", ts.Query{Kind: ts.ValueRange, Lower: 0},
			ts.Result{Points: 3, Sum: 16, First: 1000, Last: 3000}},
		{"descending", ts.Query{Kind: ts.RangeQueryDesc}, ts.Result{Points: 5, Sum: 14, First: 3000, Last: 1000}},
		{"max per series", ts.Query{Kind: ts.AggRange, Agg: ts.Max}, ts.Result{Points: 2, Sum: 15}},
		{"avg with a filter", ts.Query{Kind: ts.AggRangeValue, Agg: ts.Avg, Lower: 0}, ts.Result{Points: 2, Sum: 13}},
		// Buckets of 1 s from 1000: a has 1, -2, 5 in three buckets; b 10 and 0.
		{"count per bucket", ts.Query{Kind: ts.GroupBy, Agg: ts.Count, Start: 1000, Bucket: 1000},
			ts.Result{Points: 5, Sum: 5}},
		{"latest per series", ts.Query{Kind: ts.LatestPoint}, ts.Result{Points: 2, Sum: 5}},
	}
	for _, tt := range tests {
		got := Answer(&tt.q, all)
		got.Squares = 0
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// Buckets on the clock, as TSBS's: an hour from a start between minutes,
// over a reading every 10 s, holds 61 minute buckets (a part-bucket at
// either end), each reported at its clock minute; from the window's start
// it holds 60.
func TestClockBuckets(t *testing.T) {
	const base = 1_451_606_400_000 // 2016-01-01 00:00 UTC
	var sr Series
	for k := int64(0); k < 720; k++ {
		sr = append(sr, Point{T: base + k*10_000, V: float64(k), Numeric: true})
	}
	start := int64(base + 37_000)
	for _, tc := range []struct {
		clock   bool
		buckets int64
		first   int64
	}{{true, 61, base}, {false, 60, start}} {
		q := &ts.Query{Kind: ts.GroupBy, Start: start, End: start + 3_600_000, Bucket: 60_000, Agg: ts.Min, ClockBuckets: tc.clock}
		got := Answer(q, []Series{InWindow(q, sr)})
		if got.Points != tc.buckets {
			t.Errorf("clock %v: %d buckets, want %d", tc.clock, got.Points, tc.buckets)
		}
		// The first bucket's minimum is the first reading in the window,
		// 00:00:40 (k = 4), wherever the bucket is reported.
		var want float64
		for b := int64(0); b < tc.buckets; b++ {
			lo := max(tc.first+b*60_000, start)
			want += float64((lo - base + 9_999) / 10_000)
		}
		if got.Sum != want {
			t.Errorf("clock %v: sum of bucket minimums %v, want %v", tc.clock, got.Sum, want)
		}
	}
}
