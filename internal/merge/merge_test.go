package merge

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
)

// share is one worker's run built from its latency samples (µs), as the
// runner would record them.
func share(index, workers int, start time.Time, samples []int64) *summary.Summary {
	h := metrics.NewHistogram()
	var sum, lo, hi int64 = 0, math.MaxInt64, 0
	for _, us := range samples {
		h.RecordValue(us)
		sum += us * 1000
		lo, hi = min(lo, us*1000), max(hi, us*1000)
	}
	n := int64(len(samples))
	op := summary.Operation{Name: "INGESTION", OKOperations: n, OKPoints: 10 * n,
		LatencyMS: metrics.Percentiles(h, n, sum, lo, hi), Histogram: metrics.Encode(h)}
	return &summary.Summary{SchemaVersion: summary.SchemaVersion, RunID: "w" + string(rune('0'+index)), Target: "postgres",
		Started: start, MeasureStarted: start, Elapsed: 2, StopReason: "loop",
		Worker:     &summary.Worker{Group: "g", Index: index, Workers: workers},
		Operations: []summary.Operation{op},
		Verify:     &summary.Verify{ExpectedPoints: 10 * n, StoredPoints: 10 * n, OK: true}}
}

// The merged histogram is, bucket for bucket, the histogram of every
// worker's samples together, and its percentiles are that histogram's;
// MIN, MAX and AVG are exact.
func TestHistogramsAddExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	all := metrics.NewHistogram()
	var runs []*summary.Summary
	var sum, lo, hi, n int64 = 0, math.MaxInt64, 0, 0
	for w := 0; w < 3; w++ {
		var samples []int64
		for i := 0; i < 2000+w*500; i++ {
			// Workers differ in their latencies: averaging their
			// percentiles would be wrong, adding histograms is not.
			us := int64(100+rng.ExpFloat64()*float64(500*(w+1))) + 1
			samples = append(samples, us)
			all.RecordValue(us)
			sum, lo, hi, n = sum+us*1000, min(lo, us*1000), max(hi, us*1000), n+1
		}
		runs = append(runs, share(w, 3, start.Add(time.Duration(w)*time.Millisecond), samples))
		runs[w].Verify.InDoubtPoints = int64(10 * w) // the workers' writes in doubt add up
	}
	m, err := Runs(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := m.Op("INGESTION")
	got, err := metrics.Decode(op.Histogram)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(metrics.Buckets(got), metrics.Buckets(all)) || got.TotalCount() != n {
		t.Fatalf("merged histogram (%d values) differs from the samples' (%d)", got.TotalCount(), n)
	}
	want := metrics.Percentiles(all, n, sum, lo, hi)
	if math.Abs(op.LatencyMS.Avg-want.Avg) > 1e-9 || op.LatencyMS.Min != want.Min || op.LatencyMS.Max != want.Max ||
		op.LatencyMS.P99 != want.P99 || op.LatencyMS.P50 != want.P50 || op.LatencyMS.P999 != want.P999 {
		t.Fatalf("merged latency %+v, want %+v", op.LatencyMS, want)
	}
	if op.OKOperations != n || op.OKPoints != 10*n || m.Verify.ExpectedPoints != 10*n || !m.Verify.OK || m.Verify.InDoubtPoints != 30 {
		t.Fatalf("counts: %+v, verify %+v", op, m.Verify)
	}
	if !m.Merge.Complete() || len(m.Merge.Runs) != 3 || m.Merge.Runs[2].OffsetMS != 2 {
		t.Fatalf("provenance %+v", m.Merge)
	}
	// Throughput is over the merged span: from the first start to the
	// last end (2 s + 2 ms).
	if wantT := float64(10*n) / 2.002; math.Abs(op.Throughput-wantT) > 1e-6 {
		t.Fatalf("throughput %v, want %v", op.Throughput, wantT)
	}
}

