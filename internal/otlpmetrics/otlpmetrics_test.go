package otlpmetrics

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	metrics "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/proto"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// labels makes a template's labels, sorted by name, the instance's value
// left open.
func labels(name string, pairs ...string) []remotewrite.Label {
	ls := []remotewrite.Label{{Name: remotewrite.MetricName, Value: name}, {Name: "instance"}, {Name: "job", Value: "node"}}
	for i := 0; i+1 < len(pairs); i += 2 {
		ls = append(ls, remotewrite.Label{Name: pairs[i], Value: pairs[i+1]})
	}
	return ls
}

// testSeries: a gauge, a counter, and a histogram of two finite buckets.
var testSeries = []Series{
	{Labels: labels("node_load1"), Open: []int{1}, Kind: Gauge},
	{Labels: labels("node_cpu_seconds_total", "mode", "idle"), Open: []int{1}, Kind: Counter},
	{Labels: labels("req_bucket", "le", "0.5"), Open: []int{1}, Kind: Bucket},
	{Labels: labels("req_bucket", "le", "2"), Open: []int{1}, Kind: Bucket},
	{Labels: labels("req_bucket", "le", "+Inf"), Open: []int{1}, Kind: Bucket},
	{Labels: labels("req_sum"), Open: []int{1}, Kind: HistSum},
	{Labels: labels("req_count"), Open: []int{1}, Kind: HistCount},
}

// A request decodes with OpenTelemetry's own types into what a collector
// would send: a metric a family, each target's point with its attributes
// (job and instance among them) and time, the counter a monotonic
// cumulative Sum, the histogram's buckets counted apart with the +Inf
// bound left out; a stale target's points flagged as holding no value;
// and the gzip body is the request.
func TestRequestDecodes(t *testing.T) {
	e, err := NewEncoder(testSeries)
	if err != nil {
		t.Fatal(err)
	}
	const ms = 1_700_000_000_000
	for round := range 2 { // the encoder reused
		e.Reset()
		for n, v := range []float64{0.37, 1234.5, 3, 7, 9, 11.25, 9} {
			e.Append(n, []string{"host-1"}, ms, v)
		}
		for n := range testSeries {
			e.Append(n, []string{"host-2"}, ms, math.Float64frombits(0x7ff0000000000002))
		}
		raw := e.AppendRequest(nil)
		req := &colmetrics.ExportMetricsServiceRequest{}
		if err := proto.Unmarshal(raw, req); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		checkRequest(t, req)
		zr, err := gzip.NewReader(bytes.NewReader(e.Compress(nil, raw)))
		if err != nil {
			t.Fatal(err)
		}
		if back, err := io.ReadAll(zr); err != nil || !bytes.Equal(back, raw) {
			t.Fatalf("gzip: %v", err)
		}
	}
}

func checkRequest(t *testing.T, req *colmetrics.ExportMetricsServiceRequest) {
	t.Helper()
	if len(req.ResourceMetrics) != 1 || len(req.ResourceMetrics[0].ScopeMetrics) != 1 {
		t.Fatalf("request %v", req)
	}
	sm := req.ResourceMetrics[0].ScopeMetrics[0]
	if sm.Scope != nil || len(sm.Metrics) != 3 {
		t.Fatalf("scope %v, %d metrics", sm.Scope, len(sm.Metrics))
	}
	g, c, h := sm.Metrics[0], sm.Metrics[1], sm.Metrics[2]
	if g.Name != "node_load1" || len(g.GetGauge().GetDataPoints()) != 2 {
		t.Fatalf("gauge %v", g)
	}
	p := g.GetGauge().DataPoints[0]
	if p.GetAsDouble() != 0.37 || p.TimeUnixNano != 1_700_000_000_000_000_000 || attrs(p.Attributes) != "instance=host-1 job=node " {
		t.Errorf("gauge point %v", p)
	}
	if p := g.GetGauge().DataPoints[1]; p.Flags != uint32(metrics.DataPointFlags_DATA_POINT_FLAGS_NO_RECORDED_VALUE_MASK) || p.Value != nil {
		t.Errorf("stale gauge point %v", p)
	}
	sum := c.GetSum()
	if c.Name != "node_cpu_seconds_total" || !sum.GetIsMonotonic() ||
		sum.AggregationTemporality != metrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE ||
		sum.DataPoints[0].GetAsDouble() != 1234.5 || attrs(sum.DataPoints[0].Attributes) != "instance=host-1 job=node mode=idle " {
		t.Errorf("counter %v", c)
	}
	hist := h.GetHistogram()
	if h.Name != "req" || hist == nil || len(hist.DataPoints) != 2 ||
		hist.AggregationTemporality != metrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Fatalf("histogram %v", h)
	}
	hp := hist.DataPoints[0]
	if hp.Count != 9 || hp.GetSum() != 11.25 || !slices.Equal(hp.BucketCounts, []uint64{3, 4, 2}) ||
		!slices.Equal(hp.ExplicitBounds, []float64{0.5, 2}) || attrs(hp.Attributes) != "instance=host-1 job=node " {
		t.Errorf("histogram point %v", hp)
	}
	if hp := hist.DataPoints[1]; hp.Flags != 1 || hp.Count != 0 || !slices.Equal(hp.BucketCounts, []uint64{0, 0, 0}) || !slices.Equal(hp.ExplicitBounds, []float64{0.5, 2}) {
		t.Errorf("stale histogram point %v", hp)
	}
}

