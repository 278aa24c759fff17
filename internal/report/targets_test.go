package report

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// workloadRun is a run on target whose checked queries have the digests
// given ("" a query whose answers failed).
func workloadRun(target string, digests ...string) *summary.Summary {
	v := &summary.Verify{OK: true}
	for i, d := range digests {
		q := summary.QueryCheck{Query: string(rune('a' + i)), OK: true, Points: 10, Digest: d}
		if d == "" {
			q.OK, q.Error = false, "3 queries failed; the first: timeout"
		}
		v.Queries = append(v.Queries, q)
	}
	return &summary.Summary{Target: target, Verify: v}
}

// The workload's answers compare by digest with the first target's: the
// same digest agrees, another disagrees (exit 3 by Differ), a failed
// query is not compared; runs without digests (a time series run's Q1..Q10)
// give no comparison.
func TestTargetsComparesWorkloadDigests(t *testing.T) {
	runs := []*summary.Summary{
		workloadRun("victoriametrics", "d1", "d2", "d3"),
		workloadRun("prometheus", "d1", "d2", "d3"),
		workloadRun("mimir", "d1", "XX", ""),
	}
	var b strings.Builder
	answers, err := Targets(&b, runs)
	cs := answers.Comparisons
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Answers of the workload's queries: 4 of 6 query-target pairs agree with victoriametrics",
		"agree     prometheus: all 3 queries, 30 answers",
		"agree     mimir: the other 1 queries, 10 answers",
		"DISAGREE  b on mimir: its 10 answers differ from victoriametrics's: victoriametrics: digest d2, mimir: digest XX",
		"c on mimir: not compared: some answers failed or were not asked: 3 queries failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	differ := 0
	for _, c := range cs {
		differ += c.Differ
	}
	if len(cs) != 6 || differ != 1 || answers.Disagreements() != 1 {
		t.Errorf("%d comparisons, %d differ: %+v", len(cs), differ, cs)
	}
	// The lines kept for the report are the console's own, in its order.
	if got := strings.Join(answers.Lines, "\n") + "\n"; !strings.HasSuffix(out, got) || !strings.HasPrefix(got, "Answers of the workload's queries") {
		t.Errorf("answer lines %q are not the console's:\n%s", answers.Lines, out)
	}
	plain := []*summary.Summary{
		{Target: "a", Verify: &summary.Verify{Queries: []summary.QueryCheck{{Query: "Q1", OK: true}, {Query: "Q2", Error: "timeout"}}}},
		{Target: "b", Verify: &summary.Verify{Queries: []summary.QueryCheck{{Query: "Q1", OK: true}}}},
	}
	b.Reset()
	if a, _ := Targets(&b, plain); len(a.Comparisons) != 0 || len(a.Lines) != 0 || strings.Contains(b.String(), "workload's queries") {
		t.Errorf("Q1..Q10 compared by digest: %+v\n%s", a, b.String())
	}
}

// ownRun is a run on target whose one own query, text, answered value.
func ownRun(target, engine, text string, value float64) *summary.Summary {
	a := summary.Answer{Params: map[string]string{"w": "5m"}, Rows: 1, Values: [][]any{{value}}}
	return &summary.Summary{Target: target, QueryFile: &summary.QueryFile{Queries: []summary.OwnQuery{
		{Name: "q", Language: "promql", Engine: engine, Text: text, Answers: []summary.Answer{a}}}}}
}

// Own queries whose answers differ by a known difference of the engines
// are said so, both answers shown, and are no disagreement; another
// difference is.
func TestTargetsSaysSemanticDifferences(t *testing.T) {
	runs := []*summary.Summary{
		ownRun("prometheus", "prometheus", "rate(c[5m])", 0.25),
		ownRun("victoriametrics", "metricsql", "rate(c[5m])", 0.2),
		ownRun("mimir", "prometheus", "rate(c[5m])", 0.3),
	}
	var b strings.Builder
	answers, err := Targets(&b, runs)
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"0 of 2 query-target pairs agree with prometheus, 1 differ by design",
		"SEMANTIC  q on victoriametrics: 1 of 1 parameter sets answered differently by design (rate: Prometheus extrapolates",
		"prometheus: 0.25, victoriametrics: 0.2",
		"DISAGREE  q on mimir: 1 of 1 parameter sets answered differently",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if n := answers.Disagreements(); n != 1 {
		t.Errorf("%d disagreements, want mimir's alone", n)
	}
}

// A workload query whose answers depend on the engine (a rate) differs by
// design between VictoriaMetrics and Prometheus when each store's answers
// were its engine's; between stores of one engine, or where a store's own
// check failed, a different digest is a disagreement.
func TestTargetsWorkloadRatesDifferByDesign(t *testing.T) {
	rate := func(target, engine, digest string, ok bool) *summary.Summary {
		s := workloadRun(target, digest)
		q := &s.Verify.Queries[0]
		q.Expr, q.Engine, q.OK = "sum(rate(c[1m]) and c offset 1m and c)", engine, ok
		return s
	}
	runs := []*summary.Summary{
		rate("victoriametrics", "metricsql", "d1", true),
		rate("prometheus", "prometheus", "d2", true),
		rate("mimir", "prometheus", "d2", true),
		rate("thanos", "prometheus", "d3", false),
	}
	var b strings.Builder
	answers, err := Targets(&b, runs)
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"0 of 3 query-target pairs agree with victoriametrics, 2 differ by design",
		"SEMANTIC  a on prometheus: its 10 answers differ from victoriametrics's by design, each its engine's (rate: Prometheus extrapolates",
		"SEMANTIC  a on mimir: ",
		"DISAGREE  a on thanos: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if n := answers.Disagreements(); n != 1 {
		t.Errorf("%d disagreements, want thanos' alone", n)
	}
}
