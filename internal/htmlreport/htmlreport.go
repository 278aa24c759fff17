// Package htmlreport writes one or more runs as a single self-contained HTML
// file: throughput and latency over time, each operation's latency
// percentile spectrum (from the stored HDR histograms), resource use of the
// tool, the host and the database server over time, the result matrices,
// thresholds, the published-vs-measured table of seed scenarios, and the
// configuration and environment. Several runs are overlaid in every chart.
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
	"math"
	"sort"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
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
	"f2":        func(v float64) string { return fmt.Sprintf("%.2f", v) },
	"num":       formatNumber,
	"int":       func(v int64) string { return report.GroupThousands(fmt.Sprint(v)) },
	"bytes":     formatBytes,
	"time":      func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"hasPrefix": strings.HasPrefix,
}).Parse(pageTemplate))

// Options tune the report.
type Options struct {
	Title     string    // default: "tsbench report: <ids>"
	Generated time.Time // default: now
}

// Write renders the runs (the first is the reference for the configuration
// table) as one HTML page.
func Write(w io.Writer, runs []*summary.Summary, opts Options) error {
	if len(runs) == 0 {
		return fmt.Errorf("no run to report")
	}
	m := build(runs, opts)
	return page.Execute(w, m)
}

// model is what the template renders.
type model struct {
	Title     string
	Generated time.Time
	Version   string
	Runs      []runView
	Multi     bool
	Charts    chartData
	OpNames   []string
	Resources bool
	Config    []diffRow
	Env       []diffRow
	Published bool
	Threshold bool
	Failures  bool
	OpenModel bool
	ECharts   template.JS
	Script    template.JS
}

type runView struct {
	Label string // A, B, ...
	Index int
	*summary.Summary
	Status  string
	Verify  string
	Points  int64
	Notes   []string
	Service bool
}

// chartData is the JSON the page script turns into charts.
type chartData struct {
	// Runs is the number of runs: with several, a series' colour follows
	// its Key (the operation or the figure) and its line style its run.
	Runs     int       `json:"runs"`
	Sections []section `json:"sections"`
}

type section struct {
	ID     string      `json:"id"`
	Charts []chartSpec `json:"charts"`
}

type chartSpec struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Subtitle string   `json:"subtitle,omitempty"`
	XName    string   `json:"xName"`
	YName    string   `json:"yName"`
	XKind    string   `json:"xKind"` // "seconds" or "percentile"
	YLog     bool     `json:"yLog"`
	Series   []series `json:"series"`
}

type series struct {
	Name     string       `json:"name"`
	Run      string       `json:"run"`
	RunIndex int          `json:"runIndex"`
	Key      string       `json:"key"`
	Dashed   bool         `json:"dashed,omitempty"`
	Data     [][2]float64 `json:"data"`
}

func (c *chartSpec) add(s series) {
	if len(s.Data) > 0 {
		c.Series = append(c.Series, s)
	}
}

// mk makes a series of run r showing key (its colour with several runs).
func mk(multi bool, r runView, key string, dashed bool, data [][2]float64) series {
	return series{Name: seriesName(multi, r.Label, key), Run: r.Label, RunIndex: r.Index, Key: key, Dashed: dashed, Data: data}
}

func (c chartSpec) points() int {
	n := 0
	for _, s := range c.Series {
		n += len(s.Data)
	}
	return n
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
		v := runView{Label: label(i), Index: i, Summary: s, Status: s.Status(), Verify: verifyText(s.Verify)}
		for _, o := range s.Operations {
			v.Points += o.OKPoints
			if o.ServiceMS != nil {
				v.Service = true
			}
			if len(o.Failures) > 0 {
				m.Failures = true
			}
		}
		if r := s.Resources; r != nil {
			if r.Server != nil {
				v.Notes = append(v.Notes, fmt.Sprintf("server process %d (%s) from %s, with its descendants", r.Server.PID, r.Server.Name, r.Server.Source))
			}
			for _, e := range r.Errors {
				v.Notes = append(v.Notes, "not sampled: "+e)
			}
			if len(r.Remote) > 0 {
				v.Notes = append(v.Notes, fmt.Sprintf("%d samples from 'tsbench monitor' on %s merged by time", len(r.Remote), r.Remote[0].Hostname))
			}
		}
		m.OpenModel = m.OpenModel || s.OpenModel
		m.Published = m.Published || len(s.Published) > 0
		m.Threshold = m.Threshold || len(s.Thresholds) > 0
		m.Runs = append(m.Runs, v)
		ids = append(ids, s.RunID)
	}
	if m.Title == "" {
		m.Title = "tsbench report: " + strings.Join(ids, ", ")
	}
	m.OpNames = opNames(runs)
	m.Charts, m.Resources = charts(m.Runs, m.OpNames)
	m.Config = diffTable(runs, func(s *summary.Summary) map[string]string {
		out := map[string]string{}
		for k, v := range s.Config {
			out[k] = fmt.Sprint(v)
		}
		return out
	})
	m.Env = diffTable(runs, envMap)
	return m
}

