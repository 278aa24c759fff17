package otlp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	metrics "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/proto"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/otlp"
	"github.com/tsbench/tsbench/internal/output/outputtest"
	"github.com/tsbench/tsbench/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// collector is an OTLP/HTTP metrics receiver: it decodes each request with
// the official protobuf types and keeps the data points by metric name and
// attributes, as a collector would.
type collector struct {
	mu     sync.Mutex
	points map[string][]*metrics.NumberDataPoint // name + attributes -> points in order
	kinds  map[string]string
	errs   []string
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	var req colmetrics.ExportMetricsServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &req)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil || r.URL.Path != "/v1/metrics" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		c.errs = append(c.errs, r.URL.Path+" "+r.Header.Get("Content-Type")+" "+errString(err))
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	for _, rm := range req.ResourceMetrics {
		if rm.Resource.Attributes[0].Value.GetStringValue() != "tsbench" {
			c.errs = append(c.errs, "resource "+rm.Resource.String())
		}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				var dps []*metrics.NumberDataPoint
				switch d := m.Data.(type) {
				case *metrics.Metric_Sum:
					c.kinds[m.Name] = "sum"
					if !d.Sum.IsMonotonic || d.Sum.AggregationTemporality != metrics.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
						c.errs = append(c.errs, m.Name+": not a cumulative monotonic sum")
					}
					dps = d.Sum.DataPoints
				case *metrics.Metric_Gauge:
					c.kinds[m.Name] = "gauge"
					dps = d.Gauge.DataPoints
				}
				for _, dp := range dps {
					key := m.Name
					for _, a := range dp.Attributes {
						key += "," + a.Key + "=" + a.Value.GetStringValue()
					}
					c.points[key] = append(c.points[key], dp)
				}
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&colmetrics.ExportMetricsServiceResponse{})
	w.Write(out)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A run exported over OTLP/HTTP arrives whole: counters as cumulative sums
// whose last points add up to the summary's totals, each second's p99 as
// stored.
func TestOTLP(t *testing.T) {
	c := &collector{points: map[string][]*metrics.NumberDataPoint{}, kinds: map[string]string{}}
	srv := httptest.NewServer(c)
	defer srv.Close()
	labels := outputtest.Labels(t)
	s, reports, err := outputtest.Run(t, 3*time.Second, labels, output.Options{Required: true},
		[]string{"otlp"}, []output.Receiver{otlp.New(srv.URL+"/v1/metrics", "test")})
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.errs) > 0 {
		t.Fatalf("receiver: %v", c.errs)
	}
	if reports[0].Sent != int64(len(s.Intervals)) {
		t.Fatalf("report %+v, %d seconds", reports[0], len(s.Intervals))
	}
	if c.kinds[output.MetricOperations] != "sum" || c.kinds[output.MetricLatency] != "gauge" {
		t.Errorf("kinds %v", c.kinds)
	}
	base := ",phase=measure,run_id=" + labels.RunID + ",target=null,worker=0"
	var ops int64
	for _, o := range s.Operations {
		pts := c.points[output.MetricOperations+",operation="+o.Name+base]
		if len(pts) == 0 {
			t.Errorf("%s: no points", o.Name)
			continue
		}
		last := pts[len(pts)-1]
		ops += last.GetAsInt()
		if last.StartTimeUnixNano == 0 || last.StartTimeUnixNano >= last.TimeUnixNano {
			t.Errorf("%s: start %d, time %d", o.Name, last.StartTimeUnixNano, last.TimeUnixNano)
		}
		want := outputtest.P99s(s, o.Name)
		// Attributes are sorted by name: quantile comes after phase.
		p99 := c.points[output.MetricLatency+",operation="+o.Name+",phase=measure,quantile=0.99,run_id="+labels.RunID+",target=null,worker=0"]
		exported := make([]float64, len(p99))
		for i, p := range p99 {
			exported[i] = p.GetAsDouble()
		}
		outputtest.CheckP99s(t, o.Name, exported, want)
	}
	want, _, _ := outputtest.Totals(s)
	if ops != want {
		t.Errorf("exported %d operations, the summary has %d", ops, want)
	}
}

// The request written by hand is byte for byte what the official
// ExportMetricsServiceRequest type marshals, and decodes back to the
// resource it holds.
func TestEncodeIsTheRequestType(t *testing.T) {
	batch := []*output.Sample{{Time: time.Unix(1700000000, 0), T: 2, Seconds: 1, Labels: output.Labels{RunID: "r1", Target: "null"},
		Ops: []output.Op{{Name: "INGESTION", OKOps: 5, OKPoints: 50, P99: 0.01}}}}
	got, err := otlp.Encode(batch, "v1")
	if err != nil {
		t.Fatal(err)
	}
	rm := otlp.Resource(batch, "v1")
	want, err := proto.Marshal(&colmetrics.ExportMetricsServiceRequest{ResourceMetrics: []*metrics.ResourceMetrics{rm}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("encoded %x, the request type marshals %x", got, want)
	}
	var req colmetrics.ExportMetricsServiceRequest
	if err := proto.Unmarshal(got, &req); err != nil || len(req.ResourceMetrics) != 1 || !proto.Equal(req.ResourceMetrics[0], rm) {
		t.Fatalf("decoded %v (%v), want %v", &req, err, rm)
	}
}
