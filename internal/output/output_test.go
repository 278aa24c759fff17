package output_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/outputtest"
	"github.com/tsbench/tsbench/internal/summary"
)

// memory keeps what it is sent: the receiver side of the exporter's
// contract, with nothing behind it to stand in for.
type memory struct {
	mu      sync.Mutex
	samples []*output.Sample
	fail    error
}

func (m *memory) Send(_ context.Context, b []*output.Sample) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.samples = append(m.samples, b...)
	return nil
}

func (m *memory) Close(context.Context) error { return nil }

// stalled never answers: each Send waits until its deadline.
type stalled struct{ calls int }

func (s *stalled) Send(ctx context.Context, _ []*output.Sample) error {
	s.calls++
	<-ctx.Done()
	return ctx.Err()
}

func (s *stalled) Close(context.Context) error { return nil }

func histogram(t *testing.T, us ...int64) string {
	h := hdrhistogram.New(1, 3_600_000_000, 3)
	for _, v := range us {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	// As the runner keeps it (metrics.encode): Encode's base64 text,
	// base64-encoded again.
	return base64.StdEncoding.EncodeToString(b)
}

// Seconds become samples with cumulative totals and the second's
// percentiles; the last, partial second (handed over with the summary
// only) is exported by Finish.
func TestExporterSamples(t *testing.T) {
	var lat []int64
	for i := int64(1); i <= 1000; i++ {
		lat = append(lat, i*1000) // 1 ms .. 1 s
	}
	h := histogram(t, lat...)
	iv := func(start float64, ok, pts int64) summary.Interval {
		return summary.Interval{Start: start, Seconds: 1, Ops: []summary.IntervalOp{
			{Name: "INGESTION", OKOps: ok, OKPoints: pts, FailOps: 1, Retries: 2, InDoubtPoints: 5, P50MS: 500, P99MS: 990, MaxMS: 1000, Histogram: h}}}
	}
	m := &memory{}
	labels := output.Labels{RunID: "r1", Worker: "3", Target: "null", Phase: "measure"}
	e := output.New(labels, []string{"mem"}, []output.Receiver{m}, output.Options{})
	e.Resources(0, summary.ResourceSample{Tool: &summary.ProcessUsage{CPUPercent: 50, RSSBytes: 1 << 20}})
	e.Interval(0, iv(0, 10, 100))
	e.Interval(1, iv(1, 20, 200))
	s := &summary.Summary{MeasureStarted: time.Now(), Intervals: []summary.Interval{iv(0, 10, 100), iv(1, 20, 200), iv(2, 5, 50)}}
	reports, err := e.Finish(s)
	if err != nil || len(reports) != 1 || !reports[0].OK() || reports[0].Sent != 3 {
		t.Fatalf("Finish = %+v, %v", reports, err)
	}
	if len(m.samples) != 3 {
		t.Fatalf("%d samples, want 3", len(m.samples))
	}
	last := m.samples[2]
	o := last.Ops[0]
	if last.Seq != 2 || o.OKOpsTotal != 35 || o.OKPointsTotal != 350 || o.FailOpsTotal != 3 || o.OKOps != 5 ||
		o.Retries != 2 || o.RetriesTotal != 6 || o.InDoubtPoints != 5 || o.InDoubtTotal != 15 {
		t.Errorf("last sample %+v", last)
	}
	if o.P99 != 0.99 || o.P50 != 0.5 || o.Max != 1 || o.P90 < 0.899 || o.P90 > 0.901 || o.P999 < 0.999 || o.P999 > 1.001 {
		t.Errorf("latencies p50 %v p90 %v p99 %v p99.9 %v max %v", o.P50, o.P90, o.P99, o.P999, o.Max)
	}
	if m.samples[0].Resources == nil || m.samples[1].Resources != nil {
		t.Errorf("the resource sample rides with the next second only")
	}
	if !m.samples[1].Time.After(m.samples[0].Time) || !m.samples[2].Time.After(m.samples[1].Time) {
		t.Errorf("times out of order: %v %v %v", m.samples[0].Time, m.samples[1].Time, m.samples[2].Time)
	}
	pts := m.samples[0].Points()
	var quantiles []string
	for _, p := range pts {
		for _, l := range p.Labels {
			if p.Name == output.MetricLatency && l.Name == "quantile" {
				quantiles = append(quantiles, l.Value)
			}
		}
	}
	if strings.Join(quantiles, ",") != strings.Join(output.Quantiles, ",") {
		t.Errorf("latency quantiles %v, want %v", quantiles, output.Quantiles)
	}
	want := map[string]float64{output.MetricOperations: 10, output.MetricPoints: 100, "tsbench_tool_cpu_cores": 0.5,
		output.MetricRetries: 2, output.MetricInDoubtPoints: 5,
		"tsbench_tool_resident_memory_bytes": 1 << 20, output.MetricOpsPerSecond: 10}
	for _, p := range pts {
		if v, ok := want[p.Name]; ok {
			if p.Value != v {
				t.Errorf("%s = %v, want %v", p.Name, p.Value, v)
			}
			delete(want, p.Name)
		}
		if p.Name == output.MetricOperations && labelString(p.Labels) != "operation=INGESTION,phase=measure,run_id=r1,target=null,worker=3" {
			t.Errorf("labels %s", labelString(p.Labels))
		}
	}
	if len(want) > 0 {
		t.Errorf("missing series: %v", want)
	}
}

func labelString(ls []output.Label) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, l.Name+"="+l.Value)
	}
	return strings.Join(parts, ",")
}

