package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/workload"
)

// Percentiles are ordered MIN <= P10 <= ... <= P999 <= MAX for any data,
// including skewed, bimodal and single-value distributions.
func TestPercentilesAlwaysOrdered(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dists := map[string]func() time.Duration{
		"single":    func() time.Duration { return 3 * time.Millisecond },
		"uniform":   func() time.Duration { return time.Duration(rng.Int64N(int64(50 * time.Millisecond))) },
		"bimodal":   func() time.Duration { return time.Duration(1+rng.IntN(2)*400) * time.Millisecond },
		"heavytail": func() time.Duration { return time.Duration(rng.ExpFloat64() * float64(time.Millisecond) * 10) },
		"sub-µs":    func() time.Duration { return time.Duration(rng.IntN(900)) },
	}
	for name, draw := range dists {
		for _, n := range []int{1, 2, 7, 1000} {
			r := NewRun(3, false, time.Now())
			for i := 0; i < n; i++ {
				r.Client(i%3).Record(Kind(workload.Write), 10, draw(), 0)
			}
			ops := r.Operations(time.Second)
			l := ops[0].LatencyMS
			seq := []float64{l.Min, l.P10, l.P25, l.P50, l.P75, l.P90, l.P95, l.P99, l.P999, l.Max}
			for i := 1; i < len(seq); i++ {
				if seq[i] < seq[i-1] {
					t.Fatalf("%s n=%d: percentiles out of order: %v", name, n, seq)
				}
			}
			if l.Avg < l.Min || l.Avg > l.Max {
				t.Fatalf("%s n=%d: avg %v outside [%v, %v]", name, n, l.Avg, l.Min, l.Max)
			}
		}
	}
}

// Merging per-client histograms gives the exact counts and the same
// percentiles as one histogram of everything.
func TestMergeAcrossClients(t *testing.T) {
	r := NewRun(4, false, time.Now())
	all := NewHistogram()
	var sum time.Duration
	for i := 1; i <= 4000; i++ {
		d := time.Duration(i) * 10 * time.Microsecond
		r.Client(i%4).Record(Kind(workload.Op(3)), 2, d, d)
		all.RecordValue(micros(d))
		sum += d
	}
	op := r.Operations(2 * time.Second)[0]
	if op.Name != "VALUE_RANGE" || op.OKOperations != 4000 || op.OKPoints != 8000 || op.Throughput != 4000 {
		t.Fatalf("row = %+v", op)
	}
	if got, want := op.LatencyMS.P99, float64(all.ValueAtQuantile(99))/1000; got != want {
		t.Fatalf("merged p99 %v, single histogram %v", got, want)
	}
	if got, want := op.LatencyMS.Avg, sum.Seconds()*1000/4000; got != want {
		t.Fatalf("avg %v, want exact %v", got, want)
	}
	if op.LatencyMS.Min != 0.01 || op.LatencyMS.Max != 40 {
		t.Fatalf("min/max %v/%v, want exact 0.01/40", op.LatencyMS.Min, op.LatencyMS.Max)
	}
	// SLOWEST_THREAD is the largest per-client latency sum.
	var slowest float64
	for c := 0; c < 4; c++ {
		var s time.Duration
		for i := 1; i <= 4000; i++ {
			if i%4 == c {
				s += time.Duration(i) * 10 * time.Microsecond
			}
		}
		slowest = max(slowest, float64(s)/1e6)
	}
	if op.SlowestThreadMS != slowest {
		t.Fatalf("slowest thread %v, want %v", op.SlowestThreadMS, slowest)
	}
	h, err := Decode(op.Histogram)
	if err != nil || h.TotalCount() != 4000 {
		t.Fatalf("encoded histogram: %v, count %d", err, h.TotalCount())
	}
}

// Failures are counted apart from successes, grouped by class, and never
// enter the latency figures.
func TestFailuresGroupedAndApart(t *testing.T) {
	r := NewRun(2, false, time.Now())
	c := r.Client(0)
	c.Record(Kind(workload.Write), 100, time.Millisecond, time.Millisecond)
	for i := 0; i < 3; i++ {
		c.Fail(Kind(workload.Write), 100, fmt.Errorf("dial tcp 127.0.0.1:%d: connection refused", 8000+i))
	}
	r.Client(1).Fail(Kind(workload.Write), 100, errors.New("server said: disk full"))
	r.Client(1).Unsupported(Kind(workload.Op(7)))
	ops := r.Operations(time.Second)
	w := ops[0]
	if w.OKOperations != 1 || w.FailOperations != 4 || w.FailPoints != 400 || w.OKPoints != 100 {
		t.Fatalf("write row %+v", w)
	}
	if w.LatencyMS.Max != 1 {
		t.Fatalf("failures leaked into latency: max %v", w.LatencyMS.Max)
	}
	if len(w.Failures) != 2 || w.Failures[0].Operations != 3 || w.Failures[0].Class != "dial tcp N.N.N.N:N: connection refused" {
		t.Fatalf("failure classes %+v", w.Failures)
	}
	if ops[1].Name != "GROUP_BY" || ops[1].Unsupported != 1 || ops[1].OKOperations != 0 {
		t.Fatalf("unsupported row %+v", ops[1])
	}
}

