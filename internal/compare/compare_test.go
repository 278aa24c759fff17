package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

func TestStudentTwoSided(t *testing.T) {
	cases := []struct{ t, df, p float64 }{
		{2.228138852, 10, 0.05}, // the table's 97.5 % quantile
		{1.959963985, 1e7, 0.05},
		{2.0, 10, 0.0733880},
		{0, 5, 1},
		{63.65674, 1, 0.01},
	}
	for _, c := range cases {
		if got := StudentTwoSided(c.t, c.df); math.Abs(got-c.p) > 1e-5 {
			t.Errorf("StudentTwoSided(%v, %v) = %v, want %v", c.t, c.df, got, c.p)
		}
	}
}

func TestWelchT(t *testing.T) {
	// Welch's example (Wikipedia, "Welch's t-test", example 1): t = -2.46,
	// df = 25.0, p = 0.021.
	a := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	b := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	tt, df, p := WelchT(a, b)
	if math.Abs(tt+2.46) > 0.01 || math.Abs(df-25.0) > 0.1 || math.Abs(p-0.021) > 0.001 {
		t.Errorf("WelchT = %.3f, %.2f, %.4f; want -2.46, 25.0, 0.021", tt, df, p)
	}
	if _, _, p := WelchT([]float64{5, 5, 5}, []float64{5, 5}); p != 1 {
		t.Errorf("no spread, same mean: p = %v", p)
	}
	if _, _, p := WelchT([]float64{5, 5, 5}, []float64{6, 6}); p != 0 {
		t.Errorf("no spread, different means: p = %v", p)
	}
}

func synthetic(id string, seed uint64, opsPerSec int, latency time.Duration) *summary.Summary {
	return resultstest.Summary(resultstest.Run{ID: id, Seconds: 20, Seed: seed, Ops: []resultstest.Op{
		{Op: workload.Write, OpsPerSec: opsPerSec, Points: 100, Latency: latency, RateNoise: 0.05},
		{Op: 2, OpsPerSec: 40, Points: 10, Latency: 4 * time.Millisecond, RateNoise: 0.05},
	}})
}

func find(t *testing.T, p Pair, op, metric string) Metric {
	t.Helper()
	for _, o := range p.Operations {
		if o.Name != op {
			continue
		}
		for _, m := range o.Metrics {
			if m.Name == metric {
				return m
			}
		}
	}
	t.Fatalf("no %s %s in %+v", op, metric, p)
	return Metric{}
}

func TestClearDifferenceIsSignificant(t *testing.T) {
	a := synthetic("A", 1, 200, 2*time.Millisecond)
	b := synthetic("B", 2, 300, time.Millisecond) // 1.5x throughput, half the latency
	res := Compare(a, []*summary.Summary{b}, 0)
	p := res.Pairs[0]
	tp := find(t, p, "INGESTION", "throughput")
	if !tp.Significant || tp.Verdict != "better" || math.Abs(tp.Ratio-1.5) > 0.05 || tp.N1 != 20 || tp.N2 != 20 {
		t.Errorf("throughput: %+v", tp)
	}
	for _, m := range []string{"p50", "p99"} {
		if l := find(t, p, "INGESTION", m); !l.Significant || l.Verdict != "better" || l.Ratio > 0.6 {
			t.Errorf("%s: %+v", m, l)
		}
	}
	if mx := find(t, p, "INGESTION", "max"); mx.Significant || mx.PValue != nil {
		t.Errorf("max is never tested: %+v", mx)
	}
	// The unchanged query operation is not flagged.
	for _, m := range []string{"throughput", "p50", "p99"} {
		if q := find(t, p, "TIME_RANGE", m); q.Significant || q.PValue == nil {
			t.Errorf("unchanged TIME_RANGE %s flagged: %+v", m, q)
		}
	}
	// Swapped, the same difference is "worse".
	if w := find(t, Compare(b, []*summary.Summary{a}, 0).Pairs[0], "INGESTION", "throughput"); !w.Significant || w.Verdict != "worse" {
		t.Errorf("swapped: %+v", w)
	}
}

func TestNoiseIsNotSignificant(t *testing.T) {
	// Twenty pairs of runs of the same workload that differ only by noise:
	// at alpha 0.05 about one pair in twenty may be flagged by chance.
	flagged := 0
	for seed := uint64(10); seed < 30; seed++ {
		a := synthetic("A", seed, 200, 2*time.Millisecond)
		b := synthetic("B", seed+100, 200, 2*time.Millisecond)
		m := find(t, Compare(a, []*summary.Summary{b}, 0).Pairs[0], "INGESTION", "throughput")
		if m.Ratio < 0.9 || m.Ratio > 1.1 {
			t.Fatalf("noise moved throughput by %v", m.Ratio)
		}
		if m.Significant {
			flagged++
		}
	}
	if flagged > 3 {
		t.Errorf("%d of 20 noise-only pairs flagged significant", flagged)
	}
}

