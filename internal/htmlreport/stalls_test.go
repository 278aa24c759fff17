package htmlreport

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func stalledRun() *summary.Summary {
	s := twoRuns()[0]
	s.Stalls = []summary.Stall{{Start: 4, Seconds: 3, OpsPerSecond: 2, MedianOpsPerSecond: 340, HeldOperations: 900, Share: 0.21, MaxMS: 3012}}
	return s
}

// A run's stalls are listed in a table and shaded on every chart over
// time (throughput, latency), on no other.
func TestReportStalls(t *testing.T) {
	s := stalledRun()
	page := render(t, []*summary.Summary{s})
	for _, want := range []string{`<a href="#stalls">Stalls</a>`, `<table id="stalls-table">`,
		"<td>4.00</td><td>3.00</td><td>2.00</td><td>340.00</td><td>900</td><td>21.0 %</td><td>3,012.00</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(render(t, twoRuns()[:1]), `id="stalls-table"`) {
		t.Error("a run without stalls has a stalls table")
	}
	shaded := 0
	for _, sec := range chartsOf(t, []*summary.Summary{s}).Sections {
		for _, c := range sec.Charts {
			over := c.XKind == "seconds" && (strings.HasPrefix(c.ID, "throughput-") || strings.HasPrefix(c.ID, "latency-"))
			switch {
			case over && (len(c.Bands) != 1 || c.Bands[0] != band{From: 4, To: 7, Label: "stall"}):
				t.Errorf("chart %s bands %+v, want the stall 4..7 s", c.ID, c.Bands)
			case !over && len(c.Bands) > 0:
				t.Errorf("chart %s shades %+v", c.ID, c.Bands)
			}
			if len(c.Bands) > 0 {
				shaded++
			}
		}
	}
	if shaded == 0 {
		t.Fatal("no chart shades the stall")
	}
}

// In a real browser each shaded chart draws its band: a filled area in
// the stall colour, counted in the rendered SVG.
func TestReportStallsInChromium(t *testing.T) {
	shaded := 0
	for _, c := range chromiumCharts(t, render(t, []*summary.Summary{stalledRun()})) {
		if c.Bands != c.DOMBands {
			t.Errorf("chart %s: %d bands handed over, %d drawn", c.ID, c.Bands, c.DOMBands)
		}
		shaded += c.DOMBands
	}
	if shaded == 0 {
		t.Error("no chart drew a stall")
	}
}
