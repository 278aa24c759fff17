package htmlreport

import (
	"cmp"
	"math"
	"slices"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
)

// chartData is the JSON the page script turns into charts.
type chartData struct {
	// Runs is the number of runs: with several, a series' line style
	// follows its run, and its colour what it shows (its Key) — or its run,
	// in a chart where every series shows the same thing.
	Runs     int       `json:"runs"`
	Sections []section `json:"sections"`
}

// section is the charts drawn into one container of the page
// (#charts-<ID>).
type section struct {
	ID     string      `json:"id"`
	Charts []chartSpec `json:"charts"`
}

type chartSpec struct {
	ID       string `json:"id"`
	Op       string `json:"op,omitempty"` // the operation it belongs to, if any
	Title    string `json:"title"`
	Subtitle string `json:"subtitle,omitempty"`
	XName    string `json:"xName"`
	YName    string `json:"yName"`
	XKind    string `json:"xKind"` // "seconds" or "percentile"
	YLog     bool   `json:"yLog"`
	// Small charts are the small multiples: one per operation, each on
	// its own y axis, so a query kind answering 30 queries/s is not drawn
	// flat under writes of 400,000 points/s.
	Small  bool     `json:"small,omitempty"`
	Series []series `json:"series"`
	// Bands shade stretches of the x axis: the runs' stalls, on charts
	// over time.
	Bands []band `json:"bands,omitempty"`
}

// band is a shaded stretch [From, To] of a chart's x axis.
type band struct {
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Label string  `json:"label"`
}

