package htmlreport

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/htmlreport/browser"
	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

func twoRuns() []*summary.Summary {
	a := resultstest.Summary(resultstest.Run{ID: "20260301-120000-aaaaaa", Seconds: 12, Seed: 1, Ops: []resultstest.Op{
		{Op: workload.Write, OpsPerSec: 300, Points: 100, Latency: 2 * time.Millisecond, RateNoise: 0.05},
		{Op: 2, OpsPerSec: 40, Points: 10, Latency: 5 * time.Millisecond, FailPerSec: 1}}})
	a.Thresholds = []summary.ThresholdResult{{Expr: "INGESTION.p99<50ms", Passed: true, Actual: 4.2}, {Expr: "errors==0", Actual: 12}}
	a.Published = []summary.PublishedFigure{{Label: "write 1,500 series", Unit: "points/s", Published: 196364, Measured: 30000, Ratio: 0.153, Source: "seeds/000"}}
	b := resultstest.Summary(resultstest.Run{ID: "20260302-120000-bbbbbb", Target: "postgres", Seconds: 10, Seed: 2, Ops: []resultstest.Op{
		{Op: workload.Write, OpsPerSec: 400, Points: 100, Latency: time.Millisecond, RateNoise: 0.05}}})
	b.Config["client_number"] = 8
	b.Resources.Server = &summary.ServerProcess{PID: 200, Name: "postgres", Source: "/tmp/tsbench-services/postgres/pid"}
	b.Resources.Remote = append([]summary.ResourceSample(nil), b.Resources.Samples...)
	for i := range b.Resources.Remote {
		b.Resources.Remote[i].Hostname = "dbhost"
	}
	return []*summary.Summary{a, b}
}

func render(t *testing.T, runs []*summary.Summary) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, runs, Options{Generated: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// expectedCharts are the chart ids the report of runs must draw.
func expectedCharts(t *testing.T, runs []*summary.Summary) []string {
	t.Helper()
	js, err := ChartsJSON(runs)
	if err != nil {
		t.Fatal(err)
	}
	var d chartData
	if err := json.Unmarshal(js, &d); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range d.Sections {
		for _, c := range s.Charts {
			if c.points() == 0 {
				t.Errorf("chart %s has no data", c.ID)
			}
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func TestReportContent(t *testing.T) {
	runs := twoRuns()
	page := render(t, runs)
	for _, want := range []string{
		"tsbench report: 20260301-120000-aaaaaa, 20260302-120000-bbbbbb", "Result Matrix", "Latency (ms) Matrix", "SLOWEST_THREAD",
		"Published vs measured", "write 1,500 series", "196,364", "Thresholds", "INGESTION.p99&lt;50ms", "FAILED",
		"Failures by error class", "context deadline exceeded", "Configuration", `class="diff"`, "client_number",
		"Environment", "Test CPU", "server process 200 (postgres)", "merged by time", "Apache ECharts 5.6.0",
		`id="charts-op-INGESTION"`, `id="charts-op-TIME_RANGE"`, `id="charts-resources"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Self-contained: nothing is fetched from anywhere.
	markup := regexp.MustCompile(`(?s)<script[^>]*>.*?</script>`).ReplaceAllString(page, "")
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`).FindString(markup); m != "" {
		t.Errorf("report loads an external resource: %s", m)
	}
	if !strings.Contains(page, "echarts") || len(page) < 600_000 {
		t.Errorf("the chart library is not inlined (%d bytes)", len(page))
	}
	want := []string{"throughput", "operations", "latency-INGESTION", "spectrum-INGESTION", "latency-TIME_RANGE",
		"spectrum-TIME_RANGE", "cpu", "memory", "disk", "network"}
	if got := expectedCharts(t, runs); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("charts %v, want %v", got, want)
	}
}

func TestSpectrum(t *testing.T) {
	o := twoRuns()[0].Op("INGESTION")
	pts := spectrum(o)
	if len(pts) < 10 {
		t.Fatalf("spectrum %v", pts)
	}
	if pts[0][0] != 1 || pts[0][1] != o.LatencyMS.Min || pts[len(pts)-1][1] != o.LatencyMS.Max {
		t.Errorf("spectrum ends: %v .. %v (min %v max %v)", pts[0], pts[len(pts)-1], o.LatencyMS.Min, o.LatencyMS.Max)
	}
	for i := 1; i < len(pts); i++ {
		if pts[i][0] <= pts[i-1][0] || pts[i][1] < pts[i-1][1] {
			t.Fatalf("spectrum not increasing at %d: %v", i, pts)
		}
	}
	// 99 % sits at x = 100 and matches the matrix's P99 within HDR precision.
	for _, p := range pts {
		if p[0] == 100 && (p[1] < o.LatencyMS.P99*0.99 || p[1] > o.LatencyMS.P99*1.01) {
			t.Errorf("p99 on the spectrum %v, matrix %v", p[1], o.LatencyMS.P99)
		}
	}
}

// A run saved before resources were sampled still gets a report, without
// empty resource charts.
func TestReportWithoutResources(t *testing.T) {
	s := twoRuns()[0]
	s.Resources = nil
	page := render(t, []*summary.Summary{s})
	if strings.Contains(page, `id="charts-resources"`) || !strings.Contains(page, "No resource samples") {
		t.Error("resource section of a run without samples")
	}
	for _, id := range expectedCharts(t, []*summary.Summary{s}) {
		if id == "cpu" {
			t.Error("cpu chart without samples")
		}
	}
}

// The report in a real browser: every chart draws its data points.
func TestReportInChromium(t *testing.T) {
	bin := browser.Require(t)
	runs := twoRuns()
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte(render(t, runs)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	charts, err := browser.Charts(ctx, bin, path)
	if err != nil {
		t.Fatal(err)
	}
	want := expectedCharts(t, runs)
	if err := browser.CheckDrawn(charts, len(want)); err != nil {
		t.Fatalf("%v\n%+v", err, charts)
	}
	for i, c := range charts {
		if c.ID != want[i] {
			t.Errorf("chart %d is %s, want %s", i, c.ID, want[i])
		}
		if c.Drawn != c.Points {
			t.Errorf("chart %s drew %d of %d points", c.ID, c.Drawn, c.Points)
		}
		// Counted in the rendered SVG: every point is a line vertex.
		if c.DOMVertices != c.Points || c.DOMLines != c.Series {
			t.Errorf("chart %s: %d points in %d series, but the page shows %d vertices in %d lines",
				c.ID, c.Points, c.Series, c.DOMVertices, c.DOMLines)
		}
	}
	png := filepath.Join(dir, "report.png")
	if out := os.Getenv("TSBENCH_ARTIFACTS"); out != "" {
		png = filepath.Join(out, "htmlreport-unit.png")
	}
	if err := browser.Screenshot(ctx, bin, path, png, 1400, 2200); err != nil {
		t.Fatal(err)
	}
}
