// Package htmlreport writes one or more runs as a single self-contained HTML
// file. With several runs it compares them, top to bottom: what differs
// between the runs (target, software, machine, configuration), the
// thresholds, the comparison table of 'tsbench compare' (ratio B/A,
// significance, verdict for every operation and metric), throughput over
// time as small multiples (one chart per operation, each on its own axis),
// then per operation its matrices with the runs side by side and the
// ratio, its latency over time and its latency percentile spectrum (from the
// stored HDR histograms), then resource use of the tool, the host and the
// database server, the published-vs-measured table of seed scenarios, and
// the full configuration and environment. A single run gets the same page
// without the comparison.
//
// The page needs no network: the chart library (Apache ECharts, vendored in
// assets/) is embedded in the binary and inlined into the file. Charts draw
// with ECharts' SVG renderer; once drawn, the page lists every chart with the
// number of data points it plotted in window.__tsbenchCharts and in the
// element #tsbench-chart-check, which the browser tests read.
package htmlreport

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/findmax"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
)

// EChartsVersion is the version of the embedded chart library.
const EChartsVersion = "5.6.0"

//go:embed assets/echarts.common.min.js
var echartsJS string

//go:embed report.html.tmpl
var pageTemplate string

//go:embed report.js
var pageJS string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"f2":                f2,
	"closedWarning":     func() string { return summary.ClosedModelWarning },
	"realTimeNote":      func() string { return summary.RealTimeNote },
	"num":               compare.FormatNumber,
	"int":               count,
	"pct":               func(share float64) string { return fmt.Sprintf("%.1f %%", share*100) },
	"inc":               func(i int) int { return i + 1 },
	"findMaxConclusion": findmax.Conclusion,
	"freshnessRows":     freshnessRows,
	"freshnessNote":     freshnessNote,
	"bytes":             bytesText,
	"time":              timeText,
	"hasPrefix":         strings.HasPrefix,
}).Parse(pageTemplate))

// Options tune the report.
type Options struct {
	Title     string    // default: "tsbench report: <ids>"
	Generated time.Time // default: now
	// Verdict is the command's outcome, when more than the runs' own
	// statuses decided it (answers compared across targets); default: read
	// from the runs' statuses.
	Verdict *Verdict
}

// Write renders the runs (the first is the baseline the others are
// compared with) as one HTML page.
func Write(w io.Writer, runs []*summary.Summary, opts Options) error {
	if len(runs) == 0 {
		return fmt.Errorf("no run to report")
	}
	m := build(runs, opts)
	return page.Execute(w, m)
}

// model is what the template renders.
type model struct {
	Title       string
	Generated   time.Time
	Version     string
	Verdict     verdictView
	Runs        []runView
	Others      []runView // the runs after the baseline, for ratio columns
	MatrixCols  int       // columns of an operation's matrix: metric, runs, ratios
	Multi       bool
	Differences []difference
	Compare     *comparison
	Thresholds  []thresholdRow
	Charts      chartData
	Ops         []opMatrix
	Resources   bool
	Config      []diffRow
	Env         []diffRow
	Published   bool
	OwnQueries  bool // some run ran the user's own queries (QUERY_FILE)
	Merged      bool // some run is a merge of workers' runs
	TPCC        bool // some run is a TPC-C run
	Failures    bool
	Stalls      bool // some run has stalls (summary.Stall)
	FindMax     bool // some run is the best step of a find-max search
	Freshness   bool // some run had the freshness probe (summary.Freshness)
	OpenModel   bool
	ECharts     template.JS
	Script      template.JS
}

type runView struct {
	Label string // A, B, ...
	Index int
	*summary.Summary
	Status string
	Verify string
	// Verdicts are the console's lines that judge the run
	// (report.Verdicts), shown at the top of the page.
	Verdicts []string
	Points   int64
	Notes    []string
	Service  bool
}

// label is the run's letter, then A..Z, AA, AB, ...
func label(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return label(i/26-1) + label(i%26)
}

func build(runs []*summary.Summary, opts Options) model {
	m := model{Title: opts.Title, Generated: opts.Generated, Multi: len(runs) > 1,
		ECharts: template.JS(echartsJS), Script: template.JS(pageJS), Version: EChartsVersion}
	if m.Generated.IsZero() {
		m.Generated = time.Now()
	}
	var ids []string
	for i, s := range runs {
		v := newRunView(i, s)
		m.OpenModel = m.OpenModel || s.OpenModel
		m.Published = m.Published || len(s.Published) > 0
		m.OwnQueries = m.OwnQueries || s.QueryFile != nil
		m.Merged = m.Merged || s.Merge != nil
		m.TPCC = m.TPCC || s.TPCC != nil
		m.Failures = m.Failures || s.Failed()
		m.Stalls = m.Stalls || len(s.Stalls) > 0
		m.FindMax = m.FindMax || s.FindMax != nil
		m.Freshness = m.Freshness || s.Freshness != nil
		m.Runs = append(m.Runs, v)
		ids = append(ids, s.RunID)
	}
	m.Others = m.Runs[1:]
	m.Verdict = buildVerdict(m.Runs, opts.Verdict)
	m.MatrixCols = 1 + len(m.Runs) + len(m.Others)
	if m.Title == "" {
		m.Title = "tsbench report: " + strings.Join(ids, ", ")
	}
	ops := summary.OperationNames(runs)
	m.Charts, m.Resources = charts(m.Runs, ops)
	m.Ops = opMatrices(runs, ops, m.OpenModel)
	m.Thresholds = thresholdRows(runs)
	m.Config = diffTable(runs, configMap)
	m.Env = diffTable(runs, envMap)
	m.Differences = differences(runs, m.Config, m.Env)
	m.Compare = buildComparison(runs)
	return m
}

