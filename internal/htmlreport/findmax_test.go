package htmlreport

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func searchedRun() *summary.Summary {
	s := twoRuns()[0]
	s.FindMax = &summary.FindMax{Objectives: []string{"INGESTION.p99<50ms"}, Precision: 0.05, MaxShortfall: 0.05,
		SettleS: 5, MeasureS: 10, Found: true, Bracketed: true, Rate: 388, Best: 2,
		Steps: []summary.FindMaxStep{
			{RunID: "r1", Achieved: 390, Operation: "INGESTION", P50MS: 10, P99MS: 11, Passed: true},
			{RunID: "r2", Offered: 194, Achieved: 194, Operation: "INGESTION", P50MS: 10, P99MS: 11, Passed: true},
			{RunID: "r3", Offered: 388, Achieved: 385, Operation: "INGESTION", P50MS: 30, P99MS: 45, Passed: true},
			{RunID: "r4", Offered: 776, Achieved: 388, Operation: "INGESTION", P50MS: 700, P99MS: 1500,
				Reasons: []string{"INGESTION.p99<50ms (actual 1500)", "achieved 388 of 776 ops/s (50.0 % short)"}},
			{RunID: "r5", Offered: 401, Achieved: 380, Operation: "INGESTION", P50MS: 80, P99MS: 160, Reasons: []string{"INGESTION.p99<50ms (actual 160)"}},
		}}
	return s
}

// A find-max run's report states the answer, lists every step and draws
// the curve: achieved against offered rate and each step's latencies,
// by rate (the closed-loop probe offers none and is left off the curve).
func TestReportFindMax(t *testing.T) {
	page := render(t, []*summary.Summary{searchedRun()})
	for _, want := range []string{`<h2 id="findmax">Find max</h2>`, "Highest sustainable rate: 388 ops/s",
		"<code>INGESTION.p99&lt;50ms</code>", "<td>closed loop</td>", "fail: INGESTION.p99&lt;50ms (actual 1500); achieved 388 of 776 ops/s (50.0 % short)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	ids := expectedCharts(t, []*summary.Summary{searchedRun()})
	if !strings.Contains(strings.Join(ids, " "), "findmax-rate findmax-latency") {
		t.Errorf("charts %v", ids)
	}
	if strings.Contains(render(t, twoRuns()[:1]), `id="findmax"`) {
		t.Error("a run without a search has a Find max section")
	}
}

func TestReportFindMaxInChromium(t *testing.T) {
	seen := 0
	for _, c := range chromiumCharts(t, render(t, []*summary.Summary{searchedRun()})) {
		if !strings.HasPrefix(c.ID, "findmax-") {
			continue
		}
		seen++
		// Four steps offered a rate: every series draws all four.
		if c.Points != 4*c.Series || c.DOMVertices != c.Points || c.DOMLines != c.Series {
			t.Errorf("chart %s: %d points in %d series; the page shows %d vertices in %d lines", c.ID, c.Points, c.Series, c.DOMVertices, c.DOMLines)
		}
	}
	if seen != 2 {
		t.Errorf("%d find-max charts drawn, want 2", seen)
	}
}