// addStalls shades r's stalls on c.
func (c *chartSpec) addStalls(multi bool, r runView) {
	for _, st := range r.Stalls {
		c.Bands = append(c.Bands, band{From: round3(st.Start), To: round3(st.Start + st.Seconds), Label: seriesName(multi, r.Label, "stall")})
	}
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

// seriesName names a series: the run's letter when several runs share the
// chart, then what it shows.
func seriesName(multi bool, run, what string) string {
	switch {
	case !multi:
		return what
	case what == "":
		return run
	}
	return run + " · " + what
}

func charts(runs []runView, ops []string) (chartData, bool) {
	data := chartData{Runs: len(runs)}
	if tput := throughputCharts(runs, ops); len(tput) > 0 {
		data.Sections = append(data.Sections, section{ID: "throughput", Charts: tput})
	}
	for _, op := range ops {
		data.Sections = append(data.Sections, section{ID: "op-" + op, Charts: opCharts(runs, op)})
	}
	if fm := findMaxCharts(runs); len(fm) > 0 {
		data.Sections = append(data.Sections, section{ID: "findmax", Charts: fm})
	}
	if sweep := sweepCharts(runs); len(sweep) > 0 {
		data.Sections = append(data.Sections, section{ID: "tpcc", Charts: sweep})
	}
	res := resourceCharts(runs)
	if len(res) > 0 {
		data.Sections = append(data.Sections, section{ID: "resources", Charts: res})
	}
	return data, len(res) > 0
}

// intervalOp is op's figures in iv, nil when it did nothing then.
func intervalOp(iv summary.Interval, op string) *summary.IntervalOp {
	for i := range iv.Ops {
		if iv.Ops[i].Name == op {
			return &iv.Ops[i]
		}
	}
	return nil
}

// throughputCharts are the small multiples of throughput, one per
// operation, every run in each: points per second for writes, queries per
// second for queries, whose points are their answers' (summary.Rate).
func throughputCharts(runs []runView, ops []string) []chartSpec {
	multi := len(runs) > 1
	var out []chartSpec
	for _, op := range ops {
		unit := runs[0].RateUnit(op)
		c := chartSpec{ID: "throughput-" + op, Op: op, Title: op, XName: "s", YName: unit, XKind: "seconds", Small: true}
		for _, r := range runs {
			if r.Op(op) == nil {
				continue
			}
			var pts [][2]float64
			for _, iv := range plotted(r.Intervals) {
				p := summary.IntervalRate(unit, iv, intervalOp(iv, op))
				pts = append(pts, [2]float64{round3(iv.Start + iv.Seconds), round3(p)})
			}
			c.add(mk(multi, r, "", false, pts))
			c.addStalls(multi, r)
		}
		out = append(out, nonEmpty(c)...)
	}
	return out
}

// opCharts are an operation's latency over time and percentile spectrum,
// and its failures per second when it had any.
func opCharts(runs []runView, op string) []chartSpec {
	multi := len(runs) > 1
	lat := chartSpec{ID: "latency-" + op, Op: op, Title: "Latency over time", XName: "s", YName: "ms", XKind: "seconds", YLog: true,
		Subtitle: "p50, p99 and max of each second (log scale)"}
	spec := chartSpec{ID: "spectrum-" + op, Op: op, Title: "Latency percentile spectrum", XName: "percentile", YName: "ms",
		XKind: "percentile", YLog: true, Subtitle: "whole measured phase, from the HDR histogram"}
	fail := chartSpec{ID: "failures-" + op, Op: op, Title: "Failed operations per second", XName: "s", YName: "operations/s", XKind: "seconds"}
	for _, r := range runs {
		if r.Op(op) == nil {
			continue
		}
		p50, p99, mx, failed := latencySeries(r.Intervals, op)
		lat.add(mk(multi, r, "p50", false, p50))
		lat.add(mk(multi, r, "p99", false, p99))
		lat.add(mk(multi, r, "max", true, mx))
		lat.addStalls(multi, r)
		spec.add(mk(multi, r, "", false, spectrum(r.Op(op))))
		if r.Op(op).FailOperations > 0 {
			fail.add(mk(multi, r, "", false, failed))
		}
	}
	return nonEmpty(lat, spec, fail)
}

// latencySeries are op's p50, p99 and max of each plotted second with a
// success, and its failures per second over all of them.
func latencySeries(ivs []summary.Interval, op string) (p50, p99, mx, failed [][2]float64) {
	for _, iv := range plotted(ivs) {
		x := round3(iv.Start + iv.Seconds)
		o := intervalOp(iv, op)
		var f float64
		if o != nil {
			f = float64(o.FailOps) / iv.Seconds
		}
		failed = append(failed, [2]float64{x, round3(f)})
		if o == nil || o.OKOps == 0 {
			continue
		}
		p50 = append(p50, [2]float64{x, o.P50MS})
		p99 = append(p99, [2]float64{x, o.P99MS})
		mx = append(mx, [2]float64{x, o.MaxMS})
	}
	return p50, p99, mx, failed
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

// megabyte is the report's unit of bytes, decimal as on the console
// (report.HumanBytes prints "84.4 MB"), so the two can be compared.
const megabyte = 1e6

// resourceLine is one line of a resource chart.
type resourceLine struct {
	chart  string
	name   string
	dashed bool
	value  func(s summary.ResourceSample) (float64, bool)
}

func procValue(sel func(s summary.ResourceSample) *summary.ProcessUsage, f func(*summary.ProcessUsage) float64) func(summary.ResourceSample) (float64, bool) {
	return func(s summary.ResourceSample) (float64, bool) {
		if p := sel(s); p != nil {
			return f(p), true
		}
		return 0, false
	}
}

func hostValue(f func(*summary.HostUsage) float64) func(summary.ResourceSample) (float64, bool) {
	return func(s summary.ResourceSample) (float64, bool) {
		if s.Host == nil {
			return 0, false
		}
		return f(s.Host), true
	}
}

func tool(s summary.ResourceSample) *summary.ProcessUsage   { return s.Tool }
func server(s summary.ResourceSample) *summary.ProcessUsage { return s.Server }

var resourceLines = []resourceLine{
	{"cpu", "tool", false, procValue(tool, func(p *summary.ProcessUsage) float64 { return p.CPUPercent / 100 })},
	{"cpu", "server", false, procValue(server, func(p *summary.ProcessUsage) float64 { return p.CPUPercent / 100 })},
	{"cpu", "host", true, hostValue(func(h *summary.HostUsage) float64 { return h.CPUPercent * float64(max(h.Cores, 1)) / 100 })},
	{"memory", "tool RSS", false, procValue(tool, func(p *summary.ProcessUsage) float64 { return float64(p.RSSBytes) / megabyte })},
	{"memory", "server RSS", false, procValue(server, func(p *summary.ProcessUsage) float64 { return float64(p.RSSBytes) / megabyte })},
	{"memory", "host used", true, hostValue(func(h *summary.HostUsage) float64 { return float64(h.MemUsedBytes) / megabyte })},
	{"disk", "host read", false, hostValue(func(h *summary.HostUsage) float64 { return h.DiskReadBytesPerS / megabyte })},
	{"disk", "host write", false, hostValue(func(h *summary.HostUsage) float64 { return h.DiskWriteBytesPerS / megabyte })},
	{"disk", "server read", true, procValue(server, func(p *summary.ProcessUsage) float64 { return p.ReadBytesPerS / megabyte })},
	{"disk", "server write", true, procValue(server, func(p *summary.ProcessUsage) float64 { return p.WriteBytesPerS / megabyte })},
	{"network", "received", false, hostValue(func(h *summary.HostUsage) float64 { return h.NetRecvBytesPerS / megabyte })},
	{"network", "sent", true, hostValue(func(h *summary.HostUsage) float64 { return h.NetSentBytesPerS / megabyte })},
}

// sampleGroup is one host's samples of a run: this host's, or those
// 'tsbench monitor' took on the database host.
type sampleGroup struct {
	prefix  string
	samples []summary.ResourceSample
}

func sampleGroups(r *summary.Resources) []sampleGroup {
	groups := []sampleGroup{{"", r.Samples}}
	if len(r.Remote) > 0 {
		groups = append(groups, sampleGroup{"db host " + r.Remote[0].Hostname + " ", r.Remote})
	}
	return groups
}

// resourceCharts plots CPU (in cores), memory, disk and network over time.
// A resource the run did not have is left out: the network of an embedded
// database, a line that is zero throughout in every run (the disk reads of
// a server that kept to its cache), and so a chart left without lines,
// which would show an empty frame.
func resourceCharts(runs []runView) []chartSpec {
	multi := len(runs) > 1
	charts := map[string]*chartSpec{
		"cpu": {ID: "cpu", Title: "CPU", XName: "s", YName: "cores busy", XKind: "seconds",
			Subtitle: "1 = one core fully busy; the host line counts every process"},
		"memory": {ID: "memory", Title: "Memory", XName: "s", YName: "MB", XKind: "seconds",
			Subtitle: "resident memory of the tool and the server; memory in use on the host"},
		"disk": {ID: "disk", Title: "Disk I/O", XName: "s", YName: "MB/s", XKind: "seconds",
			Subtitle: "bytes read and written per second (host: whole disks; server: its processes)"},
		"network": {ID: "network", Title: "Network I/O", XName: "s", YName: "MB/s", XKind: "seconds",
			Subtitle: "bytes received and sent per second over every interface, loopback included"},
	}
	for _, r := range runs {
		if r.Resources == nil {
			continue
		}
		for _, g := range sampleGroups(r.Resources) {
			for _, l := range resourceLines {
				if l.chart == "network" && g.prefix == "" && r.Tool.EmbeddedEngine != "" {
					// The database ran inside tsbench and used no
					// network: this host's counters would only show
					// unrelated traffic, an "empty" chart of noise.
					continue
				}
				charts[l.chart].add(mk(multi, r, g.prefix+l.name, l.dashed, sampleSeries(g.samples, l.value)))
			}
		}
	}
	var out []chartSpec
	for _, id := range []string{"cpu", "memory", "disk", "network"} {
		c := charts[id]
		c.Series = withoutZeroKeys(c.Series)
		out = append(out, nonEmpty(*c)...)
	}
	return out
}

func sampleSeries(samples []summary.ResourceSample, value func(summary.ResourceSample) (float64, bool)) [][2]float64 {
	var data [][2]float64
	for _, s := range samples {
		if v, ok := value(s); ok {
			data = append(data, [2]float64{round3(s.T), round3(v)})
		}
	}
	return data
}

// withoutZeroKeys drops the series of every key that is zero throughout in
// all runs; a key non-zero in one run keeps its zero line in the others,
// since there the zero is the comparison.
func withoutZeroKeys(ss []series) []series {
	nonZero := map[string]bool{}
	for _, s := range ss {
		for _, p := range s.Data {
			if p[1] != 0 {
				nonZero[s.Key] = true
				break
			}
		}
	}
	var out []series
	for _, s := range ss {
		if nonZero[s.Key] {
			out = append(out, s)
		}
	}
	return out
}

// sweepCharts draw a TPC-C scenario's connections sweep (tpmC and p90
// latency by number of connections), one line per run that carries one.
func sweepCharts(runs []runView) []chartSpec {
	multi := len(runs) > 1
	tpm := chartSpec{ID: "sweep-tpmc", Title: "tpmC by connections", Subtitle: "TPC-C New-Orders per minute, disk tables",
		XName: "connections", YName: "tpmC", XKind: "value"}
	p90 := chartSpec{ID: "sweep-p90", Title: "p90 latency by connections", Subtitle: "all five transaction types",
		XName: "connections", YName: "ms", XKind: "value"}
	for _, r := range runs {
		if r.TPCC == nil || len(r.TPCC.Sweep) == 0 {
			continue
		}
		var t, l [][2]float64
		for _, p := range r.TPCC.Sweep {
			t = append(t, [2]float64{float64(p.Connections), round3(p.TpmC)})
			l = append(l, [2]float64{float64(p.Connections), round3(p.P90MS)})
		}
		tpm.add(mk(multi, r, "", false, t))
		p90.add(mk(multi, r, "", false, l))
	}
	return nonEmpty(tpm, p90)
}

// findMaxCharts draw each find-max search's curve: achieved against
// offered rate (with the offered rate itself, the line a sustained step
// lies on), and the latencies of each step, in the order of rate.
func findMaxCharts(runs []runView) []chartSpec {
	multi := len(runs) > 1
	tput := chartSpec{ID: "findmax-rate", Title: "Achieved vs offered rate", XName: "offered ops/s", YName: "ops/s", XKind: "rate",
		Subtitle: "one point per step of the search"}
	lat := chartSpec{ID: "findmax-latency", Title: "Latency per step", XName: "offered ops/s", YName: "ms", XKind: "rate", YLog: true,
		Subtitle: "p50 and p99 of each step's headline operation (log scale)"}
	for _, r := range runs {
		if r.FindMax == nil {
			continue
		}
		var offered, achieved, p50, p99 [][2]float64
		for _, st := range sortedSteps(r.FindMax.Steps) {
			x := round3(st.Offered)
			offered = append(offered, [2]float64{x, x})
			achieved = append(achieved, [2]float64{x, round3(st.Achieved)})
			p50 = append(p50, [2]float64{x, st.P50MS})
			p99 = append(p99, [2]float64{x, st.P99MS})
		}
		tput.add(mk(multi, r, "offered", true, offered))
		tput.add(mk(multi, r, "achieved", false, achieved))
		lat.add(mk(multi, r, "p50", false, p50))
		lat.add(mk(multi, r, "p99", false, p99))
	}
	return nonEmpty(tput, lat)
}

// sortedSteps are the steps that offered a rate (not the closed-loop
// probe), by rate.
func sortedSteps(steps []summary.FindMaxStep) []summary.FindMaxStep {
	var out []summary.FindMaxStep
	for _, st := range steps {
		if st.Offered > 0 {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b summary.FindMaxStep) int { return cmp.Compare(a.Offered, b.Offered) })
	return out
}
