package promrun

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	metrics "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/proto"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// Every OTLP request a worker sends decodes, with OpenTelemetry's types
// and turned into series as Prometheus' translation does (a point's
// attributes its labels, a histogram's buckets cumulative with their
// bounds as le, a point without a recorded value a staleness marker), to
// the samples of its slots' scrape, in either profile.
func TestOTLPRequestIsTheScrape(t *testing.T) {
	for _, p := range promshape.Profiles {
		t.Run(p.String(), func(t *testing.T) {
			c := Plan(Config{Shape: promshape.Config{Targets: 4, Interval: time.Second, ChurnShare: 0.5, ChurnPeriod: 5 * time.Second,
				Seed: 1, Profile: p}, Scrapes: 20, ReadTimeout: time.Second, Engine: promql.EnginePrometheus},
				time.UnixMilli(1_700_000_000_500), "run-1")
			r, err := New(c)
			if err != nil {
				t.Fatal(err)
			}
			requestsAreTheScrape(t, r, remotewrite.OTLP, decodeOTLP, true)
		})
	}
}

// decodeOTLP is a gzip OTLP request's samples as sampleText writes them,
// sorted.
func decodeOTLP(t *testing.T, body []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var req colmetrics.ExportMetricsServiceRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(name string, attrs []*common.KeyValue, extra []remotewrite.Label, ns uint64, v float64, flags uint32) {
		ls := []remotewrite.Label{{Name: remotewrite.MetricName, Value: name}}
		for _, kv := range attrs {
			ls = append(ls, remotewrite.Label{Name: kv.Key, Value: kv.Value.GetStringValue()})
		}
		ls = append(ls, extra...)
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		if flags&uint32(metrics.DataPointFlags_DATA_POINT_FLAGS_NO_RECORDED_VALUE_MASK) != 0 {
			v = promshape.StaleNaN()
		}
		out = append(out, sampleText(ls, int64(ns/1e6), v))
	}
	for _, rm := range req.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				var points []*metrics.NumberDataPoint
				switch d := m.Data.(type) {
				case *metrics.Metric_Gauge:
					points = d.Gauge.DataPoints
				case *metrics.Metric_Sum:
					if !d.Sum.IsMonotonic || !strings.HasSuffix(m.Name, "_total") {
						t.Fatalf("%s: a sum, monotonic %v", m.Name, d.Sum.IsMonotonic)
					}
					points = d.Sum.DataPoints
				case *metrics.Metric_Histogram:
					for _, p := range d.Histogram.DataPoints {
						cum := 0.0
						for i, c := range p.BucketCounts {
							cum += float64(c)
							le := math.Inf(1)
							if i < len(p.ExplicitBounds) {
								le = p.ExplicitBounds[i]
							}
							leText := strconv.FormatFloat(le, 'g', -1, 64)
							if math.IsInf(le, 1) {
								leText = "+Inf"
							}
							add(m.Name+"_bucket", p.Attributes, []remotewrite.Label{{Name: "le", Value: leText}}, p.TimeUnixNano, cum, p.Flags)
						}
						add(m.Name+"_sum", p.Attributes, nil, p.TimeUnixNano, p.GetSum(), p.Flags)
						add(m.Name+"_count", p.Attributes, nil, p.TimeUnixNano, float64(p.Count), p.Flags)
					}
				}
				for _, p := range points {
					add(m.Name, p.Attributes, nil, p.TimeUnixNano, p.GetAsDouble(), p.Flags)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
