package kairosdb

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestAppendBatch(t *testing.T) {
	times := []int64{1000, 2000}
	tags := `{"device":"d_0","group":"g_0"}`
	for _, tc := range []struct {
		name    string
		col     ts.Column
		want    string
		wantErr string
	}{
		{name: "boolean as long", col: ts.Column{Type: ts.Boolean, Bools: []bool{true, false}},
			want: `[{"name":"db.s_0","tags":{"device":"d_0","group":"g_0"},"datapoints":[[1000,1],[2000,0]]}]`},
		{name: "int32", col: ts.Column{Type: ts.Int32, Int32s: []int32{-7, 2147483647}},
			want: `[{"name":"db.s_0","tags":{"device":"d_0","group":"g_0"},"datapoints":[[1000,-7],[2000,2147483647]]}]`},
		{name: "int64 beyond 2^53", col: ts.Column{Type: ts.Int64, Int64s: []int64{9007199254740993, -3}},
			want: `[{"name":"db.s_0","tags":{"device":"d_0","group":"g_0"},"datapoints":[[1000,9007199254740993],[2000,-3]]}]`},
		{name: "float keeps its float32 value", col: ts.Column{Type: ts.Float, Floats: []float32{0.1, 3}},
			want: `[{"name":"db.s_0","tags":{"device":"d_0","group":"g_0"},"datapoints":[[1000,0.10000000149011612],[2000,3.0]]}]`},
		{name: "double always has a decimal point", col: ts.Column{Type: ts.Double, Doubles: []float64{1e21, 1e-5}},
			want: `[{"name":"db.s_0","tags":{"device":"d_0","group":"g_0"},"datapoints":[[1000,1000000000000000000000.0],[2000,0.00001]]}]`},
		{name: "text as string points", col: ts.Column{Type: ts.Text, Texts: []string{`a"b\c`, "x\ny"}},
			want: `[{"name":"db.s_0","type":"string","tags":{"device":"d_0","group":"g_0"},"datapoints":[[1000,"a\"b\\c"],[2000,"x\u000ay"]]}]`},
		{name: "empty text refused", col: ts.Column{Type: ts.Text, Texts: []string{"a", ""}},
			wantErr: "empty TEXT value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &ts.Batch{Times: times, Columns: []ts.Column{tc.col}}
			got, err := appendBatch(nil, []string{"db.s_0"}, tags, b)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Fatalf("invalid JSON: %s", got)
			}
		})
	}
}