func TestTooFewSecondsNotTested(t *testing.T) {
	a := resultstest.Summary(resultstest.Run{ID: "A", Seconds: 1, Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 100, Points: 1, Latency: time.Millisecond}}})
	b := resultstest.Summary(resultstest.Run{ID: "B", Seconds: 1, Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 900, Points: 1, Latency: time.Millisecond}}})
	m := find(t, Compare(a, []*summary.Summary{b}, 0).Pairs[0], "INGESTION", "throughput")
	if m.Significant || m.PValue != nil || m.Verdict != VerdictTooShort || !strings.Contains(m.Test, "fewer than 2") {
		t.Errorf("one-second runs: %+v", m)
	}
}

func TestMissingOperationAndOutput(t *testing.T) {
	a := synthetic("A", 1, 200, 2*time.Millisecond)
	b := resultstest.Summary(resultstest.Run{ID: "B", Seconds: 20, Seed: 3, Ops: []resultstest.Op{
		{Op: workload.Write, OpsPerSec: 300, Points: 100, Latency: time.Millisecond, RateNoise: 0.05}}})
	res := Compare(a, []*summary.Summary{b, a}, 0.01)
	var buf bytes.Buffer
	if err := res.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Baseline (A): A", "B: B", "C: A", "INGESTION", "throughput (points/s)", "* better", "TIME_RANGE", "not in B", "p < 0.01"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(js, &back); err != nil || len(back.Pairs) != 2 || back.Pairs[0].Operations[1].Missing != "run" {
		t.Fatalf("JSON round trip: %v %s", err, js)
	}
}

// ar1 is n values of a first-order autoregressive series around mean:
// each value keeps phi of the last one's deviation, as a slowly wandering
// per-second throughput does.
func ar1(rng *rand.Rand, n int, mean, phi, sd float64) []float64 {
	out := make([]float64, n)
	dev := rng.NormFloat64() * sd / math.Sqrt(1-phi*phi) // start in the stationary state
	for i := range out {
		dev = phi*dev + rng.NormFloat64()*sd
		out[i] = mean + dev
	}
	return out
}