// A receiver that never answers costs the run nothing: seconds are
// offered without waiting, those that do not fit its queue are dropped and
// counted, and Finish gives up on it after CloseTimeout. The other
// receiver gets every second.
func TestStalledReceiver(t *testing.T) {
	st := &stalled{}
	m := &memory{}
	e := output.New(output.Labels{RunID: "r"}, []string{"stalled", "mem"}, []output.Receiver{st, m},
		output.Options{Queue: 2, SendTimeout: time.Hour, CloseTimeout: 200 * time.Millisecond})
	begin := time.Now()
	var slowest time.Duration
	for i := 0; i < 10; i++ {
		t0 := time.Now()
		e.Interval(i, summary.Interval{Start: float64(i), Seconds: 1, Ops: []summary.IntervalOp{{Name: "INGESTION", OKOps: 1}}})
		slowest = max(slowest, time.Since(t0))
		time.Sleep(10 * time.Millisecond) // the memory receiver keeps up
	}
	if slowest > 20*time.Millisecond {
		t.Errorf("handing over a second took up to %v", slowest)
	}
	reports, err := e.Finish(nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("Finish took %v with a stalled receiver", d)
	}
	r := reports[0]
	// One sample is in the stalled send, two wait in the queue; seven
	// found it full. Those in the queue at the end are dropped too.
	if r.Sent != 0 || r.Dropped+r.Failed != 10 || r.Dropped < 7 {
		t.Errorf("stalled receiver's report %+v", r)
	}
	if !strings.Contains(r.String(), "dropped") {
		t.Errorf("report line %q says nothing of the drops", r.String())
	}
	if reports[1].Sent != 10 || !reports[1].OK() {
		t.Errorf("healthy receiver's report %+v", reports[1])
	}
}

// With Required, a receiver that failed fails the run, naming it.
func TestRequired(t *testing.T) {
	m := &memory{fail: errors.New("connection refused")}
	e := output.New(output.Labels{}, []string{"prometheus-rw=http://x"}, []output.Receiver{m}, output.Options{Required: true})
	e.Interval(0, summary.Interval{Seconds: 1})
	_, err := e.Finish(nil)
	if err == nil || !strings.Contains(err.Error(), "prometheus-rw=http://x") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("Finish error %v", err)
	}
	e = output.New(output.Labels{}, []string{"x"}, []output.Receiver{&memory{fail: errors.New("down")}}, output.Options{})
	e.Interval(0, summary.Interval{Seconds: 1})
	if reports, err := e.Finish(nil); err != nil || reports[0].Failed != 1 {
		t.Fatalf("without Required: %+v, %v", reports, err)
	}
}

// A real run of the null target: every second reaches the receiver, and the
// last sample's totals equal the summary's.
func TestRunTotals(t *testing.T) {
	m := &memory{}
	s, reports, err := outputtest.Run(t, 3*time.Second, outputtest.Labels(t), output.Options{}, []string{"mem"}, []output.Receiver{m})
	if err != nil || !reports[0].OK() {
		t.Fatalf("reports %+v, %v", reports, err)
	}
	if len(m.samples) != len(s.Intervals) {
		t.Fatalf("%d samples, %d intervals", len(m.samples), len(s.Intervals))
	}
	ops, pts, _ := outputtest.Totals(s)
	var gotOps, gotPts int64
	for _, o := range m.samples[len(m.samples)-1].Ops {
		gotOps += o.OKOpsTotal
		gotPts += o.OKPointsTotal
	}
	if ops == 0 || gotOps != ops || gotPts != pts {
		t.Errorf("exported %d operations, %d points; the summary has %d, %d", gotOps, gotPts, ops, pts)
	}
	// The percentiles come from each second's histogram, in order.
	n := 0
	for _, smp := range m.samples {
		for _, o := range smp.Ops {
			if !o.HasLatency() {
				continue
			}
			n++
			if o.P50 <= 0 || o.P50 > o.P90 || o.P90 > o.P99 || o.P99 > o.P999 || o.P999 > o.Max {
				t.Errorf("second %d %s: p50 %v p90 %v p99 %v p99.9 %v max %v", smp.Seq, o.Name, o.P50, o.P90, o.P99, o.P999, o.Max)
			}
		}
	}
	if n == 0 {
		t.Error("no second had latencies")
	}
}
