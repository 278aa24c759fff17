package metrics

import (
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/workload"
)

// The phase's histograms, built by the collector from what clients hand
// over each second (and, by Operations, from what came after the last
// Snapshot), hold every value once: the same percentiles as one histogram
// of everything, for latency and, in the open model, service time.
func TestPhaseHistogramsFromSnapshots(t *testing.T) {
	start := time.Now()
	r := NewRun(3, true, start)
	lat, svc := NewHistogram(), NewHistogram()
	minSvc, maxSvc := time.Hour, time.Duration(0)
	n := 0
	for sec := 0; sec < 4; sec++ {
		for i := 0; i < 500; i++ {
			l := time.Duration(1+n%997) * 37 * time.Microsecond
			s := l / 3
			r.Client(n%3).Record(Kind(workload.Write), 1, l, s)
			lat.RecordValue(micros(l))
			svc.RecordValue(micros(s))
			minSvc, maxSvc = min(minSvc, s), max(maxSvc, s)
			n++
		}
		if sec < 3 { // the last second's values are left to Operations
			r.Snapshot(start.Add(time.Duration(sec+1) * time.Second))
		}
	}
	op := r.Operations(4 * time.Second)[0]
	h, err := Decode(op.Histogram)
	if err != nil {
		t.Fatalf("phase histogram: %v", err)
	}
	if h.TotalCount() != int64(n) {
		t.Fatalf("phase histogram: count %d, want %d", h.TotalCount(), n)
	}
	if got, want := op.LatencyMS.P99, ms(lat.ValueAtQuantile(99)); got != want {
		t.Fatalf("latency p99 %v, one histogram of everything %v", got, want)
	}
	if op.ServiceMS == nil {
		t.Fatal("open model: no service-time row")
	}
	if got, want := op.ServiceMS.P50, ms(svc.ValueAtQuantile(50)); got != want {
		t.Fatalf("service p50 %v, one histogram of everything %v", got, want)
	}
	if op.ServiceMS.Min != float64(minSvc)/1e6 || op.ServiceMS.Max != float64(maxSvc)/1e6 {
		t.Fatalf("service min/max %v/%v, want exact %v/%v", op.ServiceMS.Min, op.ServiceMS.Max, minSvc, maxSvc)
	}
}

// A latency buffer does not keep the capacity of one busy second for the
// rest of the run: after a few quiet seconds the client and the spare hold
// buffers sized to what is recorded now.
func TestRecycledBuffersShrink(t *testing.T) {
	start := time.Now()
	r := NewRun(1, false, start)
	c := r.Client(0)
	op := Kind(workload.Write)
	for i := 0; i < 10_000; i++ {
		c.Record(op, 1, time.Millisecond, 0)
	}
	r.Snapshot(start.Add(time.Second))
	for sec := 2; sec <= 6; sec++ {
		for i := 0; i < 10; i++ {
			c.Record(op, 1, time.Millisecond, 0)
		}
		r.Snapshot(start.Add(time.Duration(sec) * time.Second))
	}
	held := cap(c.interval.latencies[op]) + cap(r.spare.latencies[op])
	if held > 1000 {
		t.Fatalf("buffers hold %d entries after quiet seconds of 10 operations", held)
	}
}