// A native histogram decodes with OpenTelemetry's own types into an
// ExponentialHistogram's cumulative points: count, sum, scale the schema,
// the positive buckets one below Prometheus' numbering (OTLP's bucket i
// holds (2^i, 2^(i+1)] at scale 0, Prometheus' (2^(i-1), 2^i]), the zero
// bucket empty with its width; a gauge beside it in the same request, and
// a replaced target's point flagged as holding no value.
func TestExponentialHistogramDecodes(t *testing.T) {
	e, err := NewEncoder([]Series{
		{Labels: labels("node_load1"), Open: []int{1}, Kind: Gauge},
		{Labels: labels("req", "handler", "/q"), Open: []int{1}, Kind: ExpHistogram},
	})
	if err != nil {
		t.Fatal(err)
	}
	const ms = 1_700_000_000_000
	e.Reset()
	e.Append(0, []string{"host-1"}, ms, 2.5)
	e.AppendHistogram(1, []string{"host-1"}, ms, &remotewrite.Histogram{Schema: 0, Count: 12, Sum: 7.5, Offset: -2,
		Counts: []uint64{1, 0, 300, 11}})
	e.AppendHistogram(1, []string{"host-3"}, ms, &remotewrite.Histogram{Schema: 3, Count: 1, Sum: 1, Offset: 4, Counts: []uint64{1}})
	e.Append(1, []string{"host-2"}, ms, math.Float64frombits(0x7ff0000000000002))
	req := &colmetrics.ExportMetricsServiceRequest{}
	if err := proto.Unmarshal(e.AppendRequest(nil), req); err != nil {
		t.Fatal(err)
	}
	ms0 := req.ResourceMetrics[0].ScopeMetrics[0].Metrics
	if len(ms0) != 2 || ms0[0].GetGauge().GetDataPoints()[0].GetAsDouble() != 2.5 {
		t.Fatalf("metrics %v", ms0)
	}
	eh := ms0[1].GetExponentialHistogram()
	if ms0[1].Name != "req" || eh == nil || len(eh.DataPoints) != 3 ||
		eh.AggregationTemporality != metrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Fatalf("exponential histogram %v", ms0[1])
	}
	p := eh.DataPoints[0]
	if p.Count != 12 || p.GetSum() != 7.5 || p.Scale != 0 || p.ZeroCount != 0 || p.ZeroThreshold != 0x1p-128 ||
		p.Positive.GetOffset() != -3 || !slices.Equal(p.Positive.GetBucketCounts(), []uint64{1, 0, 300, 11}) ||
		p.Negative != nil || p.Flags != 0 || p.TimeUnixNano != ms*1e6 || attrs(p.Attributes) != "instance=host-1 job=node handler=/q " {
		t.Errorf("point %v", p)
	}
	if p := eh.DataPoints[1]; p.Scale != 3 || p.Positive.GetOffset() != 3 || attrs(p.Attributes) != "instance=host-3 job=node handler=/q " {
		t.Errorf("schema 3 point %v", p)
	}
	if p := eh.DataPoints[2]; p.Flags != 1 || p.Count != 0 || p.Positive != nil || attrs(p.Attributes) != "instance=host-2 job=node handler=/q " {
		t.Errorf("stale point %v", p)
	}
}

// attrs lists a point's attributes as name=value, in their order.
func attrs(kvs []*common.KeyValue) string {
	var b bytes.Buffer
	for _, kv := range kvs {
		b.WriteString(kv.Key + "=" + kv.Value.GetStringValue() + " ")
	}
	return b.String()
}

// A bucket whose le is no number is refused, naming it.
func TestBadBucket(t *testing.T) {
	_, err := NewEncoder([]Series{{Labels: labels("x_bucket", "le", "high"), Open: []int{1}, Kind: Bucket}})
	if err == nil || err.Error() != `otlpmetrics: bucket x_bucket: le "high": strconv.ParseFloat: parsing "high": invalid syntax` {
		t.Fatalf("%v", err)
	}
}

// A store's answer, marshalled by OpenTelemetry's own types: an empty one,
// or a partial success of no rejected points, is a success; rejected
// points are an error giving their number and the store's message; bytes
// that are no message are an error.
func TestCheckAnswer(t *testing.T) {
	answer := func(r *colmetrics.ExportMetricsServiceResponse) []byte {
		b, err := proto.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name   string
		answer []byte
		want   string // "" for a success
	}{
		{"empty", nil, ""},
		{"no partial success", answer(&colmetrics.ExportMetricsServiceResponse{}), ""},
		{"none rejected", answer(&colmetrics.ExportMetricsServiceResponse{
			PartialSuccess: &colmetrics.ExportMetricsPartialSuccess{ErrorMessage: "a warning"}}), ""},
		{"rejected", answer(&colmetrics.ExportMetricsServiceResponse{
			PartialSuccess: &colmetrics.ExportMetricsPartialSuccess{RejectedDataPoints: 3, ErrorMessage: "out of order sample"}}),
			"3 data points rejected: out of order sample"},
		{"not a message", []byte("OK\n"), "not an ExportMetricsServiceResponse"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckAnswer(c.answer)
			if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
}