func newRunView(i int, s *summary.Summary) runView {
	v := runView{Label: label(i), Index: i, Summary: s, Status: string(s.Status()), Verify: verifyText(s.Verify),
		Verdicts: report.Verdicts(s)}
	for _, o := range s.Operations {
		v.Points += o.OKPoints
		v.Service = v.Service || o.ServiceMS != nil
	}
	if n := s.RetriesNote(); n != "" {
		v.Notes = append(v.Notes, n)
	}
	if r := s.Resources; r != nil {
		if r.Server != nil {
			v.Notes = append(v.Notes, fmt.Sprintf("server process %d (%s) from %s, with its descendants", r.Server.PID, r.Server.Name, r.Server.Source))
		}
		for _, e := range r.Errors {
			v.Notes = append(v.Notes, "not sampled: "+e)
		}
		if len(r.Remote) > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("%s samples from 'tsbench monitor' on %s merged by time", count(int64(len(r.Remote))), r.Remote[0].Hostname))
		}
	}
	return v
}

func verifyText(v *summary.Verify) string {
	switch {
	case v == nil:
		return "not run"
	case v.Skipped != "":
		return "skipped: " + v.Skipped
	case v.Error != "":
		return "could not count: " + v.Error
	}
	verdict := "MISMATCH"
	if v.OK {
		verdict = "OK"
	}
	text := fmt.Sprintf("%s: stored %s points, expected %s", verdict, count(v.StoredPoints), count(v.ExpectedPoints))
	if v.ExpectedSeries > 0 {
		text += fmt.Sprintf(", in %s series, expected %s", count(v.StoredSeries), count(v.ExpectedSeries))
	}
	if v.Method != "" {
		text += " (" + v.Method + ")"
	}
	if v.DuplicatePoints > 0 {
		text += fmt.Sprintf("; %s written points repeat an earlier series and time of the data (expected once)", count(v.DuplicatePoints))
	}
	if v.InDoubtPoints > 0 {
		text += fmt.Sprintf("; up to %s more allowed: points of writes in doubt (which timed out or lost their connection after sending)", count(v.InDoubtPoints))
	}
	if len(v.Queries) > 0 {
		agree := 0
		var bad []string
		for _, q := range v.Queries {
			if q.OK {
				agree++
			} else if q.Error == "" {
				bad = append(bad, "MISMATCH "+q.Query+": "+q.Detail)
			} else {
				bad = append(bad, q.Query+" failed: "+q.Error)
			}
		}
		text += fmt.Sprintf("; query answers: %d of %d agree with the data written", agree, len(v.Queries))
		if len(bad) > 0 {
			text += " (" + strings.Join(bad, "; ") + ")"
		}
	}
	return text
}

// diffRow is one key of the configuration or environment table, with each
// run's value; Differs marks keys whose values are not all equal.
type diffRow struct {
	Key     string
	Values  []string
	Differs bool
}

func diffTable(runs []*summary.Summary, values func(*summary.Summary) map[string]string) []diffRow {
	maps := make([]map[string]string, len(runs))
	keys := map[string]bool{}
	for i, s := range runs {
		maps[i] = values(s)
		for k := range maps[i] {
			keys[k] = true
		}
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []diffRow
	for _, k := range names {
		r := diffRow{Key: k}
		for i := range runs {
			v, ok := maps[i][k]
			if !ok {
				v = "—"
			}
			r.Values = append(r.Values, v)
			if i > 0 && v != r.Values[0] {
				r.Differs = true
			}
		}
		out = append(out, r)
	}
	return out
}

func envMap(s *summary.Summary) map[string]string {
	e := s.Environment
	m := map[string]string{
		"hostname": e.Hostname, "os": e.OS, "kernel": e.Kernel, "cpu_model": e.CPUModel,
		"cores": count(int64(e.Cores)), "memory": bytesText(int64(e.MemoryBytes)), "go_version": e.GoVersion,
		"server_version": e.ServerVersion, "tool_version": s.Tool.Version,
	}
	if s.Tool.EmbeddedEngine != "" {
		m["embedded_engine"] = s.Tool.EmbeddedEngine
	}
	for k, v := range m {
		if v == "" {
			delete(m, k)
		}
	}
	return m
}

// configMap is a run's configuration as the page prints it.
func configMap(s *summary.Summary) map[string]string {
	out := make(map[string]string, len(s.Config))
	for k, v := range s.Config {
		out[k] = configValue(k, v)
	}
	return out
}

// ChartsJSON returns the chart data of a report, as the page embeds it (for
// tests and tools).
func ChartsJSON(runs []*summary.Summary) ([]byte, error) {
	m := build(runs, Options{})
	return json.Marshal(m.Charts)
}