func TestAppendBatchSeveralSensors(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0", "g_1"}}
	d := &ts.Device{Name: "d_1", Group: 1, Tags: []ts.Tag{{Key: "tag_0", Value: "value_1"}}}
	b := &ts.Batch{Device: d, Times: []int64{5}, Columns: []ts.Column{
		{Type: ts.Int64, Int64s: []int64{1}}, {Type: ts.Double, Doubles: []float64{2.5}}}}
	got, err := appendBatch(nil, []string{metricName("tsbench", "s_0"), metricName("tsbench", "s_1")}, deviceTags(s, d, serverNames{}), b)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"tsbench.s_0","tags":{"device":"d_1","group":"g_1","tag_0":"value_1"},"datapoints":[[5,1]]},` +
		`{"name":"tsbench.s_1","tags":{"device":"d_1","group":"g_1","tag_0":"value_1"},"datapoints":[[5,2.5]]}]`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBuildQuery(t *testing.T) {
	s := &ts.Schema{StartTime: 1000, Devices: []ts.Device{{Name: "d_0"}, {Name: "d_1"}}}
	metrics := []string{"db.s_0", "db.s_1"}
	d0, d1 := &s.Devices[0], &s.Devices[1]
	for _, tc := range []struct {
		name  string
		q     ts.Query
		want  string // JSON of the request
		empty bool
	}{
		{name: "Q1 inclusive single instant", q: ts.Query{Kind: ts.PrecisePoint, Devices: []*ts.Device{d0}, Sensors: []int{1}, Start: 5000, End: 5001},
			want: `{"start_absolute":5000,"end_absolute":5000,"metrics":[{"name":"db.s_1","tags":{"device":["d_0"]}}]}`},
		{name: "Q2 one metric query per series, end minus 1", q: ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{d0, d1}, Sensors: []int{0}, Start: 1000, End: 3000},
			want: `{"start_absolute":1000,"end_absolute":2999,"metrics":[{"name":"db.s_0","tags":{"device":["d_0"]}},{"name":"db.s_0","tags":{"device":["d_1"]}}]}`},
		{name: "Q10 filter and desc", q: ts.Query{Kind: ts.ValueRangeQueryDesc, Devices: []*ts.Device{d1}, Sensors: []int{0}, Start: 1000, End: 3000, Lower: 0},
			want: `{"start_absolute":1000,"end_absolute":2999,"metrics":[{"name":"db.s_0","tags":{"device":["d_1"]},"aggregators":[{"name":"filter","filter_op":"lte","threshold":0}],"order":"desc"}]}`},
		{name: "Q4 one interval over the range", q: ts.Query{Kind: ts.AggRange, Devices: []*ts.Device{d0}, Sensors: []int{0}, Start: 1000, End: 3000, Agg: ts.Avg},
			want: `{"start_absolute":1000,"end_absolute":2999,"metrics":[{"name":"db.s_0","tags":{"device":["d_0"]},"aggregators":[{"name":"avg","sampling":{"value":2000,"unit":"milliseconds"},"align_start_time":true}]}]}`},
		{name: "Q5 whole series with filter", q: ts.Query{Kind: ts.AggValue, Devices: []*ts.Device{d0}, Sensors: []int{0}, Lower: -5, Agg: ts.Count},
			want: `{"start_absolute":0,"end_absolute":4611686018427387904,"metrics":[{"name":"db.s_0","tags":{"device":["d_0"]},"aggregators":[{"name":"filter","filter_op":"lte","threshold":-5},{"name":"count","sampling":{"value":4611686018427387905,"unit":"milliseconds"},"align_start_time":true}]}]}`},
		{name: "Q7 buckets", q: ts.Query{Kind: ts.GroupBy, Devices: []*ts.Device{d0}, Sensors: []int{0}, Start: 1200, End: 9000, Bucket: 700, Agg: ts.Max},
			want: `{"start_absolute":1200,"end_absolute":8999,"metrics":[{"name":"db.s_0","tags":{"device":["d_0"]},"aggregators":[{"name":"max","sampling":{"value":700,"unit":"milliseconds"},"align_start_time":true}]}]}`},
		{name: "Q8 latest", q: ts.Query{Kind: ts.LatestPoint, Devices: []*ts.Device{d0}, Sensors: []int{0}},
			want: `{"start_absolute":0,"end_absolute":4611686018427387904,"metrics":[{"name":"db.s_0","tags":{"device":["d_0"]},"order":"desc","limit":1}]}`},
		{name: "empty range", q: ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{d0}, Sensors: []int{0}, Start: 1000, End: 1000}, empty: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, empty, err := buildQuery(&tc.q, s, metrics, serverNames{})
			if err != nil {
				t.Fatal(err)
			}
			if empty != tc.empty {
				t.Fatalf("empty = %v, want %v", empty, tc.empty)
			}
			if tc.empty {
				return
			}
			got, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestCountRequest(t *testing.T) {
	s := &ts.Schema{StartTime: 1000, Devices: []ts.Device{{Name: "d_0"}, {Name: "d_1"}}}
	req, _ := countRequest(ts.CountRange{Devices: []*ts.Device{&s.Devices[1]}, Start: 1000, End: 2000}, s, []string{"db.s_0"}, serverNames{})
	got, _ := json.Marshal(req)
	want := `{"start_absolute":1000,"end_absolute":1999,"metrics":[{"name":"db.s_0","tags":{"device":["d_1"]},"aggregators":[{"name":"count","sampling":{"value":1000,"unit":"milliseconds"}}]}]}`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	req, _ = countRequest(ts.CountRange{}, s, []string{"db.s_0"}, serverNames{})
	if req.StartAbsolute != 0 || req.EndAbsolute != maxTime || req.Metrics[0].Tags != nil {
		t.Fatalf("Count of everything: %+v", req)
	}
}

func TestPoint(t *testing.T) {
	for raw, want := range map[string]float64{`[1,2.5]`: 2.5, `[1,1.0E21]`: 1e21, `[1,"abc"]`: 0, `[1,-3]`: -3} {
		var p [2]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			t.Fatal(err)
		}
		if _, v, err := point(p); err != nil || v != want {
			t.Errorf("point(%s) = %v, %v; want %v", raw, v, err, want)
		}
	}
}

// A sparse batch lists each sensor's present points only (an empty TEXT
// cell is no point, not a refused empty string), and a sensor without any
// has no entry.
func TestAppendSparseBatch(t *testing.T) {
	b := &ts.Batch{Times: []int64{1000, 2000, 3000}, Columns: []ts.Column{
		{Type: ts.Text, Texts: []string{"", "b", "c"}},
		{Type: ts.Int64, Int64s: []int64{0, 0, 0}},
		{Type: ts.Double, Doubles: []float64{1.5, 0, 2.5}},
	}}
	for _, c := range []struct{ col, row int }{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 1}} {
		b.MarkNull(c.col, c.row)
	}
	got, err := appendBatch(nil, []string{"db.s_0", "db.s_1", "db.s_2"}, `{"device":"d_0"}`, b)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"db.s_0","type":"string","tags":{"device":"d_0"},"datapoints":[[2000,"b"],[3000,"c"]]},` +
		`{"name":"db.s_2","tags":{"device":"d_0"},"datapoints":[[1000,1.5],[3000,2.5]]}]`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
