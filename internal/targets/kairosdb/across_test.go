package kairosdb

import (
	"encoding/json"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// A Q7 across devices asks one metric query per sensor over all the
// devices, with no raw-point limit (KairosDB's limit counts points, not
// buckets), and keeps the newest buckets itself. The answers are checked
// against the real server by the conformance suite (AcrossQueries).
func TestAcrossQuery(t *testing.T) {
	s := &ts.Schema{Sensors: []ts.Sensor{{Name: "s_0"}, {Name: "s_1"}}}
	devs := []ts.Device{{Name: "d_0"}, {Name: "d_1"}}
	q := ts.Query{Kind: ts.GroupBy, Devices: []*ts.Device{&devs[0], &devs[1]}, Sensors: []int{1}, Start: 1000, End: 9000,
		Bucket: 2000, Agg: ts.Max, Across: true, Limit: 2}
	req, empty, err := buildQuery(&q, s, []string{"db.s_0", "db.s_1"}, serverNames{})
	if err != nil || empty {
		t.Fatalf("buildQuery: %v (empty %v)", err, empty)
	}
	if len(req.Metrics) != 1 {
		t.Fatalf("%d metric queries, want 1", len(req.Metrics))
	}
	m := req.Metrics[0]
	if m.Name != "db.s_1" || len(m.Tags["device"]) != 2 || m.Limit != 0 || m.Order != "" {
		t.Errorf("metric query %+v, want db.s_1 over d_0 and d_1 with no limit", m)
	}
	// Buckets at 1000, 3000 and 5000: the two newest, newest first.
	var r queryResponse
	if err := json.Unmarshal([]byte(`{"queries":[{"results":[{"values":[[1000,1.5],[3000,2],[5000,7]]}]}]}`), &r); err != nil {
		t.Fatal(err)
	}
	got, err := across(&q, &r)
	if err != nil {
		t.Fatal(err)
	}
	want := ts.Result{Points: 2, Sum: 9, First: 5000, Last: 3000}
	got.Squares = 0
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
