package remotewrite

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/golang/snappy"
	"github.com/prometheus/prometheus/model/histogram"
	"github.com/prometheus/prometheus/prompb"
	writev2 "github.com/prometheus/prometheus/prompb/io/prometheus/write/v2"

	"github.com/tsbench/tsbench/internal/ts"
)

// series is a decoded series: its labels as name=value, in the request's
// order, and its samples.
type series struct {
	labels []string
	times  []int64
	values []float64
	hists  []string // native histograms: their timestamp and Prometheus' String()
}

// decodeV1 reads a compressed 1.0 request with Prometheus' own types.
func decodeV1(t *testing.T, body []byte) []series {
	t.Helper()
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		t.Fatal(err)
	}
	var req prompb.WriteRequest
	if err := req.Unmarshal(raw); err != nil {
		t.Fatal(err)
	}
	var out []series
	for _, s := range req.Timeseries {
		var o series
		for _, l := range s.Labels {
			o.labels = append(o.labels, l.Name+"="+l.Value)
		}
		for _, p := range s.Samples {
			o.times, o.values = append(o.times, p.Timestamp), append(o.values, p.Value)
		}
		for _, h := range s.Histograms {
			o.hists = append(o.hists, decodedHistogram(t, h.Timestamp, h.IsFloatHistogram(), h.ToIntHistogram()))
		}
		out = append(out, o)
	}
	return out
}

// decodedHistogram is a decoded integer histogram, as the tests compare
// it, or a failure if the request sent a float one.
func decodedHistogram(t *testing.T, ts int64, float bool, h *histogram.Histogram) string {
	t.Helper()
	if float {
		t.Fatalf("a float histogram at %d: want integer counts", ts)
	}
	if err := h.Validate(); err != nil {
		t.Fatalf("histogram at %d: %v", ts, err)
	}
	return fmt.Sprintf("%d %s zero %g/%d", ts, h.String(), h.ZeroThreshold, h.ZeroCount)
}

// decodeV2 reads a compressed 2.0 request with Prometheus' own types,
// resolving the label references through the symbols.
func decodeV2(t *testing.T, body []byte) []series {
	t.Helper()
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		t.Fatal(err)
	}
	var req writev2.Request
	if err := req.Unmarshal(raw); err != nil {
		t.Fatal(err)
	}
	if len(req.Symbols) == 0 || req.Symbols[0] != "" {
		t.Fatalf("symbols %q: the first must be the empty string", req.Symbols)
	}
	seen := map[string]bool{}
	for _, s := range req.Symbols {
		if seen[s] && s != MetricName {
			t.Errorf("symbol %q twice in %q", s, req.Symbols)
		}
		seen[s] = true
	}
	var out []series
	for _, s := range req.Timeseries {
		var o series
		if len(s.LabelsRefs)%2 != 0 {
			t.Fatalf("odd label references %v", s.LabelsRefs)
		}
		for i := 0; i < len(s.LabelsRefs); i += 2 {
			o.labels = append(o.labels, req.Symbols[s.LabelsRefs[i]]+"="+req.Symbols[s.LabelsRefs[i+1]])
		}
		for _, p := range s.Samples {
			o.times, o.values = append(o.times, p.Timestamp), append(o.values, p.Value)
		}
		for _, h := range s.Histograms {
			o.hists = append(o.hists, decodedHistogram(t, h.Timestamp, h.IsFloatHistogram(), h.ToIntHistogram()))
		}
		out = append(out, o)
	}
	return out
}

// sensorsNamed is DOUBLE sensors of the names.
func sensorsNamed(names ...string) []ts.Sensor {
	out := make([]ts.Sensor, len(names))
	for i, n := range names {
		out[i] = ts.Sensor{Name: n, Type: ts.Double}
	}
	return out
}

// testBatch is a batch of three rows of four sensors of every numeric
// kind, with a time before the epoch and one far ahead.
func testBatch() *ts.Batch {
	return &ts.Batch{
		Times: []int64{-1500, 1640995200000, math.MaxInt64 / 2},
		Columns: []ts.Column{
			{Type: ts.Double, Doubles: []float64{1.5, -0.25, math.Inf(1)}},
			{Type: ts.Int64, Int64s: []int64{1 << 52, -3, 0}},
			{Type: ts.Boolean, Bools: []bool{true, false, true}},
			{Type: ts.Float, Floats: []float32{0.5, 2, -8}},
		},
		Decimals: -1,
	}
}

