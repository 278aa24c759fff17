package clientside

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestAcrossDevices(t *testing.T) {
	pt := func(t int64, v float64) Point { return Point{T: t, V: v, Numeric: true} }
	// Two devices x two sensors, device by device: d0s0, d0s1, d1s0, d1s1.
	// Buckets of 1 s from 0.
	all := []Series{
		{pt(100, 1), pt(1100, 4), pt(2100, 2)}, // d0 s0
		{pt(100, 7)},                           // d0 s1
		{pt(150, 3), pt(2200, 9)},              // d1 s0
		{pt(3100, 5)},                          // d1 s1
	}
	tests := []struct {
		name string
		q    ts.Query
		want ts.Result
	}{
		// s0: bucket 0 max(1,3)=3, bucket 1 4, bucket 2 max(2,9)=9; s1: bucket 0 7, bucket 3 5.
		{"max per sensor and bucket", ts.Query{Kind: ts.GroupBy, Agg: ts.Max, Sensors: []int{0, 1}, Bucket: 1000, Across: true},
			ts.Result{Points: 5, Sum: 3 + 4 + 9 + 7 + 5}},
		{"count per sensor and bucket", ts.Query{Kind: ts.GroupBy, Agg: ts.Count, Sensors: []int{0, 1}, Bucket: 1000, Across: true},
			ts.Result{Points: 5, Sum: 2 + 1 + 2 + 1 + 1}},
		{"avg across devices", ts.Query{Kind: ts.GroupBy, Agg: ts.Avg, Sensors: []int{0, 1}, Bucket: 1000, Across: true},
			ts.Result{Points: 5, Sum: 2 + 4 + 5.5 + 7 + 5}},
	}
	for _, tt := range tests {
		got := Answer(&tt.q, all)
		got.Squares = 0
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestAcrossDevicesLimit(t *testing.T) {
	pt := func(t int64, v float64) Point { return Point{T: t, V: v, Numeric: true} }
	all := []Series{
		{pt(100, 1), pt(1100, 4), pt(2100, 2), pt(5100, 6)},
		{pt(150, 3), pt(2200, 9)},
	}
	q := ts.Query{Kind: ts.GroupBy, Agg: ts.Max, Sensors: []int{0}, Start: 0, Bucket: 1000, Across: true, Limit: 3}
	// Buckets with points: 5 (6), 2 (9), 1 (4), 0 (3): the three newest, newest first.
	got := Answer(&q, all)
	want := ts.Result{Points: 3, Sum: 6 + 9 + 4, First: 5000, Last: 1000}
	got.Squares = 0
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	// The order is checked: the same values oldest first differ.
	reversed := want
	reversed.First, reversed.Last = want.Last, want.First
	if Diff(&q, reversed, want) == "" {
		t.Error("Diff accepts a bucket-limited answer in the wrong order")
	}
	q.Limit = 10 // more than there are buckets: all four
	if got := Answer(&q, all); got.Points != 4 || got.Sum != 6+9+4+3 {
		t.Errorf("limit above the buckets: got %+v", got)
	}
}
