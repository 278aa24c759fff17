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
