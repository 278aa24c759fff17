package findmax

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// server is a synthetic server of capacity ops/s: it achieves what is
// offered up to its capacity, at 10 ms, and beyond it queues: the p99
// grows by a millisecond per operation per second of overload.
func server(capacity float64, calls *[]float64) StepFunc {
	return func(rate float64) (*summary.Summary, error) {
		*calls = append(*calls, rate)
		achieved, p99 := capacity, 10.0
		if rate > 0 {
			achieved = min(rate, capacity)
			p99 += max(0, rate-capacity)
		}
		return &summary.Summary{RunID: fmt.Sprintf("step-%d", len(*calls)), Elapsed: 10, Operations: []summary.Operation{
			{Name: "INGESTION", OKOperations: int64(achieved * 10), LatencyMS: summary.Latency{P50: 5, P99: p99}}}}, nil
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
	step := func(rate float64) (*summary.Summary, error) {
		if n++; n == 3 {
			return nil, boom
		}
		var calls []float64
		return server(1000, &calls)(rate)
	}
	s := Search{Objectives: objectives(t, "INGESTION.p99<50ms"), Start: 100, Precision: 0.05, MaxSteps: 30}
	fm, best, err := s.Run(step)
	if !errors.Is(err, boom) || len(fm.Steps) != 2 || !fm.Found || fm.Rate != 200 || best == nil {
		t.Fatalf("err %v, steps %+v, rate %v", err, fm.Steps, fm.Rate)
	}
}
