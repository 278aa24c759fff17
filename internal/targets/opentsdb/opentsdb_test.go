package opentsdb

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestAppendBatch(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g 0"}, Devices: []ts.Device{{Name: "d_0", Tags: []ts.Tag{{Key: "site", Value: "a/b"}}}}}
	b := &ts.Batch{Device: &s.Devices[0], Times: []int64{1000, 2000}, Columns: []ts.Column{
		{Type: ts.Double, Doubles: []float64{2, 0.1}},
		{Type: ts.Int64, Int64s: []int64{7, -3}},
		{Type: ts.Boolean, Bools: []bool{true, false}},
		{Type: ts.Float, Floats: []float32{1.5, 1e-7}},
	}}
	n, err := mapNames(s)
	if err != nil {
		t.Fatal(err)
	}
	out, err := appendBatch(nil, []string{"db.s_0", "db.s_1", "db.s_2", "db.s_3"}, deviceTags(s, &s.Devices[0], n), b)
	if err != nil {
		t.Fatal(err)
	}
	var pts []struct {
		Metric    string
		Timestamp int64
		Value     json.Number
		Tags      map[string]string
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	dec.UseNumber()
	if err := dec.Decode(&pts); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []string{"2.0", "0.1", "7", "-3", "1", "0", "1.5", "0.00000010000000116860974"}
	if len(pts) != len(want) {
		t.Fatalf("%d points, want %d", len(pts), len(want))
	}
	for i, p := range pts {
		if string(p.Value) != want[i] {
			t.Errorf("point %d value %s, want %s (floats need a decimal point, integers none)", i, p.Value, want[i])
		}
	}
	if p := pts[3]; p.Metric != "db.s_1" || p.Timestamp != 2000 || p.Tags["device"] != "d_0" || !strings.HasPrefix(p.Tags["group"], "g_0_") || p.Tags["site"] != "a/b" {
		t.Errorf("point 3 = %+v", p)
	}
	if _, err := appendBatch(nil, []string{"db.s_0"}, "{}", &ts.Batch{Times: []int64{1},
		Columns: []ts.Column{{Type: ts.Text, Texts: []string{"x"}}}}); err == nil {
		t.Error("TEXT accepted")
	}
}

func TestBuildQuery(t *testing.T) {
	d := []*ts.Device{{Name: "d_0"}, {Name: "d_1"}}
	metrics := []string{"db.s_0", "db.s_1"}
	tests := []struct {
		q                 ts.Query
		start, end        int64
		subQueries        int
		downsample, empty string
	}{
		{ts.Query{Kind: ts.TimeRange, Devices: d, Sensors: []int{0, 1}, Start: 1000, End: 5000}, 1000, 4999, 4, "", ""},
		{ts.Query{Kind: ts.PrecisePoint, Devices: d[:1], Sensors: []int{1}, Start: 1000}, 1000, 1001, 1, "", ""},
		// The 0all downsampler leaves out a point at the end it is given:
		// it is given the half-open end.
		{ts.Query{Kind: ts.AggRange, Agg: ts.Avg, Devices: d, Sensors: []int{0}, Start: 0, End: 5000}, 1, 5000, 2, "0all-avg", ""},
		{ts.Query{Kind: ts.LatestPoint, Devices: d, Sensors: []int{0}}, 1, maxTime, 2, "", ""},
		{ts.Query{Kind: ts.TimeRange, Devices: d, Sensors: []int{0}, Start: 5000, End: 5000}, 0, 0, 0, "", "empty"},
	}
	for _, tt := range tests {
		req, any, err := buildQuery(&tt.q, metrics, serverNames{})
		if err != nil {
			t.Fatal(err)
		}
		if tt.empty != "" {
			if any {
				t.Errorf("%v: an empty range sends a query", tt.q.Kind)
			}
			continue
		}
		if req.Start != tt.start || req.End != tt.end || len(req.Queries) != tt.subQueries || req.Queries[0].Downsample != tt.downsample {
			t.Errorf("%v: %+v", tt.q.Kind, req)
		}
		for _, sq := range req.Queries {
			if sq.Aggregator != "none" || sq.Tags["device"] == "" {
				t.Errorf("%v: sub-query %+v is not one series", tt.q.Kind, sq)
			}
		}
	}
	c := countRequest(ts.CountRange{Devices: d, Start: 10, End: 20}, metrics, serverNames{})
	if c.Start != 10 || c.End != 20 || len(c.Queries) != 2 || c.Queries[0].Tags["device"] != "d_0|d_1" || c.Queries[0].Downsample != "0all-count" {
		t.Errorf("count request %+v", c)
	}
	if all := countRequest(ts.CountRange{}, metrics, serverNames{}); all.Start != 1 || all.End != maxTime || all.Queries[1].Tags["device"] != "*" {
		t.Errorf("count everything %+v", all)
	}
}

// A sparse batch puts its present points only.
func TestAppendSparseBatch(t *testing.T) {
	b := &ts.Batch{Times: []int64{1000, 2000}, Columns: []ts.Column{
		{Type: ts.Int64, Int64s: []int64{0, 7}},
		{Type: ts.Double, Doubles: []float64{0, 0}},
	}}
	for _, c := range []struct{ col, row int }{{0, 0}, {1, 0}, {1, 1}} {
		b.MarkNull(c.col, c.row)
	}
	out, err := appendBatch(nil, []string{"db.s_0", "db.s_1"}, `{"device":"d_0"}`, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"metric":"db.s_0","timestamp":2000,"value":7,"tags":{"device":"d_0"}}]`; string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}
