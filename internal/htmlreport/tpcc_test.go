package htmlreport

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func tpccRun() []*summary.Summary {
	s := twoRuns()[1]
	s.TPCC = &summary.TPCC{Warehouses: 1, Terminals: 16, Tables: "logged", TpmC: 6467, TpmTotal: 14000, TpmCPerCore: 3233,
		Rollbacks: 3, Consistency: []summary.TPCCCheck{{Number: 1, Condition: "W_YTD", OK: true}},
		Sweep: []summary.SweepPoint{{Label: "disk-1", Connections: 1, TpmC: 5613, P90MS: 10.5},
			{Label: "disk-2", Connections: 2, TpmC: 8576, P90MS: 12.6}, {Label: "disk-4", Connections: 4, TpmC: 12686, P90MS: 16.7}}}
	return []*summary.Summary{s}
}

// A TPC-C run's report has its TPC-C table and the connections sweep drawn
// as two charts with a point per sweep step.
func TestTPCCSweepInChromium(t *testing.T) {
	runs := tpccRun()
	page := render(t, runs)
	for _, want := range []string{`<h2 id="tpcc">TPC-C</h2>`, `id="charts-tpcc"`, "6,467", "all 1 hold"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	charts := chromiumCharts(t, page)
	found := 0
	for _, c := range charts {
		if c.ID == "sweep-tpmc" || c.ID == "sweep-p90" {
			found++
			if c.Points != 3 || c.Drawn != 3 || c.DOMVertices != 3 {
				t.Errorf("chart %s: %d points, %d drawn, %d vertices; want 3", c.ID, c.Points, c.Drawn, c.DOMVertices)
			}
		}
	}
	if found != 2 {
		t.Errorf("%d sweep charts drawn, want 2: %+v", found, charts)
	}
}
