package findmax

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// server is a synthetic server of capacity ops/s: it achieves what is
// offered up to its capacity, at 10 ms, and beyond it queues: the p99
// grows by a millisecond per operation per second of overload.
func server(capacity float64, calls *[]float64) StepFunc {
	return func(rate float64, measure time.Duration) (*summary.Summary, error) {
		*calls = append(*calls, rate)
		achieved, p99 := capacity, 10.0
		if rate > 0 {
			achieved = min(rate, capacity)
			p99 += max(0, rate-capacity)
		}
		secs := measure.Seconds()
		if secs == 0 {
			secs = 10
		}
		return &summary.Summary{RunID: fmt.Sprintf("step-%d", len(*calls)), Elapsed: secs, Operations: []summary.Operation{
			{Name: "INGESTION", OKOperations: int64(achieved * secs), LatencyMS: summary.Latency{P50: 5, P99: p99}}}}, nil
	}
}

func objectives(t *testing.T, exprs ...string) []threshold.Threshold {
	var out []threshold.Threshold
	for _, e := range exprs {
		th, err := threshold.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, th)
	}
	return out
}

func TestSearchFindsCapacity(t *testing.T) {
	for _, c := range []struct {
		name     string
		start    float64
		capacity float64
		lo, hi   float64 // where the answer must lie
	}{
		{"from a probe", 0, 400, 400 * 0.95, 400 / 0.95},
		{"from below", 10, 400, 400 * 0.95, 400 / 0.95},
		{"from above", 5000, 400, 400 * 0.95, 400 / 0.95},
		{"a latency objective tighter than the shortfall", 0, 1000, 950, 1000 + 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls []float64
			s := Search{Objectives: objectives(t, "INGESTION.p99<50ms"), Start: c.start, Precision: 0.05, MaxSteps: 30}
			fm, best, err := s.Run(server(c.capacity, &calls))
			if err != nil {
				t.Fatal(err)
			}
			if !fm.Found || !fm.Bracketed || fm.Rate < c.lo || fm.Rate > c.hi {
				t.Fatalf("found %v (bracketed %v) at %.1f, want %.0f..%.0f; steps %v", fm.Found, fm.Bracketed, fm.Rate, c.lo, c.hi, calls)
			}
			if best.RunID != fm.Steps[fm.Best].RunID || !fm.Steps[fm.Best].Passed || fm.Steps[fm.Best].Offered != fm.Rate {
				t.Fatalf("best step %d %+v, run %s", fm.Best, fm.Steps[fm.Best], best.RunID)
			}
			if c.start == 0 && calls[0] != 0 {
				t.Errorf("no closed-loop probe first: %v", calls)
			}
			var text strings.Builder
			if err := Write(&text, fm); err != nil || !strings.Contains(text.String(), "Highest sustainable rate: ") {
				t.Errorf("output %q (%v)", text.String(), err)
			}
		})
	}
}