// Interval snapshots add up to the totals and report per-second figures.
func TestIntervals(t *testing.T) {
	start := time.Now()
	r := NewRun(2, false, start)
	r.Client(0).Record(Kind(workload.Write), 10, time.Millisecond, 0)
	r.Client(1).Record(Kind(workload.Write), 10, 2*time.Millisecond, 0)
	iv, tot := r.Snapshot(start.Add(time.Second))
	if len(iv.Ops) != 1 || iv.Ops[0].OKOps != 2 || iv.Ops[0].OKPoints != 20 || iv.Seconds != 1 {
		t.Fatalf("interval %+v", iv)
	}
	r.Client(0).Fail(Kind(workload.Write), 10, errors.New("x"))
	iv, tot = r.Snapshot(start.Add(2 * time.Second))
	if tot.OKOps != 2 || tot.FailOps != 1 || iv.Ops[0].FailOps != 1 || iv.Start != 1 {
		t.Fatalf("second interval %+v totals %+v", iv, tot)
	}
	if n := len(r.Intervals()); n != 2 {
		t.Fatalf("%d intervals", n)
	}
}

// Retries and points in doubt are counted in the second they were made in,
// as the live export shows them; a second with nothing else still carries
// them.
func TestIntervalRetriesInDoubt(t *testing.T) {
	start := time.Now()
	r := NewRun(2, false, start)
	a, b := r.Client(0), r.Client(1)
	a.Record(0, 10, time.Millisecond, 0)
	a.Retried(0, 2)
	b.Fail(0, 10, errors.New("i/o timeout"))
	b.Retried(0, 1)
	b.InDoubt(0, 30)
	iv, _ := r.Snapshot(start.Add(time.Second))
	if len(iv.Ops) != 1 || iv.Ops[0].Retries != 3 || iv.Ops[0].InDoubtPoints != 30 || iv.Ops[0].OKOps != 1 || iv.Ops[0].FailOps != 1 {
		t.Fatalf("first second %+v", iv.Ops)
	}
	a.Retried(0, 4) // after its operation's second closed
	iv, _ = r.Snapshot(start.Add(2 * time.Second))
	if len(iv.Ops) != 1 || iv.Ops[0].Retries != 4 || iv.Ops[0].OKOps != 0 || iv.Ops[0].InDoubtPoints != 0 {
		t.Fatalf("second second %+v", iv.Ops)
	}
	if ops := r.Operations(2 * time.Second); ops[0].Retries != 7 {
		t.Errorf("run's retries %d, want 7", ops[0].Retries)
	}
}

// The interval histograms hold every latency of their interval: decoded and
// added up they equal the run's merged histogram, so percentiles of any
// window can be recomputed from them.
func TestIntervalHistogramsAddUp(t *testing.T) {
	start := time.Now()
	r := NewRun(2, false, start)
	for sec := 0; sec < 3; sec++ {
		for i := 0; i < 50; i++ {
			r.Client(i%2).Record(Kind(workload.Write), 1, time.Duration(100+sec*1000+i*37)*time.Microsecond, 0)
		}
		r.Snapshot(start.Add(time.Duration(sec+1) * time.Second))
	}
	sum := NewHistogram()
	for i, iv := range r.Intervals() {
		h, err := Decode(iv.Ops[0].Histogram)
		if err != nil {
			t.Fatalf("interval %d: %v", i, err)
		}
		if h.TotalCount() != 50 || ms(h.Max()) != iv.Ops[0].MaxMS {
			t.Fatalf("interval %d: %d values, max %v (row says %v)", i, h.TotalCount(), ms(h.Max()), iv.Ops[0].MaxMS)
		}
		sum.Merge(h)
	}
	run, err := Decode(r.Operations(3 * time.Second)[0].Histogram)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Equals(sum) {
		t.Fatalf("intervals add up to %d values (p99 %d), the run holds %d (p99 %d)",
			sum.TotalCount(), sum.ValueAtQuantile(99), run.TotalCount(), run.ValueAtQuantile(99))
	}
}

