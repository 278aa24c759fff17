// Package otlp sends samples as OpenTelemetry metrics over HTTP/protobuf
// (OTLP/HTTP, POST to an endpoint such as http://HOST:4318/v1/metrics),
// built with the official OTLP protobuf types. Counters are cumulative
// monotonic sums starting when measuring began; the rest are gauges. Names
// are the Prometheus ones, so that a collector exporting to Prometheus gives
// the same series as --out prometheus-rw.
//
// It stands apart as k6's outputs do, one package per receiver behind
// output.Receiver: a new receiver is one new package, and each brings only
// its own format and libraries (the OTLP protobuf types). internal/cli's
// receivers.go is the one place that knows them all.
package otlp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	common "go.opentelemetry.io/proto/otlp/common/v1"
	metrics "go.opentelemetry.io/proto/otlp/metrics/v1"
	resource "go.opentelemetry.io/proto/otlp/resource/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tsbench/tsbench/internal/output"
)

// Receiver is one OTLP/HTTP metrics endpoint.
type Receiver struct {
	output.HTTPClient // the transport; its Close is the receiver's
	url               string
	version           string
}

// New makes a receiver for url; version is the tool's, sent as the
// instrumentation scope's.
func New(url, version string) *Receiver {
	return &Receiver{url: url, version: version, HTTPClient: output.NewHTTPClient()}
}

var header = http.Header{"Content-Type": {"application/x-protobuf"}, "User-Agent": {"tsbench"}}

// Send posts the batch as one ExportMetricsServiceRequest.
func (r *Receiver) Send(ctx context.Context, batch []*output.Sample) error {
	body, err := Encode(batch, r.version)
	if err != nil {
		return err
	}
	if err := r.Post(ctx, r.url, body, header); err != nil {
		return fmt.Errorf("otlp: %w", err)
	}
	return nil
}

// Encode is the batch as the bytes of one ExportMetricsServiceRequest.
// That message is `repeated ResourceMetrics resource_metrics = 1` alone,
// so its encoding is field 1 holding the one ResourceMetrics (Resource),
// written here: its Go type lives in the collector package, which imports
// gRPC and grpc-gateway (some 70 packages, a tenth of a first build's
// compiling) for a service tsbench never calls. The test decodes it with
// that type.
func Encode(batch []*output.Sample, version string) ([]byte, error) {
	rm, err := proto.Marshal(Resource(batch, version))
	if err != nil {
		return nil, fmt.Errorf("otlp: encode: %w", err)
	}
	body := protowire.AppendTag(make([]byte, 0, len(rm)+protowire.SizeVarint(uint64(len(rm)))+1), 1, protowire.BytesType)
	return protowire.AppendBytes(body, rm), nil
}

// Resource is the batch as the request's one resource (service tsbench)
// with one scope, one metric per name with a data point per series and
// second; the run's labels are each point's attributes.
func Resource(batch []*output.Sample, version string) *metrics.ResourceMetrics {
	var ms []*metrics.Metric
	byName := map[string]*metrics.Metric{}
	for _, s := range batch {
		start := uint64(s.Time.Add(-time.Duration(s.T * float64(time.Second))).UnixNano())
		for _, p := range s.Points() {
			m := byName[p.Name]
			if m == nil {
				m = &metrics.Metric{Name: p.Name, Description: p.Help, Unit: unit(p.Name)}
				if p.Kind == output.Counter {
					m.Data = &metrics.Metric_Sum{Sum: &metrics.Sum{IsMonotonic: true,
						AggregationTemporality: metrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE}}
				} else {
					m.Data = &metrics.Metric_Gauge{Gauge: &metrics.Gauge{}}
				}
				byName[p.Name] = m
				ms = append(ms, m)
			}
			dp := &metrics.NumberDataPoint{Attributes: attributes(p.Labels), TimeUnixNano: uint64(p.Time.UnixNano())}
			switch d := m.Data.(type) {
			case *metrics.Metric_Sum:
				dp.StartTimeUnixNano = start
				dp.Value = &metrics.NumberDataPoint_AsInt{AsInt: int64(p.Value)}
				d.Sum.DataPoints = append(d.Sum.DataPoints, dp)
			case *metrics.Metric_Gauge:
				dp.Value = &metrics.NumberDataPoint_AsDouble{AsDouble: p.Value}
				d.Gauge.DataPoints = append(d.Gauge.DataPoints, dp)
			}
		}
	}
	return &metrics.ResourceMetrics{
		Resource: &resource.Resource{Attributes: []*common.KeyValue{str("service.name", "tsbench")}},
		ScopeMetrics: []*metrics.ScopeMetrics{{
			Scope:   &common.InstrumentationScope{Name: "github.com/tsbench/tsbench", Version: version},
			Metrics: ms,
		}},
	}
}

func attributes(ls []output.Label) []*common.KeyValue {
	out := make([]*common.KeyValue, len(ls))
	for i, l := range ls {
		out[i] = str(l.Name, l.Value)
	}
	return out
}

func str(k, v string) *common.KeyValue {
	return &common.KeyValue{Key: k, Value: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: v}}}
}

// unitSuffixes give the UCUM unit OTLP carries beside a metric by the end
// of its name, tried in order (so _bytes_per_second before _per_second).
var unitSuffixes = []struct{ suffix, unit string }{
	{"_seconds", "s"},
	{"_bytes", "By"},
	{"_bytes_per_second", "By/s"},
	{"_cores", "{core}"},
	{"_ratio", "1"},
	{"_per_second", "1/s"},
}

// unit is the UCUM unit of the metric name; "1" (dimensionless) for a count.
func unit(name string) string {
	for _, u := range unitSuffixes {
		if strings.HasSuffix(name, u.suffix) {
			return u.unit
		}
	}
	return "1"
}
