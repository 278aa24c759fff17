package questdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// TSBS's groupby-orderby-limit becomes one statement per table that groups
// by bucket alone, keeps the rows where the sensor has a value and returns
// the newest buckets first. The answers are checked against the real
// server by the conformance suite (AcrossQueries).
func TestAcrossSQL(t *testing.T) {
	s := &ts.Schema{Sensors: []ts.Sensor{{Name: "usage_user", Type: ts.Double}, {Name: "usage_system", Type: ts.Double}}}
	cols := []string{"usage_user", "usage_system"}
	q := ts.Query{Kind: ts.GroupBy, Sensors: []int{0}, Start: 90_000, End: 3_690_001, Bucket: 60_000,
		Agg: ts.Max, Across: true, Limit: 5}
	want := `SELECT 90000 + (cast(ts as long) / 1000 - 90000) / 60000 * 60000 bt, (cast(ts as long) / 1000 - 90000) / 60000 bk, ` +
		`max("usage_user") FROM "cpu" WHERE device IN ('host_0','host_1') AND ts >= cast(90000000 as timestamp) ` +
		`AND ts < cast(3690001000 as timestamp) AND "usage_user" IS NOT NULL GROUP BY bt, bk ORDER BY bt DESC LIMIT 5`
	if got := acrossSQL(s, cols, &q, "cpu", "'host_0','host_1'"); got != want {
		t.Errorf("limit:\n got %s\nwant %s", got, want)
	}
	// An average asks for each table's sum and count, which combine.
	q.Agg, q.Limit, q.Sensors = ts.Avg, 0, []int{0, 1}
	want = `SELECT 90000 + (cast(ts as long) / 1000 - 90000) / 60000 * 60000 bt, (cast(ts as long) / 1000 - 90000) / 60000 bk, ` +
		`sum("usage_user"), count("usage_user"), sum("usage_system"), count("usage_system") FROM "cpu" ` +
		`WHERE device IN ('host_0','host_1') AND ts >= cast(90000000 as timestamp) AND ts < cast(3690001000 as timestamp) ` +
		`GROUP BY bt, bk ORDER BY bt`
	if got := acrossSQL(s, cols, &q, "cpu", "'host_0','host_1'"); got != want {
		t.Errorf("avg:\n got %s\nwant %s", got, want)
	}
}