// A run known only by its seconds gets matrices from them: counts add up,
// and the latency columns are those of the merged histogram.
func TestFromIntervals(t *testing.T) {
	start := time.Now()
	r := NewRun(1, false, start)
	for sec := 0; sec < 4; sec++ {
		for i := 1; i <= 100; i++ {
			r.Client(0).Record(Kind(workload.Write), 10, time.Duration(i*100)*time.Microsecond, 0)
		}
		r.Client(0).Fail(Kind(workload.Write), 10, errors.New("x"))
		r.Snapshot(start.Add(time.Duration(sec+1) * time.Second))
	}
	full := r.Operations(4 * time.Second)[0]
	got := FromIntervals(r.Intervals())
	if len(got) != 1 {
		t.Fatalf("%d rows", len(got))
	}
	g := got[0]
	if g.Name != "INGESTION" || g.OKOperations != 400 || g.OKPoints != 4000 || g.FailOperations != 4 || g.Throughput != 1000 {
		t.Fatalf("row %+v", g)
	}
	// Exact for the percentiles; within the histogram's resolution for
	// the extremes and the mean.
	if g.LatencyMS.P50 != full.LatencyMS.P50 || g.LatencyMS.P99 != full.LatencyMS.P99 {
		t.Errorf("percentiles %+v, finished run %+v", g.LatencyMS, full.LatencyMS)
	}
	for _, c := range [][2]float64{{g.LatencyMS.Min, full.LatencyMS.Min}, {g.LatencyMS.Max, full.LatencyMS.Max}, {g.LatencyMS.Avg, full.LatencyMS.Avg}} {
		if math.Abs(c[0]-c[1]) > c[1]*0.001+0.001 {
			t.Errorf("histogram figure %v, exact %v", c[0], c[1])
		}
	}
}

// Drains between snapshots change nothing: an interval drained several
// times holds the same counts and histogram as one taken whole, and the
// phase's rows count every operation once.
func TestDrainKeepsIntervalsWhole(t *testing.T) {
	start := time.Now()
	drained, whole := NewRun(2, true, start), NewRun(2, true, start)
	hist := NewHistogram()
	for sec := 1; sec <= 3; sec++ {
		for i := 1; i <= 400; i++ {
			d := time.Duration(sec*i) * time.Microsecond
			for _, r := range []*Run{drained, whole} {
				r.Client(i%2).Record(Kind(workload.Write), 5, d, d/2)
			}
			if sec < 3 {
				hist.RecordValue(micros(d))
			}
			if i%100 == 0 {
				drained.Drain()
			}
		}
		if sec == 3 {
			break // the third second's operations are in no interval
		}
		at := start.Add(time.Duration(sec) * time.Second)
		a, _ := drained.Snapshot(at)
		b, _ := whole.Snapshot(at)
		if len(a.Ops) != 1 || a.Ops[0].OKOps != 400 || a.Ops[0].OKPoints != 2000 {
			t.Fatalf("second %d drained: %+v", sec, a.Ops)
		}
		if a.Ops[0].Histogram != b.Ops[0].Histogram || a.Ops[0].P99MS != b.Ops[0].P99MS {
			t.Fatalf("second %d: drained interval differs from the whole one", sec)
		}
	}
	a, b := drained.Operations(3 * time.Second)[0], whole.Operations(3 * time.Second)[0]
	if a.OKOperations != 1200 || a.Histogram != b.Histogram || *a.ServiceMS != *b.ServiceMS {
		t.Fatalf("phase rows differ: drained %+v, whole %+v", a, b)
	}
	h, err := Decode(a.Histogram)
	if err != nil || h.TotalCount() != 1200 {
		t.Fatalf("phase histogram: %v, %d values, want 1200", err, h.TotalCount())
	}
	ivs := drained.Intervals()
	if len(ivs) != 2 {
		t.Fatalf("%d intervals, want 2", len(ivs))
	}
	merged := NewHistogram()
	for _, iv := range ivs {
		h, err := Decode(iv.Ops[0].Histogram)
		if err != nil {
			t.Fatal(err)
		}
		merged.Merge(h)
	}
	if !slices.Equal(Buckets(merged), Buckets(hist)) {
		t.Fatal("the drained intervals' histograms are not the first two seconds' latencies")
	}
}