func verifyText(v *summary.Verify) string {
	switch {
	case v == nil:
		return "not run"
	case v.Skipped != "":
		return "skipped: " + v.Skipped
	case v.Error != "":
		return "could not count: " + v.Error
	case v.OK:
		return fmt.Sprintf("OK: stored %s points, expected %s", report.GroupThousands(fmt.Sprint(v.StoredPoints)), report.GroupThousands(fmt.Sprint(v.ExpectedPoints)))
	}
	return fmt.Sprintf("MISMATCH: stored %s points, expected %s", report.GroupThousands(fmt.Sprint(v.StoredPoints)), report.GroupThousands(fmt.Sprint(v.ExpectedPoints)))
}

func opNames(runs []*summary.Summary) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range runs {
		for _, o := range s.Operations {
			if !seen[o.Name] {
				seen[o.Name] = true
				out = append(out, o.Name)
			}
		}
	}
	return out
}

// seriesName names a series: the run's letter when several runs share the
// chart, then what it shows.
func seriesName(multi bool, run, what string) string {
	if multi {
		return run + " · " + what
	}
	return what
}

func charts(runs []runView, ops []string) (chartData, bool) {
	multi := len(runs) > 1
	tput := chartSpec{ID: "throughput", Title: "Throughput over time", XName: "s", YName: "points/s", XKind: "seconds",
		Subtitle: "acknowledged points (writes) or returned points (queries) per second of the measured phase"}
	opsChart := chartSpec{ID: "operations", Title: "Operations per second", XName: "s", YName: "operations/s", XKind: "seconds",
		Subtitle: "successful operations per second; failed ones dashed"}
	for _, r := range runs {
		for _, op := range ops {
			var pts, okOps, fail [][2]float64
			anyFail := false
			for _, iv := range plotted(r.Intervals) {
				x := round3(iv.Start + iv.Seconds)
				var o *summary.IntervalOp
				for i := range iv.Ops {
					if iv.Ops[i].Name == op {
						o = &iv.Ops[i]
					}
				}
				var p, k, f float64
				if o != nil {
					p, k, f = float64(o.OKPoints)/iv.Seconds, float64(o.OKOps)/iv.Seconds, float64(o.FailOps)/iv.Seconds
					anyFail = anyFail || o.FailOps > 0
				}
				pts = append(pts, [2]float64{x, round3(p)})
				okOps = append(okOps, [2]float64{x, round3(k)})
				fail = append(fail, [2]float64{x, round3(f)})
			}
			if r.Op(op) == nil {
				continue
			}
			tput.add(mk(multi, r, op, false, pts))
			opsChart.add(mk(multi, r, op, false, okOps))
			if anyFail {
				opsChart.add(mk(multi, r, op+" failed", true, fail))
			}
		}
	}
	data := chartData{Runs: len(runs)}
	data.Sections = append(data.Sections, section{ID: "overview", Charts: nonEmpty(tput, opsChart)})
	for _, op := range ops {
		lat := chartSpec{ID: "latency-" + op, Title: op + ": latency over time", XName: "s", YName: "ms", XKind: "seconds", YLog: true,
			Subtitle: "p50, p99 and max of each second (log scale)"}
		spec := chartSpec{ID: "spectrum-" + op, Title: op + ": latency percentile spectrum", XName: "percentile", YName: "ms",
			XKind: "percentile", YLog: true, Subtitle: "whole measured phase, from the HDR histogram"}
		for _, r := range runs {
			if r.Op(op) == nil {
				continue
			}
			var p50, p99, mx [][2]float64
			for _, iv := range plotted(r.Intervals) {
				for _, o := range iv.Ops {
					if o.Name != op || o.OKOps == 0 {
						continue
					}
					x := round3(iv.Start + iv.Seconds)
					p50 = append(p50, [2]float64{x, o.P50MS})
					p99 = append(p99, [2]float64{x, o.P99MS})
					mx = append(mx, [2]float64{x, o.MaxMS})
				}
			}
			lat.add(mk(multi, r, "p50", false, p50))
			lat.add(mk(multi, r, "p99", false, p99))
			lat.add(mk(multi, r, "max", true, mx))
			spec.add(mk(multi, r, op, false, spectrum(r.Op(op))))
		}
		data.Sections = append(data.Sections, section{ID: "op-" + op, Charts: nonEmpty(lat, spec)})
	}
	res := resourceCharts(runs)
	if len(res) > 0 {
		data.Sections = append(data.Sections, section{ID: "resources", Charts: res})
	}
	return data, len(res) > 0
}