func TestEffectiveN(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	white := ar1(rng, 4000, 100, 0, 1)
	wandering := ar1(rng, 4000, 100, 0.8, 1)
	alternating := make([]float64, 100)
	for i := range alternating {
		alternating[i] = float64(i % 2)
	}
	cases := []struct {
		name   string
		xs     []float64
		lo, hi float64
	}{
		{"independent", white, 3500, 4000},
		{"phi 0.8: n(1-0.8)/(1+0.8) = 444", wandering, 380, 520},
		{"negative correlation counts as none", alternating, 100, 100},
		{"constant", []float64{5, 5, 5, 5}, 4, 4},
		{"two values", []float64{1, 2}, 2, 2},
		{"a straight line is worth at least 2", []float64{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4},
	}
	for _, c := range cases {
		if got := EffectiveN(c.xs); got < c.lo || got > c.hi {
			t.Errorf("%s: EffectiveN = %.1f, want [%v, %v]", c.name, got, c.lo, c.hi)
		}
	}
}

// Pairs of wandering series with the same mean: taking their seconds as
// independent, Welch's test calls many of them different; counted by
// their effective number, about alpha of them are.
func TestAutocorrelatedNoiseIsNotSignificant(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const pairs = 400
	plain, effective := 0, 0
	for range pairs {
		a, b := ar1(rng, 30, 1000, 0.8, 10), ar1(rng, 30, 1000, 0.8, 10)
		if _, _, p := WelchT(a, b); p < 0.05 {
			plain++
		}
		if _, _, p := WelchTEffective(a, b); p < 0.05 {
			effective++
		}
	}
	t.Logf("false alarms at alpha 0.05: plain Welch %d/%d, effective-n Welch %d/%d", plain, pairs, effective, pairs)
	if float64(effective) > 0.12*pairs || plain < 2*effective {
		t.Errorf("false alarms: plain %d, effective %d of %d pairs", plain, effective, pairs)
	}
	// A real shift of two standard deviations of the series (five of the
	// difference of two-minute means) is still found.
	found := 0
	for range 50 {
		a, b := ar1(rng, 120, 1000, 0.8, 10), ar1(rng, 120, 1000+2*10/math.Sqrt(1-0.64), 0.8, 10)
		if _, _, p := WelchTEffective(a, b); p < 0.05 {
			found++
		}
	}
	t.Logf("a shift of 2 series SDs found in %d of 50 two-minute pairs", found)
	if found < 40 {
		t.Errorf("a real shift found in %d of 50 pairs", found)
	}
}

// The too-short rule: a figure is tested only when both runs have at least
// MinEffectiveSeconds effective seconds; otherwise its verdict says so and
// it has no p-value (null in JSON), whatever the difference.
func TestTooShortToTell(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	white := func(n int, mean float64) []float64 { return ar1(rng, n, mean, 0, 1) }
	trend := func(n int, mean float64) []float64 { // a steady climb: worth 2 seconds however long
		out := make([]float64, n)
		for i := range out {
			out[i] = mean + float64(i)
		}
		return out
	}
	cases := []struct {
		name     string
		a, b     []float64
		tooShort bool
	}{
		{"one second each", white(1, 100), white(1, 900), true},
		{"three seconds: at most 3 effective", white(3, 100), white(3, 900), true},
		{"four seconds: at most 4 effective", white(4, 100), white(4, 900), true},
		{"long baseline, short run", white(30, 100), white(4, 900), true},
		{"twelve seconds of a trend count as 2", trend(12, 100), white(30, 900), true},
		{"thirty independent seconds each", white(30, 100), white(30, 900), false},
		{"constant series count in full", []float64{5, 5, 5, 5, 5, 5}, []float64{9, 9, 9, 9, 9, 9}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := metric("throughput", "points/s", 1, 2, true, c.a, c.b)
			p := Pair{Operations: []Operation{{Name: "INGESTION", Metrics: []Metric{m}}}}
			adjust(&p, DefaultAlpha)
			m = p.Operations[0].Metrics[0]
			if got := m.Verdict == VerdictTooShort; got != c.tooShort {
				t.Fatalf("verdict %q (effective seconds %.1f, %.1f), too short: want %v", m.Verdict, m.EffN1, m.EffN2, c.tooShort)
			}
			if c.tooShort != (m.PValue == nil) || (c.tooShort && m.Significant) {
				t.Errorf("p-value %v, significant %v", m.PValue, m.Significant)
			}
			js, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if c.tooShort && !strings.Contains(string(js), `"p_value":null`) {
				t.Errorf("JSON of a figure too short: %s", js)
			}
		})
	}
}

func TestTooShortBoundary(t *testing.T) {
	cases := []struct {
		n1, n2 float64
		want   bool
	}{
		{5, 5, false}, {4.99, 100, true}, {100, 4.99, true}, {2, 2, true}, {30, 5, false},
	}
	for _, c := range cases {
		if got := TooShort(c.n1, c.n2); got != c.want {
			t.Errorf("TooShort(%v, %v) = %v, want %v", c.n1, c.n2, got, c.want)
		}
	}
}

// A query's throughput is compared in queries per second, per run and per
// second, and printed so; a write's stays points per second.
func TestQueryThroughputIsQueriesPerSecond(t *testing.T) {
	a := synthetic("A", 1, 200, 2*time.Millisecond)
	b := synthetic("B", 2, 300, time.Millisecond)
	p := Compare(a, []*summary.Summary{b}, 0).Pairs[0]
	w, q := find(t, p, "INGESTION", "throughput"), find(t, p, "TIME_RANGE", "throughput")
	if w.Unit != "points/s" || math.Abs(w.Baseline-200*100) > 2000 {
		t.Errorf("INGESTION throughput %+v, want about 20,000 points/s", w)
	}
	// 40 queries a second, each answering 10 points.
	if q.Unit != "queries/s" || math.Abs(q.Baseline-40) > 4 || math.Abs(q.Value-40) > 4 || q.N1 == 0 {
		t.Errorf("TIME_RANGE throughput %+v, want about 40 queries/s", q)
	}
	var buf bytes.Buffer
	if err := Compare(a, []*summary.Summary{b}, 0).WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "| TIME_RANGE | throughput (queries/s) |") || strings.Contains(out, "TIME_RANGE | throughput (points/s)") {
		t.Errorf("markdown:\n%s", out)
	}
	for _, s := range Repetitions([]*summary.Summary{a, b}) {
		if want := map[string]string{"INGESTION": "points/s", "TIME_RANGE": "queries/s"}[s.Operation]; s.Metric == "throughput" && s.Unit != want {
			t.Errorf("repetitions: %s throughput in %s, want %s", s.Operation, s.Unit, want)
		}
	}
}
