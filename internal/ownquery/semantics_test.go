package ownquery

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

func TestKnownDifference(t *testing.T) {
	const prom, vm = promql.EnginePrometheus, promql.EngineMetricsQL
	cases := []struct {
		a, b, text string
		names      []string // the functions the reason names; none: no difference
	}{
		{prom, vm, `sum by (job) (rate(http_requests_total[5m]))`, []string{"rate"}},
		{vm, prom, `increase(c[1h]) / irate (c[1m])`, []string{"increase", "irate"}},
		{prom, vm, `histogram_quantile(0.9, sum by (le) (rate(h_bucket[5m])))`, []string{"rate", "histogram_quantile"}},
		{prom, vm, `sum(my_rate_total) + node:increase:sum`, nil}, // metric names, not calls
		{prom, vm, `max_over_time(x[5m])`, nil},
		{prom, prom, `rate(x[5m])`, nil}, // one engine
		{prom, "", `rate(x[5m])`, nil},   // an engine unknown (a run without one)
	}
	for _, c := range cases {
		got := KnownDifference(c.a, c.b, c.text)
		if (got == "") != (len(c.names) == 0) {
			t.Errorf("%s vs %s on %q: %q", c.a, c.b, c.text, got)
			continue
		}
		for _, n := range c.names {
			if !strings.Contains(got, n) {
				t.Errorf("%s vs %s on %q: %q does not name %s", c.a, c.b, c.text, got, n)
			}
		}
	}
}

// ownRun is a run on target whose one own query, text, answered value.
func ownRun(target, engine, text string, value float64) *summary.Summary {
	a := summary.Answer{Params: map[string]string{"w": "5m"}, Rows: 1, Values: [][]any{{value}}}
	return &summary.Summary{Target: target, QueryFile: &summary.QueryFile{Queries: []summary.OwnQuery{
		{Name: "q", Language: "promql", Engine: engine, Text: text, Answers: []summary.Answer{a}}}}}
}

// Answers that differ where the engines differ by design are a semantic
// difference, both shown; elsewhere they disagree.
func TestCompareRunsNamesSemanticDifferences(t *testing.T) {
	for _, c := range []struct {
		text     string
		semantic bool
	}{
		{`increase(c[5m])`, true},
		{`sum(c)`, false},
	} {
		cs := CompareRuns([]*summary.Summary{
			ownRun("prometheus", promql.EnginePrometheus, c.text, 12.5),
			ownRun("victoriametrics", promql.EngineMetricsQL, c.text, 10),
		})
		if len(cs) != 1 || cs[0].Differ != 1 {
			t.Fatalf("%s: %+v", c.text, cs)
		}
		got := cs[0]
		if got.Disagree() == c.semantic || (got.Semantic != "") != c.semantic {
			t.Errorf("%s: semantic %q, disagree %v", c.text, got.Semantic, got.Disagree())
		}
		if !strings.Contains(got.Example, "prometheus: 12.5") || !strings.Contains(got.Example, "victoriametrics: 10") {
			t.Errorf("%s: the example does not give both answers by target: %q", c.text, got.Example)
		}
	}
}