// minPlotted leaves out intervals shorter than this (the last one, cut
// short by the end of the run): a rate over a few milliseconds is noise.
const minPlotted = 0.5

// plotted are the intervals the time-series charts show: those of at least
// minPlotted seconds, or all of them when none is that long.
func plotted(ivs []summary.Interval) []summary.Interval {
	var out []summary.Interval
	for _, iv := range ivs {
		if iv.Seconds >= minPlotted {
			out = append(out, iv)
		}
	}
	if len(out) == 0 {
		for _, iv := range ivs {
			if iv.Seconds > 0 {
				out = append(out, iv)
			}
		}
	}
	return out
}

func nonEmpty(cs ...chartSpec) []chartSpec {
	var out []chartSpec
	for _, c := range cs {
		if c.points() > 0 {
			out = append(out, c)
		}
	}
	return out
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// spectrum returns (1/(1-q), latency ms) points of the percentile spectrum:
// five points per decade of 1/(1-q) (90 %, 99 %, 99.9 % ...) up to what the
// number of operations supports, then the maximum.
func spectrum(o *summary.Operation) [][2]float64 {
	if o == nil || o.Histogram == "" {
		return nil
	}
	h, err := metrics.Decode(o.Histogram)
	if err != nil || h.TotalCount() == 0 {
		return nil
	}
	n := float64(h.TotalCount())
	lo, hi := o.LatencyMS.Min, o.LatencyMS.Max
	var out [][2]float64
	prev := lo
	for k := 0; ; k++ {
		x := math.Pow(10, float64(k)/5)
		if x > n {
			break
		}
		q := 100 * (1 - 1/x)
		v := float64(h.ValueAtQuantile(q)) / 1000
		if k == 0 {
			v = lo
		}
		// Clamp into the exact [MIN, MAX] and keep it non-decreasing, as
		// the matrices do.
		v = math.Min(math.Max(v, prev), hi)
		prev = v
		out = append(out, [2]float64{round3(x), v})
	}
	if len(out) == 0 || hi > 0 {
		out = append(out, [2]float64{round3(math.Max(n, 1)), hi})
	}
	return out
}

// resourceCharts plots CPU (in cores), memory, disk and network over time.
func resourceCharts(runs []runView) []chartSpec {
	multi := len(runs) > 1
	cpu := chartSpec{ID: "cpu", Title: "CPU", XName: "s", YName: "cores busy", XKind: "seconds",
		Subtitle: "1 = one core fully busy; the host line counts every process"}
	memory := chartSpec{ID: "memory", Title: "Memory", XName: "s", YName: "MiB", XKind: "seconds",
		Subtitle: "resident memory of the tool and the server; memory in use on the host"}
	disk := chartSpec{ID: "disk", Title: "Disk I/O", XName: "s", YName: "MB/s", XKind: "seconds",
		Subtitle: "bytes read and written per second (host: whole disks; server: its processes)"}
	netw := chartSpec{ID: "network", Title: "Network I/O", XName: "s", YName: "MB/s", XKind: "seconds",
		Subtitle: "bytes received and sent per second over every interface, loopback included"}
	for _, r := range runs {
		if r.Resources == nil {
			continue
		}
		groups := []struct {
			prefix  string
			samples []summary.ResourceSample
		}{{"", r.Resources.Samples}}
		if len(r.Resources.Remote) > 0 {
			groups = append(groups, struct {
				prefix  string
				samples []summary.ResourceSample
			}{"db host " + r.Resources.Remote[0].Hostname + " ", r.Resources.Remote})
		}
		for _, g := range groups {
			type line struct {
				chart  *chartSpec
				name   string
				dashed bool
				value  func(s summary.ResourceSample) (float64, bool)
			}
			lines := []line{
				{&cpu, "tool", false, func(s summary.ResourceSample) (float64, bool) {
					return pct(s.Tool, func(p *summary.ProcessUsage) float64 { return p.CPUPercent / 100 })
				}},
				{&cpu, "server", false, func(s summary.ResourceSample) (float64, bool) {
					return pct(s.Server, func(p *summary.ProcessUsage) float64 { return p.CPUPercent / 100 })
				}},
				{&cpu, "host", true, func(s summary.ResourceSample) (float64, bool) {
					if s.Host == nil {
						return 0, false
					}
					return s.Host.CPUPercent * float64(max(s.Host.Cores, 1)) / 100, true
				}},
				{&memory, "tool RSS", false, func(s summary.ResourceSample) (float64, bool) {
					return pct(s.Tool, func(p *summary.ProcessUsage) float64 { return float64(p.RSSBytes) / (1 << 20) })
				}},
				{&memory, "server RSS", false, func(s summary.ResourceSample) (float64, bool) {
					return pct(s.Server, func(p *summary.ProcessUsage) float64 { return float64(p.RSSBytes) / (1 << 20) })
				}},
				{&memory, "host used", true, func(s summary.ResourceSample) (float64, bool) {
					if s.Host == nil {
						return 0, false
					}
					return float64(s.Host.MemUsedBytes) / (1 << 20), true
				}},
				{&disk, "host read", false, hostRate(func(h *summary.HostUsage) float64 { return h.DiskReadBytesPerS })},
				{&disk, "host write", false, hostRate(func(h *summary.HostUsage) float64 { return h.DiskWriteBytesPerS })},
				{&disk, "server read", true, func(s summary.ResourceSample) (float64, bool) {
					return pct(s.Server, func(p *summary.ProcessUsage) float64 { return p.ReadBytesPerS / 1e6 })
				}},
				{&disk, "server write", true, func(s summary.ResourceSample) (float64, bool) {
					return pct(s.Server, func(p *summary.ProcessUsage) float64 { return p.WriteBytesPerS / 1e6 })
				}},
				{&netw, "received", false, hostRate(func(h *summary.HostUsage) float64 { return h.NetRecvBytesPerS })},
				{&netw, "sent", true, hostRate(func(h *summary.HostUsage) float64 { return h.NetSentBytesPerS })},
			}
			for _, l := range lines {
				var data [][2]float64
				for _, s := range g.samples {
					if v, ok := l.value(s); ok {
						data = append(data, [2]float64{round3(s.T), round3(v)})
					}
				}
				l.chart.add(mk(multi, r, g.prefix+l.name, l.dashed, data))
			}
		}
	}
	return nonEmpty(cpu, memory, disk, netw)
}

func pct(p *summary.ProcessUsage, f func(*summary.ProcessUsage) float64) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return f(p), true
}

func hostRate(f func(*summary.HostUsage) float64) func(summary.ResourceSample) (float64, bool) {
	return func(s summary.ResourceSample) (float64, bool) {
		if s.Host == nil {
			return 0, false
		}
		return f(s.Host) / 1e6, true
	}
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
		"cores": fmt.Sprint(e.Cores), "memory": formatBytes(int64(e.MemoryBytes)), "go_version": e.GoVersion,
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

func formatNumber(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1000:
		return report.GroupThousands(fmt.Sprintf("%.0f", v))
	}
	return fmt.Sprintf("%.2f", v)
}

func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// ChartsJSON returns the chart data of a report, as the page embeds it (for
// tests and tools).
func ChartsJSON(runs []*summary.Summary) ([]byte, error) {
	m := build(runs, Options{})
	return json.Marshal(m.Charts)
}
