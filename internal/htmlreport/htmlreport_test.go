package htmlreport

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
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

// chartsOf is the chart data the report of runs embeds, decoded.
func chartsOf(t *testing.T, runs []*summary.Summary) chartData {
	t.Helper()
	js, err := ChartsJSON(runs)
	if err != nil {
		t.Fatal(err)
	}
	var d chartData
	if err := json.Unmarshal(js, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// writePage writes page as report.html in a fresh temporary folder, for a
// browser to open, and returns its path.
func writePage(t *testing.T, page string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// chromiumCharts opens page in headless Chromium (the test skips where
// there is none, and fails so in CI) and returns what each chart drew.
func chromiumCharts(t *testing.T, page string) []browser.Chart {
	t.Helper()
	bin := browser.Require(t)
	charts, err := browser.Charts(context.Background(), bin, writePage(t, page))
	if err != nil {
		t.Fatal(err)
	}
	return charts
}

// expectedCharts are the chart ids the report of runs must draw.
func expectedCharts(t *testing.T, runs []*summary.Summary) []string {
	t.Helper()
	var ids []string
	for _, s := range chartsOf(t, runs).Sections {
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
		`id="charts-op-INGESTION"`, `id="charts-op-TIME_RANGE"`, `id="charts-resources"`, `id="charts-throughput"`,
		// What differs, at the top: target and configuration.
		"What differs between the runs", `<td class="l key">target</td><td class="wrap">sqlite</td><td class="wrap">postgres</td>`,
		// Thresholds with units: the limit and the measured value.
		"&lt; 50.00 ms", "4.20 ms", "== 0 failed operations", "12 failed operations",
		// The comparison, as 'tsbench compare' computes it, and the
		// matrices side by side with the ratio.
		"Comparison with run A", `id="compare-B"`, "throughput (points/s)", "not in B", `<th class="ratio">B/A</th>`,
		`id="matrix-INGESTION"`, "25.8 GB",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// The thresholds come before the comparison, the comparison before
	// the charts.
	if th, cmp, tp := strings.Index(page, `id="thresholds"`), strings.Index(page, `id="compare"`), strings.Index(page, `id="throughput"`); !(th < cmp && cmp < tp) {
		t.Errorf("sections out of order: thresholds at %d, comparison at %d, throughput at %d", th, cmp, tp)
	}
	markup := regexp.MustCompile(`(?s)<script[^>]*>.*?</script>`).ReplaceAllString(page, "")
	// One unit system (decimal, as on the console), no Go formatting.
	for _, leak := range []string{"map[", "MiB", "GiB", "KiB", "<nil>", "%!", "e+0"} {
		if strings.Contains(markup, leak) {
			t.Errorf("report shows %q", leak)
		}
	}
	// Self-contained: nothing is fetched from anywhere.
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`).FindString(markup); m != "" {
		t.Errorf("report loads an external resource: %s", m)
	}
	if !strings.Contains(page, "echarts") || len(page) < 600_000 {
		t.Errorf("the chart library is not inlined (%d bytes)", len(page))
	}
	want := []string{"throughput-INGESTION", "throughput-TIME_RANGE", "latency-INGESTION", "spectrum-INGESTION",
		"latency-TIME_RANGE", "spectrum-TIME_RANGE", "failures-TIME_RANGE", "cpu", "memory", "disk", "network"}
	if got := expectedCharts(t, runs); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("charts %v, want %v", got, want)
	}
}

// A single run gets the same page without the comparison.
func TestSingleRun(t *testing.T) {
	runs := twoRuns()[1:]
	page := render(t, runs)
	for _, not := range []string{`id="compare"`, "What differs", `class="ratio"`} {
		if strings.Contains(page, not) {
			t.Errorf("single-run report shows %q", not)
		}
	}
	for _, want := range []string{`id="matrix-INGESTION"`, "Result Matrix", `id="charts-throughput"`} {
		if !strings.Contains(page, want) {
			t.Errorf("single-run report lacks %q", want)
		}
	}
	if got := expectedCharts(t, runs); len(got) != 7 {
		t.Errorf("charts %v", got)
	}
}

// An embedded database used no network: the report has no network chart
// for it, nor lines that are zero throughout.
func TestNoEmptyResources(t *testing.T) {
	s := twoRuns()[0]
	s.Tool.EmbeddedEngine = "sqlite"
	for i := range s.Resources.Samples {
		s.Resources.Samples[i].Host.DiskReadBytesPerS = 0
	}
	for _, sec := range chartsOf(t, []*summary.Summary{s}).Sections {
		for _, c := range sec.Charts {
			if c.ID == "network" {
				t.Error("network chart for an embedded database")
			}
			for _, sr := range c.Series {
				if sr.Key == "host read" {
					t.Error("disk read line that is zero throughout")
				}
			}
		}
	}
}

func TestConfigValue(t *testing.T) {
	for _, c := range []struct {
		key  string
		v    any
		want string
	}{
		{"target_options", map[string]any{}, ""},
		{"target_options", map[string]any{"b": "x", "a": float64(2)}, "a=2, b=x"},
		{"loop", float64(1e6), "1,000,000"},
		{"max_k", 170000, "170,000"},
		{"port", float64(6667), "6667"},
		{"data_seed", float64(151658), "151658"},
		{"out_of_order_ratio", 0.5, "0.5"},
		{"thresholds", []any{"a<1", "b>2"}, "a<1, b>2"},
		{"remark", nil, ""},
		{"verify", true, "true"},
	} {
		if got := configValue(c.key, c.v); got != c.want {
			t.Errorf("configValue(%q, %#v) = %q, want %q", c.key, c.v, got, c.want)
		}
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

// The report in a real browser: every chart draws its data points; each
// operation has its own small multiple of throughput and its latency and
// spectrum charts, each drawn; the comparison table shows every
// operation's ratios.
func TestReportInChromium(t *testing.T) {
	bin := browser.Require(t)
	runs := twoRuns()
	path := writePage(t, render(t, runs))
	ctx := context.Background()
	charts, err := browser.Charts(ctx, bin, path)
	if err != nil {
		t.Fatal(err)
	}
	want := expectedCharts(t, runs)
	if err := browser.CheckDrawn(charts, len(want)); err != nil {
		t.Fatalf("%v\n%+v", err, charts)
	}
	perOp := map[string][]string{}
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
		if kind, op, ok := strings.Cut(c.ID, "-"); ok && c.DOMVertices > 0 {
			perOp[op] = append(perOp[op], kind)
		}
	}
	// Small multiples: writes and each query kind on their own axes.
	for _, op := range []string{"INGESTION", "TIME_RANGE"} {
		if got := strings.Join(perOp[op], ","); !strings.HasPrefix(got, "throughput,latency,spectrum") {
			t.Errorf("%s: drawn charts %q, want its throughput, latency and spectrum", op, got)
		}
	}
	checkComparisonInBrowser(t, ctx, bin, path, runs)

	png := filepath.Join(filepath.Dir(path), "report.png")
	if out := os.Getenv("TSBENCH_ARTIFACTS"); out != "" {
		png = filepath.Join(out, "htmlreport-unit.png")
	}
	if err := browser.Screenshot(ctx, bin, path, png, 1400, 2200); err != nil {
		t.Fatal(err)
	}
}

var (
	compareRowRE = regexp.MustCompile(`(?s)<tr class="cmp" data-op="([^"]+)"(?: data-metric="([^"]+)")?>(.*?)</tr>`)
	cellRE       = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
)

// checkComparisonInBrowser finds, in the page as Chromium rendered it, a
// comparison row per operation and metric, with the ratio compare computes.
func checkComparisonInBrowser(t *testing.T, ctx context.Context, bin, path string, runs []*summary.Summary) {
	t.Helper()
	dom, err := browser.DOM(ctx, bin, path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{} // "op metric" -> ratio cell
	for _, m := range compareRowRE.FindAllStringSubmatch(dom, -1) {
		var cells []string
		for _, c := range cellRE.FindAllStringSubmatch(m[3], -1) {
			cells = append(cells, regexp.MustCompile(`<[^>]+>`).ReplaceAllString(c[1], ""))
		}
		if m[2] == "" {
			got[m[1]] = strings.Join(cells, "|")
			continue
		}
		if len(cells) < 5 {
			t.Errorf("comparison row %s %s: cells %q", m[1], m[2], cells)
			continue
		}
		got[m[1]+" "+m[2]] = cells[len(cells)-3] // ratio, p-value, verdict end the row
	}
	a, b := runs[0].Op("INGESTION"), runs[1].Op("INGESTION")
	for metric, ratio := range map[string]float64{
		"throughput (points/s)": b.Throughput / a.Throughput, "p50 (ms)": b.LatencyMS.P50 / a.LatencyMS.P50,
		"p99 (ms)": b.LatencyMS.P99 / a.LatencyMS.P99, "max (ms)": b.LatencyMS.Max / a.LatencyMS.Max,
	} {
		if want := ratioText(ratio); got["INGESTION "+metric] != want {
			t.Errorf("comparison INGESTION %s: ratio %q, want %q (rows %v)", metric, got["INGESTION "+metric], want, got)
		}
	}
	if !strings.Contains(got["TIME_RANGE"], "not in B") {
		t.Errorf("comparison TIME_RANGE (only in A): %q", got["TIME_RANGE"])
	}
}

// A closed-model run carries the one-line warning that its latency
// excludes queueing time; an open-model run does not. Retries and
// reconnections are noted, and failures show their cause.
func TestClosedModelWarningRetriesAndCauses(t *testing.T) {
	runs := twoRuns()[1:]
	s := runs[0]
	s.OpenModel = false
	s.Operations[0].Retries = 7
	s.Reconnects = 3
	s.Operations[0].FailOperations = 1
	s.Operations[0].Failures = []summary.Failure{{Class: "refused", Cause: "connection", Example: "dial tcp: refused", Operations: 1}}
	page := render(t, runs)
	warning := html.EscapeString(summary.ClosedModelWarning)
	for _, want := range []string{warning, "Retries: INGESTION 7", "connections re-opened: 3", `<td class="l">connection</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	s.OpenModel = true
	if page := render(t, runs); strings.Contains(page, warning) {
		t.Error("an open-model run shows the closed-model warning")
	}
	s.NotSent = 562
	if page := render(t, runs); !strings.Contains(page, "Not sent: 562 operations fell due before the end and were never sent") {
		t.Error("the report does not say that operations fell due and were never sent")
	}
}

// A merged run shows its workers, and an incomplete one names the missing.
func TestMergedRunShowsItsWorkers(t *testing.T) {
	s := twoRuns()[0]
	s.Merge = &summary.Merge{Group: "nightly-42", Workers: 3, Missing: []int{1},
		Problems: []string{"worker 1 (run r1 on hostb) did not finish: its process ended while it ran"},
		Runs: []summary.MergedRun{{Index: 0, RunID: "r0", Hostname: "hosta", Status: "ok", Points: 1000, Operations: 10, OffsetMS: 1.5},
			{Index: 2, RunID: "r2", Hostname: "hostc", Status: "ok", Points: 2000, Operations: 20}}}
	s.Verify.Method = "counted once on the server over the 12 devices of 2 workers"
	page := render(t, []*summary.Summary{s})
	for _, want := range []string{`href="#workers"`, "2 of 3 workers of group nightly-42", "incomplete, worker(s) 1 missing",
		"<td class=\"l\">hostc</td>", "did not finish", "counted once on the server"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if s.Status() != "incomplete" {
		t.Fatalf("status %q", s.Status())
	}
}

// The verification line names the duplicates and the writes in doubt that
// widen what a correct server may hold.
func TestVerifyText(t *testing.T) {
	cases := []struct {
		v    *summary.Verify
		want string
	}{
		{nil, "not run"},
		{&summary.Verify{Skipped: "null keeps nothing"}, "skipped: null keeps nothing"},
		{&summary.Verify{ExpectedPoints: 5000, StoredPoints: 5000, OK: true}, "OK: stored 5,000 points, expected 5,000"},
		{&summary.Verify{ExpectedPoints: 5000, StoredPoints: 5050, InDoubtPoints: 100, OK: true},
			"OK: stored 5,050 points, expected 5,000; up to 100 more allowed: points of writes in doubt"},
		{&summary.Verify{ExpectedPoints: 5000, StoredPoints: 4999, InDoubtPoints: 100},
			"MISMATCH: stored 4,999 points, expected 5,000; up to 100 more allowed"},
	}
	for _, c := range cases {
		if got := verifyText(c.v); !strings.HasPrefix(got, c.want) {
			t.Errorf("verifyText(%+v) = %q, want it to start %q", c.v, got, c.want)
		}
	}
}

// Where a run's outputs went (its JSON file, its data directory) is not a
// difference in what was measured: "What differs" leaves it out, and names
// a real configuration difference.
func TestWhatDiffersLeavesOutOutputs(t *testing.T) {
	runs := twoRuns()
	runs[0].Config["json"], runs[1].Config["json"] = "ts1.json", "ts2.json"
	runs[0].Config["data_dir"], runs[1].Config["data_dir"] = "/tmp/a", "/tmp/b"
	diffs := differences(runs, diffTable(runs, configMap), nil)
	var keys []string
	for _, d := range diffs {
		keys = append(keys, d.Key)
	}
	got := strings.Join(keys, ",")
	if strings.Contains(got, "json") || strings.Contains(got, "data_dir") || !strings.Contains(got, "client_number") {
		t.Fatalf("differences %s: want client_number and no output path", got)
	}
}

// A run that stamped its answers' arrival shows each operation's client
// wait in a matrix of its own, beside the latency's; a run without it
// shows a dash there, and a report of runs without it has no such matrix.
func TestReportShowsClientWait(t *testing.T) {
	runs := twoRuns()
	if page := render(t, runs); strings.Contains(page, "Client wait") {
		t.Fatal("a report of runs without arrival stamps shows client wait")
	}
	runs[0].Operations[0].ClientWaitMS = &summary.Latency{P50: 0.012, P99: 0.31, Max: 2.5}
	page := html.UnescapeString(render(t, runs))
	i := strings.Index(page, "Client wait (ms, after the answer arrived; not in the latency) Matrix")
	if i < 0 {
		t.Fatalf("no client wait matrix in the report")
	}
	rows := page[i:]
	for _, want := range []string{"MEDIAN", "0.012", "P99", "0.310", "MAX", "2.500", "—"} {
		if !strings.Contains(rows, want) {
			t.Errorf("the client wait matrix lacks %q", want)
		}
	}
	if strings.Count(page, "Client wait (ms") != 1 {
		t.Errorf("%d client wait matrices, want one (the operation that has it)", strings.Count(page, "Client wait (ms"))
	}
}
