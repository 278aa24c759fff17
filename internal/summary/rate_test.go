package summary

import "testing"

// A write is read in points per second, a query in queries per second (its
// points are its answers'), a TPC-C transaction in transactions per second;
// the per-interval rates count the same way.
func TestRate(t *testing.T) {
	ts := &Summary{Elapsed: 10, Operations: []Operation{
		{Name: "INGESTION", OKOperations: 50, OKPoints: 5000, Throughput: 500},
		{Name: "PRECISE_POINT", OKOperations: 20, OKPoints: 3000, Throughput: 300},
		{Name: "hourly_max", OKOperations: 7, OKPoints: 0},
	}}
	tpcc := &Summary{Elapsed: 60, TPCC: &TPCC{}, Operations: []Operation{{Name: "NEW_ORDER", OKOperations: 120, OKPoints: 120, Throughput: 2}}}
	for _, tc := range []struct {
		s          *Summary
		op, unit   string
		rate, ivly float64
	}{
		{ts, "INGESTION", UnitPoints, 500, 400},
		{ts, "PRECISE_POINT", UnitQueries, 2, 2},
		{ts, "hourly_max", UnitQueries, 0.7, 2},
		{tpcc, "NEW_ORDER", UnitTransactions, 2, 2},
	} {
		if u := tc.s.RateUnit(tc.op); u != tc.unit {
			t.Errorf("%s: unit %s, want %s", tc.op, u, tc.unit)
		}
		if r := tc.s.Rate(tc.s.Op(tc.op)); r != tc.rate {
			t.Errorf("%s: rate %g, want %g", tc.op, r, tc.rate)
		}
		iv := Interval{Seconds: 0.5}
		if r := IntervalRate(tc.unit, iv, &IntervalOp{OKOps: 1, OKPoints: 200}); r != tc.ivly {
			t.Errorf("%s: an interval's rate %g, want %g", tc.op, r, tc.ivly)
		}
	}
	if r := IntervalRate(UnitQueries, Interval{Seconds: 1}, nil); r != 0 {
		t.Errorf("an interval without the operation: %g", r)
	}
	if r := (&Summary{}).Rate(&Operation{Name: "Q1", OKOperations: 3}); r != 0 {
		t.Errorf("no measured time: %g", r)
	}
}
