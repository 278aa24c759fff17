package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestTQuantile(t *testing.T) {
	// Student's t two-sided 95 % critical values, from the tables.
	for _, c := range []struct{ df, want float64 }{{1, 12.706}, {2, 4.303}, {4, 2.776}, {9, 2.262}, {30, 2.042}, {1000, 1.962}} {
		if got := TQuantile(0.95, c.df); math.Abs(got-c.want) > 0.001 {
			t.Errorf("t(0.95, %v) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
}

// runOf is a run whose INGESTION row has the throughput and p99 given.
func runOf(id string, tput, p99 float64) *summary.Summary {
	return &summary.Summary{RunID: id, Target: "sqlite", Operations: []summary.Operation{
		{Name: "INGESTION", OKOperations: 100, Throughput: tput, LatencyMS: summary.Latency{P50: p99 / 4, P99: p99}}}}
}

func runsOf(prefix string, tputs ...float64) []*summary.Summary {
	var out []*summary.Summary
	for i, v := range tputs {
		out = append(out, runOf(prefix+string(rune('0'+i)), v, 10))
	}
	return out
}

func TestRepetitions(t *testing.T) {
	sp := Repetitions(runsOf("r", 100, 110, 90, 100, 100))
	if len(sp) != 3 || sp[0].Metric != "throughput" {
		t.Fatalf("spreads %+v", sp)
	}
	tp := sp[0]
	// mean 100, sample std sqrt(50) = 7.071, CV 0.0707; on the logs of
	// 100, 110, 90, 100, 100: mean 4.60214, std 0.07136, so the interval is
	// exp(4.60214 ± 2.776 * 0.07136 / sqrt(5)): 91.378 .. 108.997, and a
	// ±5 % one needs n with t(n-1) * 0.07136 / sqrt(n) <= ln 1.05: 11.
	if tp.Mean != 100 || math.Abs(tp.Std-math.Sqrt(50)) > 1e-9 || math.Abs(tp.CILow-91.378) > 0.01 ||
		math.Abs(tp.CIHigh-108.997) > 0.01 || math.Abs(tp.CV-0.0707) > 0.0001 || !tp.Unstable ||
		tp.Interval != IntervalLog || tp.RunsFor5 != 11 {
		t.Errorf("throughput spread %+v", tp)
	}
	if p99 := sp[2]; p99.Std != 0 || p99.Unstable || math.Abs(p99.CILow-10) > 1e-9 || math.Abs(p99.CIHigh-10) > 1e-9 {
		t.Errorf("a figure without spread: %+v", p99)
	}
	if one := Repetitions(runsOf("s", 42))[0]; one.CILow != 42 || one.CIHigh != 42 || one.Unstable {
		t.Errorf("a single run: %+v", one)
	}
}

// Repetitions of a figure that varies a lot (three short runs of the null
// target: 9.2M points/s mean, CV near 70 %) get a positive interval, and a
// figure with a run at 0, which has no logarithm, one clipped at 0; the
// output names the method and the repetitions a ±5 % interval would need.
func TestRepetitionsHighSpread(t *testing.T) {
	sp := Repetitions(runsOf("r", 2.1e6, 9.4e6, 16e6))[0]
	if !(sp.CILow > 0) || sp.CIHigh <= sp.CILow || sp.Interval != IntervalLog || !sp.Unstable || sp.RunsFor5 < 100 {
		t.Errorf("spread %+v", sp)
	}
	zero := Repetitions(runsOf("z", 0, 5, 20))[0]
	if zero.CILow != 0 || zero.Interval != IntervalClipped || zero.CIHigh <= 0 {
		t.Errorf("with a zero: %+v", zero)
	}
	var b strings.Builder
	if err := WriteRepetitions(&b, "g", 3, Repetitions(runsOf("r", 2.1e6, 9.4e6, 16e6))); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Student's t on the logarithms", "a ±5 % interval needs about"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), " -") {
		t.Errorf("a negative figure:\n%s", b.String())
	}
}

func TestCompareRepeated(t *testing.T) {
	base := runsOf("a", 1000, 1010, 990, 1005)
	same := runsOf("b", 995, 1008, 1002, 992)
	slow := runsOf("c", 800, 805, 798, 810)
	res := CompareRepeated(base, [][]*summary.Summary{same, slow, slow[:1]}, 0.05)
	verdict := func(pair int) Metric { return res.Pairs[pair].Operations[0].Metrics[0] }
	if m := verdict(0); m.Verdict != VerdictSame || m.Test != TestBetweenRuns || m.Runs1 != 4 || m.Runs2 != 4 {
		t.Errorf("the same configuration: %+v", m)
	}
	if m := verdict(1); m.Verdict != VerdictWorse || m.Test != TestBetweenRuns || math.Abs(m.Value-803.25) > 1e-9 {
		t.Errorf("a slower configuration: %+v", m)
	}
	// One run on a side: the per-second test of the two runs decides
	// (these runs have no seconds: not tested).
	if m := verdict(2); m.Test == TestBetweenRuns || res.Pairs[2].Run.Repetitions != 1 {
		t.Errorf("a single run against repetitions: %+v", m)
	}
	if res.Baseline.Repetitions != 4 || res.Pairs[0].Run.Repetitions != 4 {
		t.Errorf("repetitions %d, %d", res.Baseline.Repetitions, res.Pairs[0].Run.Repetitions)
	}
}