// Every step failing ends the search below one operation a second, found
// nothing; a failing step names each objective it broke.
func TestSearchNothingSustainable(t *testing.T) {
	var calls []float64
	s := Search{Objectives: objectives(t, "INGESTION.p99<5ms"), Start: 100, Precision: 0.05, MaxSteps: 30}
	fm, best, err := s.Run(server(400, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if fm.Found || fm.Best != -1 || best == nil || len(calls) > 10 {
		t.Fatalf("found %v, best %d, %d steps: %v", fm.Found, fm.Best, len(calls), calls)
	}
	if r := fm.Steps[0].Reasons; len(r) != 1 || r[0] != "INGESTION.p99<5ms (actual 10)" {
		t.Errorf("reasons %q", r)
	}
	if !strings.Contains(Conclusion(fm), "none") {
		t.Errorf("conclusion %q", Conclusion(fm))
	}
}

// A step that cannot run ends the search with what was found so far.
func TestSearchStepError(t *testing.T) {
	boom := errors.New("connection refused")
	n := 0
	step := func(rate float64, measure time.Duration) (*summary.Summary, error) {
		if n++; n == 3 {
			return nil, boom
		}
		var calls []float64
		return server(1000, &calls)(rate, measure)
	}
	s := Search{Objectives: objectives(t, "INGESTION.p99<50ms"), Start: 100, Precision: 0.05, MaxSteps: 30}
	fm, best, err := s.Run(step)
	if !errors.Is(err, boom) || len(fm.Steps) != 2 || !fm.Found || fm.Rate != 200 || best == nil {
		t.Fatalf("err %v, steps %+v, rate %v", err, fm.Steps, fm.Rate)
	}
}

func TestMinOps(t *testing.T) {
	for metric, want := range map[string]int64{"p99": 1000, "p999": 10000, "p90": 100, "p50": 20, "median": 20,
		"p10": 100, "p25": 40, "avg": 100, "max": 100, "throughput": 1, "ok_operations": 1} {
		if got := MinOps(metric); got != want {
			t.Errorf("MinOps(%s) = %d, want %d", metric, got, want)
		}
	}
}

func TestRate(t *testing.T) {
	for v, want := range map[float64]string{1.684: "1.68", 2: "2.00", 15.27: "15.3", 255.62: "256", 0: "0.00"} {
		if got := Rate(v); got != want {
			t.Errorf("Rate(%v) = %q, want %q", v, got, want)
		}
	}
}

// At low rates a step is measured longer, up to MaxMeasure, until its p99
// rests on 1,000 operations; where even MaxMeasure cannot give them, the
// step is flagged and the search stops there instead of judging on it.
func TestSearchLengthensLowRateSteps(t *testing.T) {
	var calls []float64
	var measures []time.Duration
	srv := server(1000, &calls)
	step := func(rate float64, measure time.Duration) (*summary.Summary, error) {
		measures = append(measures, measure)
		return srv(rate, measure)
	}
	s := Search{Objectives: objectives(t, "INGESTION.p99<5ms"), Start: 400, Precision: 0.05, MaxSteps: 30,
		Measure: 2 * time.Second, MaxMeasure: 30 * time.Second}
	fm, _, err := s.Run(step)
	if err != nil {
		t.Fatal(err)
	}
	if fm.Found || fm.Floor != 25 || fm.MinOperations != 1000 {
		t.Fatalf("found %v, floor %v, min %d; rates %v, measures %v", fm.Found, fm.Floor, fm.MinOperations, calls, measures)
	}
	for i, st := range fm.Steps {
		switch {
		case st.Operations == 0:
			t.Errorf("step %d measured no operation: %+v", i+1, st)
		case st.Operations < 1000 && st.TooFew == "":
			t.Errorf("step %d judged on %d operations: %+v", i+1, st.Operations, st)
		case st.Operations >= 1000 && st.TooFew != "":
			t.Errorf("step %d flagged with %d operations: %+v", i+1, st.Operations, st)
		}
	}
	if want := []time.Duration{2e9, 2800e6, 5500e6, 11e9, 22e9, 30e9}; fmt.Sprint(measures) != fmt.Sprint(want) {
		t.Errorf("measured %v, want %v (rates %v)", measures, want, calls)
	}
	if c := Conclusion(fm); !strings.Contains(c, "stopped at 25.0 ops/s") || !strings.Contains(c, "1000 needed") {
		t.Errorf("conclusion %q", c)
	}
}

// A step that falls short of its rate fails by the shortfall, even when
// it also completed fewer operations than its p99 needs: it is neither
// held longer nor taken for the floor below which nothing can be told
// (seen on Mimir: 100 ops/s offered, 89.9 achieved, 991 operations, and
// the search stopped at a "floor" of 100 though 50 had passed).
func TestSearchShortStepFailsNotTooFew(t *testing.T) {
	var calls []float64
	srv := server(90, &calls)
	s := Search{Objectives: objectives(t, "INGESTION.p99<1s"), Start: 50, Precision: 0.05, MaxSteps: 30,
		Measure: 11 * time.Second, MaxMeasure: 60 * time.Second}
	fm, _, err := s.Run(srv)
	if err != nil {
		t.Fatal(err)
	}
	if !fm.Found || fm.Floor != 0 || !fm.Bracketed || fm.Rate < 85 || fm.Rate > 90/(1-MaxShortfall) {
		t.Fatalf("found %v at %v, floor %v, bracketed %v; rates %v", fm.Found, fm.Rate, fm.Floor, fm.Bracketed, calls)
	}
	st := fm.Steps[2] // 100 ops/s: 990 operations in 11 s (after 50 held twice, too few at first)
	if st.Offered != 100 || st.Passed || st.TooFew != "" || len(st.Reasons) != 1 || !strings.Contains(st.Reasons[0], "10.0 % short") {
		t.Errorf("the short step: %+v", st)
	}
}

// A step in which the objective's operation was not done at all is an
// error of the search, not a result.
func TestSearchStepWithNoOperations(t *testing.T) {
	s := Search{Objectives: objectives(t, "INGESTION.p99<50ms"), Start: 100, Precision: 0.05, MaxSteps: 30}
	fm, _, err := s.Run(func(rate float64, measure time.Duration) (*summary.Summary, error) {
		return &summary.Summary{RunID: "empty", Elapsed: 10}, nil
	})
	if !errors.Is(err, ErrNoOperations) || len(fm.Steps) != 1 || fm.Steps[0].Passed || fm.Steps[0].Empty == "" {
		t.Fatalf("err %v, steps %+v", err, fm.Steps)
	}
}

// A server whose periodic work holds the p99 above the bound at any rate
// (two slow seconds in ten, five seconds apart) gets that answer, with the
// bursts' period and height, not only "no step met".
func TestSearchPeriodicBursts(t *testing.T) {
	step := func(rate float64, measure time.Duration) (*summary.Summary, error) {
		s := &summary.Summary{RunID: "bursty", Elapsed: 10, Operations: []summary.Operation{
			{Name: "INGESTION", OKOperations: int64(rate * 10), LatencyMS: summary.Latency{P50: 2, P99: 31}}}}
		for sec := 0; sec < 10; sec++ {
			slowest := 3.0
			if sec == 2 || sec == 7 {
				slowest = 31
			}
			s.Intervals = append(s.Intervals, summary.Interval{Start: float64(sec), Seconds: 1,
				Ops: []summary.IntervalOp{{Name: "INGESTION", OKOps: int64(rate), MaxMS: slowest}}})
		}
		return s, nil
	}
	s := Search{Objectives: objectives(t, "INGESTION.p99<20ms"), Start: 1600, Precision: 0.05, MaxSteps: 8}
	fm, _, err := s.Run(step)
	if err != nil {
		t.Fatal(err)
	}
	if fm.Found || fm.Steps[0].Bursts == nil || fm.Steps[0].Bursts.EveryS != 5 || fm.Steps[0].Bursts.MaxMS != 31 {
		t.Fatalf("steps %+v", fm.Steps)
	}
	lowest := fm.Steps[len(fm.Steps)-1].Offered
	c := Conclusion(fm)
	for _, want := range []string{"recurring bursts", "about every 5.0 s", "the slowest 31 ms", "down to " + Rate(lowest) + " ops/s"} {
		if !strings.Contains(c, want) {
			t.Errorf("conclusion %q lacks %q", c, want)
		}
	}
}