// Per-second series align by wall-clock second: an interval joins the
// merged second in which it began.
func TestIntervalsAlignByWallClock(t *testing.T) {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a := share(0, 2, start, []int64{100})
	b := share(1, 2, start.Add(1300*time.Millisecond), []int64{200})
	hist := func(us int64) string {
		h := metrics.NewHistogram()
		h.RecordValue(us)
		return metrics.Encode(h)
	}
	iv := func(t0 float64, ops, us int64) summary.Interval {
		return summary.Interval{Start: t0, Seconds: 1, Ops: []summary.IntervalOp{{Name: "INGESTION", OKOps: ops, Histogram: hist(us)}}}
	}
	a.Intervals = []summary.Interval{iv(0, 1, 100), iv(1, 2, 100), iv(2, 3, 100)}
	b.Intervals = []summary.Interval{iv(0, 10, 5000), iv(1, 20, 5000)} // at 1.3 s and 2.3 s
	m, err := Runs([]*summary.Summary{b, a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, iv := range m.Intervals {
		got = append(got, iv.Ops[0].OKOps)
	}
	if !slices.Equal(got, []int64{1, 12, 23}) {
		t.Fatalf("merged seconds hold %v operations, want [1 12 23]", got)
	}
	if p99 := m.Intervals[1].Ops[0].P99MS; p99 < 4.9 || p99 > 5.1 {
		t.Fatalf("second 1's p99 %v ms: it comes from the merged histogram (10 of 12 at 5 ms)", p99)
	}
	if m.Elapsed < 3.29 || m.Elapsed > 3.31 {
		t.Fatalf("elapsed %v, want 3.3 s (first start to last end)", m.Elapsed)
	}
}

// A worker that never finished, or left no run, makes the merge
// incomplete, naming it; the finished shares are still added up.
func TestMissingWorkersAreNamed(t *testing.T) {
	start := time.Now()
	killed := share(1, 4, start, []int64{100})
	killed.StopReason = "incomplete" // what the store says of a run whose process died
	runs := []*summary.Summary{share(0, 4, start, []int64{100, 200}), killed, share(3, 4, start, []int64{300})}
	m, err := Runs(runs, Options{Registered: []int{0, 1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Merge.Missing, []int{1, 2}) || m.Status() != "incomplete" {
		t.Fatalf("missing %v, status %s", m.Merge.Missing, m.Status())
	}
	text := strings.Join(m.Merge.Problems, "\n")
	for _, want := range []string{"worker 1 (run w1", "did not finish", "worker 2 registered at the barrier but left no run"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
	if m.Op("INGESTION").OKOperations != 3 {
		t.Fatalf("the finished shares hold 3 operations, merged %d", m.Op("INGESTION").OKOperations)
	}
}

func TestRefusesRunsThatAreNotOneGroup(t *testing.T) {
	start := time.Now()
	mk := func(edit func(*summary.Summary)) []*summary.Summary {
		a, b := share(0, 2, start, []int64{1}), share(1, 2, start, []int64{1})
		edit(b)
		return []*summary.Summary{a, b}
	}
	cases := []struct {
		name string
		runs []*summary.Summary
		want string
	}{
		{"no runs", nil, "no runs"},
		{"not a worker", mk(func(s *summary.Summary) { s.Worker = nil }), "not a worker's run"},
		{"other group", mk(func(s *summary.Summary) { s.Worker.Group = "h" }), `of group "h"`},
		{"other target", mk(func(s *summary.Summary) { s.Target = "mysql" }), "ran mysql"},
		{"same index", mk(func(s *summary.Summary) { s.Worker.Index = 0 }), "both worker 0"},
		{"other size", mk(func(s *summary.Summary) { s.Worker.Workers = 3 }), "one of 3 workers"},
		{"bad histogram", mk(func(s *summary.Summary) { s.Operations[0].Histogram = "bm90IGEgaGlzdG9ncmFt" }), "INGESTION"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Runs(c.runs, Options{})
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrInput mentioning %q", err, c.want)
			}
		})
	}
}

// The merged tool cost adds the workers' CPU, and relates the measured
// part to the points when every worker kept it, the whole processes' CPU
// when one did not.
func TestToolCostAdds(t *testing.T) {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		name           string
		measured       [2]float64
		wantMeasured   float64
		wantPerMillion float64
	}{
		{"both measured", [2]float64{0.5, 0.7}, 1.2, 1.2 / 0.02},
		{"one without", [2]float64{0.5, 0}, 0, 5.0 / 0.02},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var runs []*summary.Summary
			for w := range 2 {
				s := share(w, 2, start, make([]int64, 1000)) // 10,000 points each
				s.Tool = summary.Tool{CPUSeconds: 2 + float64(w), MeasuredCPUSeconds: c.measured[w]}
				runs = append(runs, s)
			}
			m, err := Runs(runs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Tool.CPUSeconds != 5 || math.Abs(m.Tool.MeasuredCPUSeconds-c.wantMeasured) > 1e-12 ||
				math.Abs(m.Tool.CPUSecondsPerMillionPoints-c.wantPerMillion) > 1e-9 {
				t.Errorf("tool %+v; want 5 CPU s, %v measured, %v per million points", m.Tool, c.wantMeasured, c.wantPerMillion)
			}
		})
	}
}

// A merged run lists its stalls by the stall keys its workers ran with
// (read back from their stored configuration): a two-second dip is a
// stall under STALL_MIN=2s, and none under the default 3s.
func TestMergedStallsUseTheWorkersKeys(t *testing.T) {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	var ivs []summary.Interval
	for i, n := range []int64{100, 100, 100, 100, 1, 1, 100, 100, 100, 100} {
		ivs = append(ivs, summary.Interval{Start: float64(i), Seconds: 1, Ops: []summary.IntervalOp{{Name: "INGESTION", OKOps: n}}})
	}
	for _, c := range []struct {
		stallMin string
		want     int
	}{{"2s", 1}, {"", 0}} {
		cfg := config.Default()
		if c.stallMin != "" {
			if err := config.Set(cfg, "STALL_MIN", c.stallMin); err != nil {
				t.Fatal(err)
			}
		}
		a := share(0, 1, start, []int64{100})
		a.Config, a.Intervals = config.Map(cfg), ivs
		m, err := Runs([]*summary.Summary{a}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Stalls) != c.want {
			t.Errorf("STALL_MIN %q: %d stalls %+v, want %d", c.stallMin, len(m.Stalls), m.Stalls, c.want)
		}
	}
}

// The merged run keeps the freshness probe's account of the worker that
// ran it (the first: the only one that probes).
func TestMergedRunKeepsTheFreshnessProbe(t *testing.T) {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, b := share(0, 2, start, []int64{100}), share(1, 2, start, []int64{100})
	a.Freshness = &summary.Freshness{Database: "test_freshness", Written: 30, Visible: 30}
	m, err := Runs([]*summary.Summary{b, a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Freshness != a.Freshness {
		t.Errorf("merged freshness %+v, want the first worker's", m.Freshness)
	}
}

// The answers each worker checked stay in the merged run: the prometheus
// workload's worker 0 asks the read load of every worker's samples, and a
// wrong answer among them makes the merged run a mismatch.
func TestMergedRunKeepsTheAnswersChecked(t *testing.T) {
	start := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	runs := []*summary.Summary{share(0, 2, start, []int64{100, 200}), share(1, 2, start, []int64{150})}
	runs[0].Verify.Queries = []summary.QueryCheck{{Query: "job:up:sum", OK: true, Digest: "00000000000000aa"},
		{Query: "NodeLoadHigh", Detail: "1 of 16 answers differ from the model's"}}
	runs[1].Verify.QueriesSkipped = "worker 0 of the group asks the read load, once every worker has written"
	runs[0].RemoteWrite = &summary.RemoteWrite{Version: "2.0", Requests: 3, Samples: 300, Bytes: 3000, BytesPerSample: 10}
	runs[1].RemoteWrite = &summary.RemoteWrite{Version: "2.0", Requests: 1, Samples: 100, Bytes: 2000, BytesPerSample: 20}
	m, err := Runs(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Verify.Queries) != 2 || m.Verify.Queries[0].Digest != "00000000000000aa" || !m.Verify.Mismatch() {
		t.Fatalf("merged checks %+v (mismatch %v), want worker 0's two, one wrong", m.Verify.Queries, m.Verify.Mismatch())
	}
	if rw := m.RemoteWrite; rw == nil || *rw != (summary.RemoteWrite{Version: "2.0", Requests: 4, Samples: 400, Bytes: 5000, BytesPerSample: 12.5}) {
		t.Errorf("merged remote write %+v, want the workers' sums", rw)
	}
}

// The workers' series counts add up when every worker counted its own,
// and are left out when one did not: a part would read as the whole.
func TestMergedSeriesCounts(t *testing.T) {
	start := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name             string
		second           int64 // the second worker's series, counted and expected
		expected, stored int64
	}{
		{"both counted", 40, 70, 70},
		{"one did not", 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			runs := []*summary.Summary{share(0, 2, start, []int64{100}), share(1, 2, start, []int64{150})}
			runs[0].Verify.ExpectedSeries, runs[0].Verify.StoredSeries = 30, 30
			runs[1].Verify.ExpectedSeries, runs[1].Verify.StoredSeries = c.second, c.second
			m, err := Runs(runs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v := m.Verify; v.ExpectedSeries != c.expected || v.StoredSeries != c.stored {
				t.Errorf("merged series %d of %d, want %d of %d", v.StoredSeries, v.ExpectedSeries, c.stored, c.expected)
			}
		})
	}
}

// The workers' client waits merge as their latencies do, histogram by
// histogram, and the merged run keeps the clock that ended them.
func TestClientWaitsAddExactly(t *testing.T) {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	all := metrics.NewHistogram()
	var runs []*summary.Summary
	var sum, lo, hi, n int64 = 0, math.MaxInt64, 0, 0
	for w := 0; w < 2; w++ {
		s := share(w, 2, start, []int64{100, 200, 300})
		s.LatencyClock = "each answer's arrival"
		h := metrics.NewHistogram()
		var ws, wlo, whi int64 = 0, math.MaxInt64, 0
		waits := []int64{5, 7, 900 * int64(w+1)} // µs; fewer than its operations: not every answer was stamped
		for _, us := range waits[:2+w] {
			h.RecordValue(us)
			all.RecordValue(us)
			ws, wlo, whi = ws+us*1000, min(wlo, us*1000), max(whi, us*1000)
		}
		sum, lo, hi, n = sum+ws, min(lo, wlo), max(hi, whi), n+h.TotalCount()
		l := metrics.Percentiles(h, h.TotalCount(), ws, wlo, whi)
		s.Operations[0].ClientWaitMS, s.Operations[0].ClientWaitHistogram = &l, metrics.Encode(h)
		runs = append(runs, s)
	}
	m, err := Runs(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := m.Op("INGESTION")
	want := metrics.Percentiles(all, n, sum, lo, hi)
	var got summary.Latency
	if op.ClientWaitMS != nil {
		got = *op.ClientWaitMS
		got.Avg = want.Avg // the mean adds up from each worker's rounded one
	}
	if op.ClientWaitMS == nil || got != want || math.Abs(op.ClientWaitMS.Avg-want.Avg) > 1e-6 || m.LatencyClock != "each answer's arrival" {
		t.Fatalf("merged client wait %+v, clock %q; want %+v (%d waits)", op.ClientWaitMS, m.LatencyClock, want, n)
	}
	if got, err := metrics.Decode(op.ClientWaitHistogram); err != nil || got.TotalCount() != n {
		t.Fatalf("merged client wait histogram: %v, %v", got, err)
	}
}

// A TPC-C run's workers merge to one tpmC: the New-Orders of all over the
// merged measured phase (not a sum of the workers' rates); their counters
// and New-Order checks add up, and the consistency conditions are worker
// 0's, who checked them once every worker had ended.
func TestTPCCWorkersMergeToOneTpmC(t *testing.T) {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	conditions := []summary.TPCCCheck{{Number: 1, Condition: "W_YTD = sum(D_YTD)", OK: true}}
	var runs []*summary.Summary
	for w := 0; w < 2; w++ {
		s := share(w, 2, start.Add(time.Duration(w)*time.Second), []int64{100, 200, 300}) // worker 1 starts and ends 1 s later
		s.Operations[0].Name = summary.NewOrderRow
		s.Operations[0].OKOperations = int64(600 * (w + 1))
		s.Elapsed = 60
		s.TPCC = &summary.TPCC{Warehouses: 4, Terminals: 2 + w, Rollbacks: int64(3 + w), Reconnects: int64(w), ServerCores: 2,
			Load:      summary.TPCCLoad{Loaded: w == 0, Rows: 1000},
			NewOrders: &summary.TPCCNewOrders{Committed: int64(600 * (w + 1)), Found: int64(600 * (w + 1))}}
		if w == 0 {
			s.TPCC.Consistency = conditions
		} else {
			s.TPCC.ConsistencyBy = "worker 0"
		}
		runs = append(runs, s)
	}
	m, err := Runs(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tp := m.TPCC
	if tp == nil {
		t.Fatal("the merged run has no TPC-C section")
	}
	// 1,800 New-Orders in the 61 s from the first start to the last end.
	if want := 1800 / (61.0 / 60); m.Elapsed != 61 || math.Abs(tp.TpmC-want) > 1e-9 || math.Abs(tp.TpmCPerCore-want/2) > 1e-9 {
		t.Errorf("elapsed %v s, tpmC %v (per core %v); want 61 s, %v", m.Elapsed, tp.TpmC, tp.TpmCPerCore, want)
	}
	if tp.Terminals != 5 || tp.Warehouses != 4 || tp.Rollbacks != 7 || tp.Reconnects != 1 || !tp.Load.Loaded {
		t.Errorf("merged counters %+v", tp)
	}
	if n := tp.NewOrders; n == nil || n.Committed != 1800 || n.Found != 1800 || n.Lost != 0 {
		t.Errorf("merged New-Order check %+v", tp.NewOrders)
	}
	if !slices.Equal(tp.Consistency, conditions) || tp.ConsistencyBy != "" || !tp.Consistent() || m.Status() != summary.StatusOK {
		t.Errorf("merged consistency %+v (by %q), status %s", tp.Consistency, tp.ConsistencyBy, m.Status())
	}
	// Without worker 0's run, nobody checked them: the merge is not consistent.
	m, err = Runs(runs[1:], Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.TPCC.Consistent() {
		t.Errorf("merged without worker 0: consistent %+v", m.TPCC)
	}
}