// Every sensor is a series with the device's labels sorted by name, the
// metric name among them (a capital sorts before "__name__"), an empty
// value left out, and a sample per row with its value and time exactly;
// both versions decode to the same series with Prometheus' types.
func TestEncode(t *testing.T) {
	sensors := []string{"cpu usage [%]", "temp.c", "ok", "Zürich/温度"}
	devices := [][]Label{
		{{"device", "web01.example.com"}, {"Host", `rack "7"`}, {"db", "bench"}, {"empty", ""}},
		{{"device", "ok"}, {"db", "bench"}}, // a value equal to a sensor's name
	}
	decode := map[Version]func(*testing.T, []byte) []series{V1: decodeV1, V2: decodeV2}
	for _, v := range []Version{V1, V2} {
		t.Run(fmt.Sprint(v), func(t *testing.T) {
			e := NewEncoder(v, sensorsNamed(sensors...), devices)
			b := testBatch()
			for pos, want := range []string{
				`Host=rack "7",__name__=%s,db=bench,device=web01.example.com`,
				`__name__=%s,db=bench,device=ok`,
			} {
				got := decode[v](t, e.Encode(pos, b))
				if len(got) != len(sensors) {
					t.Fatalf("%d series, want %d", len(got), len(sensors))
				}
				for sn, s := range got {
					if l, w := strings.Join(s.labels, ","), fmt.Sprintf(want, sensors[sn]); l != w {
						t.Errorf("series %d: labels %s, want %s", sn, l, w)
					}
					for i := range b.Times {
						want, _ := b.Columns[sn].Number(i)
						if s.times[i] != b.Times[i] || s.values[i] != want {
							t.Errorf("series %d, row %d: %d %v, want %d %v", sn, i, s.times[i], s.values[i], b.Times[i], want)
						}
					}
				}
			}
		})
	}
}

// A sparse batch carries the present values only, each at its own time;
// a sensor without any has no series.
func TestEncodeSparse(t *testing.T) {
	for _, v := range []Version{V1, V2} {
		e := NewEncoder(v, sensorsNamed("a", "b", "c", "d"), [][]Label{{{"device", "d_0"}}})
		b := testBatch()
		b.MarkNull(0, 1)
		for i := range b.Times {
			b.MarkNull(2, i)
		}
		got := map[Version]func(*testing.T, []byte) []series{V1: decodeV1, V2: decodeV2}[v](t, e.Encode(0, b))
		if len(got) != 3 {
			t.Fatalf("v%d: %d series, want 3 (none for the empty sensor)", v, len(got))
		}
		if s := got[0]; len(s.times) != 2 || s.times[0] != -1500 || s.times[1] != math.MaxInt64/2 || s.values[1] != math.Inf(1) {
			t.Errorf("v%d: sparse series %+v", v, s)
		}
		if got[2].labels[0] != "__name__=d" {
			t.Errorf("v%d: third series %v, want sensor d's", v, got[2].labels)
		}
	}
}

// Many sensors: references past one varint byte, and requests of
// thousands of series, decode.
func TestEncodeWide(t *testing.T) {
	var sensors []string
	b := &ts.Batch{Times: []int64{1, 2}, Decimals: -1}
	for i := 0; i < 3000; i++ {
		sensors = append(sensors, fmt.Sprintf("s_%d", i))
		b.Columns = append(b.Columns, ts.Column{Type: ts.Int32, Int32s: []int32{int32(i), int32(-i)}})
	}
	for _, v := range []Version{V1, V2} {
		e := NewEncoder(v, sensorsNamed(sensors...), [][]Label{{{"device", "d"}, {"zone", "z"}}})
		got := map[Version]func(*testing.T, []byte) []series{V1: decodeV1, V2: decodeV2}[v](t, e.Encode(0, b))
		last := got[len(got)-1]
		if len(got) != 3000 || strings.Join(last.labels, ",") != "__name__=s_2999,device=d,zone=z" || last.values[1] != -2999 {
			t.Fatalf("v%d: %d series, last %+v", v, len(got), last)
		}
	}
}

// AppendSeries and AppendMetadata write what prompb reads.
func TestAppendSeries(t *testing.T) {
	labels := AppendLabel(AppendLabel(nil, MetricName, "m_total"), "run", "r 1")
	raw := AppendSeries(nil, labels, []int64{1000, 2000}, []float64{5, 9})
	raw = AppendMetadata(raw, Counter, "m_total", "what m counts")
	var req prompb.WriteRequest
	if err := req.Unmarshal(raw); err != nil {
		t.Fatal(err)
	}
	s := req.Timeseries
	if len(s) != 1 || len(s[0].Labels) != 2 || s[0].Labels[1].Value != "r 1" || len(s[0].Samples) != 2 || s[0].Samples[1].Value != 9 ||
		s[0].Samples[1].Timestamp != 2000 {
		t.Fatalf("series %+v", s)
	}
	m := req.Metadata
	if len(m) != 1 || m[0].Type != prompb.MetricMetadata_COUNTER || m[0].MetricFamilyName != "m_total" || m[0].Help != "what m counts" {
		t.Fatalf("metadata %+v", m)
	}
}

// Encoding a batch allocates nothing once the buffers have grown.
func TestEncodeAllocs(t *testing.T) {
	for _, v := range []Version{V1, V2} {
		e := NewEncoder(v, sensorsNamed("a", "b", "c", "d"), [][]Label{{{"device", "d_0"}}})
		b := testBatch()
		if n := testing.AllocsPerRun(100, func() { e.Encode(0, b) }); n != 0 {
			t.Errorf("v%d: %v allocations per batch", v, n)
		}
	}
}
