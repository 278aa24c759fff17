package iotdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// TSBS's groupby-orderby-limit becomes one GROUP BY LEVEL statement over
// the query's devices that keeps the buckets holding a point, newest
// first. The answers are checked against the real server by the
// conformance suite (AcrossQueries).
func TestAcrossStatement(t *testing.T) {
	s := &ts.Schema{Sensors: []ts.Sensor{{Name: "usage_user", Type: ts.Double}}}
	q := ts.Query{Kind: ts.GroupBy, Sensors: []int{0}, Start: 90_000, End: 3_690_001, Bucket: 60_000,
		Agg: ts.Max, Across: true, Limit: 5}
	devs := []string{"root.tsbs.cpu.host_0", "root.tsbs.cpu.host_1"}
	want := "SELECT max_value(usage_user) FROM root.tsbs.cpu.host_0, root.tsbs.cpu.host_1 " +
		"GROUP BY ([90000, 3690001), 60000ms), LEVEL = 0 HAVING count(usage_user) > 0 ORDER BY TIME DESC LIMIT 5"
	if got := acrossStatement(s, []string{"usage_user"}, &q, devs); got != want {
		t.Errorf("limit:\n got %s\nwant %s", got, want)
	}
	q.Limit = 0
	want = "SELECT max_value(usage_user) FROM root.tsbs.cpu.host_0, root.tsbs.cpu.host_1 " +
		"GROUP BY ([90000, 3690001), 60000ms), LEVEL = 0"
	if got := acrossStatement(s, []string{"usage_user"}, &q, devs); got != want {
		t.Errorf("no limit:\n got %s\nwant %s", got, want)
	}
}

// A GROUP BY LEVEL answer repeats its merged column's name once per
// series merged into it; each column is read once.
func TestDistinct(t *testing.T) {
	got := distinct([]string{"Time", "max(a)", "max(a)", "count(b)", "max(a)", "count(b)"})
	want := []string{"Time", "max(a)", "count(b)"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
