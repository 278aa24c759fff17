package main

// The user's own PromQL on VictoriaMetrics and Prometheus side by side:
// where the two engines answer differently by design (rate and increase:
// Prometheus extrapolates, MetricsQL counts from the sample before the
// window), the answers are a named semantic difference, both shown, and
// the run passes; they are no disagreement (exit 3).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ownquery"
)

func TestOwnPromQLAcrossEngines(t *testing.T) {
	requireTargetServer(t, "victoriametrics")
	requireTargetServer(t, "prometheus")
	dir := t.TempDir()
	q := writeInputFile(t, dir, "q.yaml", `queries:
  - name: increase_10m
    params:
      dev: device
      s: sensor numeric
      w: window 10m
    promql: increase({__name__={{s}}, device={{dev}}}[10m] @ {{w.end}})
`)
	r := tsbench(t, nil, "run", "--target", "victoriametrics,prometheus", "--queries", q, "--data-dir", dir, "--loop", "40",
		"--quiet", "--json", filepath.Join(dir, "out.json"))
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (a difference by design is no wrong answer)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, r.stdout,
		"1 differ by design (a known difference of their engines, both answers shown)",
		"SEMANTIC  increase_10m on prometheus: ",
		"answered differently by design (increase: Prometheus extrapolates",
		"Verdict: ok: every target's run passed its checks; the answers of 0 of 1 query-target pairs agree with victoriametrics's, 1 differ by design")
	if strings.Contains(r.stdout, "DISAGREE") {
		t.Errorf("a difference by design reported as a disagreement:\n%s", r.stdout)
	}
	var doc struct {
		OK          bool
		Comparisons []ownquery.Comparison `json:"answer_comparisons"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.json")); err != nil || json.Unmarshal(b, &doc) != nil {
		t.Fatalf("out.json, the comparison: %v\n%s", err, b)
	}
	if len(doc.Comparisons) != 1 {
		t.Fatalf("out.json: %+v", doc)
	}
	c := doc.Comparisons[0]
	if !doc.OK || c.Differ == 0 || !strings.Contains(c.Semantic, "increase") || c.Disagree() ||
		!strings.Contains(c.Example, "victoriametrics: ") || !strings.Contains(c.Example, "prometheus: ") {
		t.Errorf("out.json: ok %v, comparison %+v", doc.OK, c)
	}
}
