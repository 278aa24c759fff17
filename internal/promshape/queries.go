package promshape

import (
	"fmt"
	"strconv"
	"time"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// Kind is what a query stands for in the read load.
type Kind int

// The kinds: a recording rule and an alerting rule's expression, both
// evaluated as instant queries every interval, and a dashboard panel's
// range query.
const (
	Rule Kind = iota + 1
	Alert
	Dashboard
)

func (k Kind) String() string {
	switch k {
	case Rule:
		return "rule"
	case Alert:
		return "alert"
	case Dashboard:
		return "dashboard"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Query is a query of the read load and how its answer is computed.
type Query struct {
	Name   string // the rule's record name, the alert's name, the panel's name
	Kind   Kind
	PromQL string
	Step   time.Duration // a dashboard's step; 0 for rules and alerts
	// PerEngine says the answer depends on the engine (rates): each
	// engine's is computed its own way (rate.go), and an answer is right
	// within the value's rounding (Sample.Tol).
	PerEngine bool
	eval      func(src source, t int64) Vector
}

// Why the answers agree across Prometheus (and Mimir and Thanos, which
// run its engine) and VictoriaMetrics, evaluated at scrape times (a
// dashboard's start from RangeStart: VictoriaMetrics rounds a start down
// to a multiple of the step):
//
//   - An instant selector at a scrape time finds every live series'
//     sample exactly at t, and a replaced target's series a staleness
//     marker at or before t, which both engines honour: the lookback
//     (Prometheus' 5 minutes, VictoriaMetrics' detected interval) never
//     decides anything.
//   - Range windows are whole intervals and left-open, (t-w, t], in both
//     (Prometheus since 3.0; 2.x closed them), and both leave staleness
//     markers out of *_over_time.
//   - Rates differ by design: Prometheus extrapolates to the window's
//     ends, VictoriaMetrics takes the sample before the window. The rate
//     and increase queries are PerEngine: each engine's answer computed
//     its way (rate.go). irate, the last two samples' slope, is the
//     same in both, and so is histogram_quantile of classic buckets
//     whose counts only grow with le (quantile.go), within a rounding.
//     Elsewhere `x - x offset w` is exact in both and absent where x is
//     not alive at both ends.
//   - VictoriaMetrics keeps the metric name of min/max_over_time,
//     Prometheus drops it: every *_over_time is inside an aggregation.
//     Arithmetic drops the name in both; a comparison without bool keeps
//     its left side's labels in both, and each left side here has no name.
//   - The values are integers or multiples of 1/8, 1/16 or 1/64 below
//     2^53 (see MaxTargets), so sums are exact in any order, and the
//     ratios are exact quotients (f/1024): the same float64 in every
//     engine, and comparisons with 0.1 decided alike.
//   - Left to the runner: query times at least VictoriaMetrics'
//     -search.latencyOffset (30s by default) in the past, or that flag
//     set to 0, as it hides the newest samples from queries.

// window is the range and offset of the queries: four intervals.
func (m *Model) window() int64 { return WindowScrapes * m.interval }

// WindowScrapes is how many scrape intervals a rule's window and a
// dashboard's step span.
const WindowScrapes = 4

// promDuration writes ms as a PromQL duration, in seconds when whole.
func promDuration(ms int64) string {
	if ms%1000 == 0 {
		return strconv.FormatInt(ms/1000, 10) + "s"
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// Queries is the read load: its rules, alerts and dashboard panels.
func (m *Model) Queries() []Query {
	w := m.window()
	d := promDuration(w)
	step := time.Duration(w) * time.Millisecond
	qs := append(m.rules(w, d), m.alerts(w, d)...)
	dash := m.dashboards(w, d)
	if m.cfg.Profile == Node {
		qs = append(qs, nodeRules()...)
		dash = append(dash, nodeDashboards()...)
	}
	for i := range dash {
		dash[i].Kind, dash[i].Step = Dashboard, step
	}
	qs = append(qs, dash...)
	if m.cfg.Histograms == Native {
		qs = withNative(qs, m.nativeQueries(w, d))
	}
	return qs
}

// delta is `x - x offset w` of the selector.
func delta(src source, s selector, t, w int64) Vector {
	return binary(src.instant(s, t), src.instant(s, t-w), sub)
}

// memRatio is node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes:
// f/1024 exactly (MemAvailable is f 1024ths of MemTotal).
func memRatio(src source, t int64) Vector {
	return binary(src.instant(sel("node_memory_MemAvailable_bytes"), t),
		src.instant(sel("node_memory_MemTotal_bytes"), t), div)
}

func (m *Model) rules(w int64, d string) []Query {
	return []Query{
		{Name: "job:up:sum", Kind: Rule, PromQL: `sum by (job) (up)`,
			eval: func(src source, t int64) Vector { return aggregate(aggSum, []string{"job"}, src.instant(sel("up"), t)) }},
		{Name: "job_mode:node_cpu_seconds:sum", Kind: Rule, PromQL: `sum by (job, mode) (node_cpu_seconds_total)`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job", "mode"}, src.instant(sel("node_cpu_seconds_total"), t))
			}},
		{Name: "instance:node_memory_available:ratio", Kind: Rule,
			PromQL: `node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes`, eval: memRatio},
		{Name: "job:node_network_receive_bytes:delta", Kind: Rule,
			PromQL: fmt.Sprintf(`sum by (job) (node_network_receive_bytes_total - node_network_receive_bytes_total offset %s)`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job"}, delta(src, sel("node_network_receive_bytes_total"), t, w))
			}},
		{Name: "job_mode:node_cpu_seconds:rate", Kind: Rule, PerEngine: true,
			PromQL: fmt.Sprintf(`sum by (job, mode) (rate(node_cpu_seconds_total[%[1]s]) and node_cpu_seconds_total offset %[1]s and node_cpu_seconds_total)`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job", "mode"}, rate(src, sel("node_cpu_seconds_total"), t, w))
			}},
		{Name: "job_mode:node_cpu_seconds:increase", Kind: Rule, PerEngine: true,
			PromQL: fmt.Sprintf(`sum by (job, mode) (increase(node_cpu_seconds_total[%[1]s]) and node_cpu_seconds_total offset %[1]s and node_cpu_seconds_total)`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job", "mode"}, guardedWindow(src, fnIncrease, sel("node_cpu_seconds_total"), t, w))
			}},
		// irate takes the window's last two samples in both engines: the
		// same value, inexact (a difference over the interval's seconds).
		{Name: "job:node_network_receive_bytes:irate", Kind: Rule,
			PromQL: fmt.Sprintf(`sum by (job) (irate(node_network_receive_bytes_total[%[1]s]) and node_network_receive_bytes_total offset %[1]s and node_network_receive_bytes_total)`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job"}, guardedWindow(src, fnIrate, sel("node_network_receive_bytes_total"), t, w))
			}},
		// The 90th percentile of the request durations each job's
		// targets have observed, from its classic buckets.
		{Name: "job:" + Histogram + ":p90", Kind: Rule,
			PromQL: `histogram_quantile(0.9, sum by (job, le) (` + Histogram + `_bucket))`,
			eval: func(src source, t int64) Vector {
				return histogramQuantile(0.9,
					aggregate(aggSum, []string{"job", "le"}, src.instant(sel(Histogram+"_bucket"), t)))
			}},
		{Name: "instance:node_cpus:count", Kind: Rule, PromQL: `count without (cpu, mode) (node_cpu_seconds_total)`,
			eval: func(src source, t int64) Vector {
				return aggregateWithout(aggCount, []string{"cpu", "mode"}, src.instant(sel("node_cpu_seconds_total"), t))
			}},
		{Name: "job_handler_le:" + Histogram + "_bucket:sum", Kind: Rule,
			PromQL: `sum by (job, handler, le) (` + Histogram + `_bucket)`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"handler", "job", "le"}, src.instant(sel(Histogram+"_bucket"), t))
			}},
		{Name: "job:node_load1:deriv_max", Kind: Rule,
			PromQL: fmt.Sprintf(`max by (job) (%s)`, guarded("deriv", "node_load1", "", d)),
			eval: func(src source, t int64) Vector {
				return aggregate(aggMax, []string{"job"}, guardedWindow(src, fnDeriv{}, sel("node_load1"), t, w))
			}},
		// The root filesystem an hour ahead, as disk-filling alerts
		// predict it (awesome-prometheus-alerts: predict_linear over 1h
		// to 4h).
		{Name: "job:node_filesystem_avail_root:predict_1h_min", Kind: Rule,
			PromQL: fmt.Sprintf(`min by (job) (%s)`, guarded("predict_linear", `node_filesystem_avail_bytes{mountpoint="/"}`, ", 3600", d)),
			eval: func(src source, t int64) Vector {
				return aggregate(aggMin, []string{"job"}, guardedWindow(src, fnPredict{horizon: 3600},
					sel("node_filesystem_avail_bytes", "mountpoint", "/"), t, w))
			}},
		// MetricsQL counts a change from the sample before the window too.
		{Name: "job:node_load1:changes", Kind: Rule, PerEngine: true,
			PromQL: fmt.Sprintf(`sum by (job) (%s)`, guarded("changes", "node_load1", "", d)),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job"}, guardedWindow(src, fnChanges{}, sel("node_load1"), t, w))
			}},
		// The busiest three network interfaces' bytes: which three topk
		// keeps among equal values is the engine's choice, their sum is
		// not.
		{Name: "job:node_network_receive_bytes:top3", Kind: Rule,
			PromQL: `sum by (job) (topk by (job) (3, node_network_receive_bytes_total))`,
			eval: func(src source, t int64) Vector {
				return topkSum(3, []string{"job"}, src.instant(sel("node_network_receive_bytes_total"), t))
			}},
	}
}

// guarded is the PromQL of `f(x[d] args) and x offset d and x`: the
// function of the series alive at both ends of the window (guardedWindow).
func guarded(f, x, args, d string) string {
	return fmt.Sprintf(`%[1]s(%[2]s[%[4]s]%[3]s) and %[2]s offset %[4]s and %[2]s`, f, x, args, d)
}

// below, above and equal are `< x`, `> x` and `== x`, for filter.
func below(x float64) func(float64) bool { return func(v float64) bool { return v < x } }
func above(x float64) func(float64) bool { return func(v float64) bool { return v > x } }
func equal(x float64) func(float64) bool { return func(v float64) bool { return v == x } }

func (m *Model) alerts(w int64, d string) []Query {
	return []Query{
		// avail is f 1024ths of size: the ratio is exact, below 0.1 at
		// about 6% of scrapes.
		{Name: "NodeFilesystemAlmostFull", Kind: Alert,
			PromQL: `node_filesystem_avail_bytes / node_filesystem_size_bytes < 0.1`,
			eval: func(src source, t int64) Vector {
				return filter(binary(src.instant(sel("node_filesystem_avail_bytes"), t),
					src.instant(sel("node_filesystem_size_bytes"), t), div), below(0.1))
			}},
		{Name: "NodeMemoryLow", Kind: Alert,
			PromQL: `node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes < 0.1`,
			eval:   func(src source, t int64) Vector { return filter(memRatio(src, t), below(0.1)) }},
		// load1 is k/64 below 8: above 7.75 at 1 scrape in 32.
		{Name: "NodeLoadHigh", Kind: Alert,
			PromQL: fmt.Sprintf(`max by (job, instance) (max_over_time(node_load1[%s])) > 7.75`, d),
			eval: func(src source, t int64) Vector {
				return filter(aggregate(aggMax, []string{"instance", "job"},
					overTime(src.window(sel("node_load1"), t, w), maxPoints)), above(7.75))
			}},
		// Two handlers of 1 to 100 requests a scrape over four scrapes:
		// 8 to 800 requests, about 400.
		// Low memory (below a quarter) where load1 is above 6 too, matched
		// on the instance alone: both about a quarter of the scrapes.
		{Name: "NodeMemoryLowUnderLoad", Kind: Alert,
			PromQL: `node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes < 0.25 and on (instance) node_load1 > 6`,
			eval: func(src source, t int64) Vector {
				return set(setAnd, filter(memRatio(src, t), below(0.25)),
					filter(src.instant(sel("node_load1"), t), above(6)), []string{"instance"})
			}},
		// The job's targets all gone: never while the run writes, and an
		// engine that answers otherwise is wrong.
		{Name: "NodeExporterJobAbsent", Kind: Alert,
			PromQL: `absent(up{job=` + promql.Quote(m.cfg.Job) + `})`,
			eval: func(src source, t int64) Vector {
				s := sel("up", "job", m.cfg.Job)
				return absent(s, src.instant(s, t))
			}},
		{Name: "HTTPRequestsHigh", Kind: Alert,
			PromQL: fmt.Sprintf(`sum by (job, instance) (%[1]s_count - %[1]s_count offset %[2]s) > 600`, Histogram, d),
			eval: func(src source, t int64) Vector {
				return filter(aggregate(aggSum, []string{"instance", "job"},
					delta(src, sel(Histogram+"_count"), t, w)), above(600))
			}},
	}
}

// nodeRules are the node profile's own rules and alerts, over its _info
// series and flags: the values are the selectors' own (a load average
// times an _info series' 1, counts), exact in every engine.
func nodeRules() []Query {
	return []Query{
		// A dashboard's "load by kernel release": the _info series'
		// label joined onto every instance's load.
		{Name: "instance:node_load1:by_release", Kind: Rule,
			PromQL: `node_load1 * on (instance) group_left (release) node_uname_info`,
			eval: func(src source, t int64) Vector {
				return groupLeft(src.instant(sel("node_load1"), t), src.instant(sel("node_uname_info"), t),
					[]string{"instance"}, []string{"release"})
			}},
		// A collector failing on a target (one in 32 of each collector).
		{Name: "NodeCollectorFailed", Kind: Alert,
			PromQL: `count by (job, instance) (node_scrape_collector_success == 0)`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggCount, []string{"instance", "job"},
					filter(src.instant(sel("node_scrape_collector_success"), t), equal(0)))
			}},
	}
}

// nodeDashboards are the node profile's own panels.
func nodeDashboards() []Query {
	return []Query{
		{Name: "network-interfaces-up", PromQL: `count by (job, device) (node_network_up == 1)`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggCount, []string{"device", "job"}, filter(src.instant(sel("node_network_up"), t), equal(1)))
			}},
	}
}

func (m *Model) dashboards(w int64, d string) []Query {
	return []Query{
		{Name: "cpu-by-mode",
			PromQL: fmt.Sprintf(`sum by (mode) (node_cpu_seconds_total - node_cpu_seconds_total offset %s)`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"mode"}, delta(src, sel("node_cpu_seconds_total"), t, w))
			}},
		{Name: "memory-available-min",
			PromQL: fmt.Sprintf(`min by (job) (min_over_time(node_memory_MemAvailable_bytes[%s]))`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggMin, []string{"job"}, overTime(src.window(sel("node_memory_MemAvailable_bytes"), t, w), minPoints))
			}},
		{Name: "load-max", PromQL: fmt.Sprintf(`max by (job) (max_over_time(node_load1[%s]))`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggMax, []string{"job"}, overTime(src.window(sel("node_load1"), t, w), maxPoints))
			}},
		// Counts the samples of replaced targets still in the window too,
		// but not their staleness markers.
		{Name: "samples-scraped", PromQL: fmt.Sprintf(`sum by (job) (count_over_time(up[%s]))`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job"}, overTime(src.window(sel("up"), t, w), countPoints))
			}},
		{Name: "http-requests-by-le",
			PromQL: fmt.Sprintf(`sum by (handler, le) (%[1]s_bucket - %[1]s_bucket offset %[2]s)`, Histogram, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"handler", "le"}, delta(src, sel(Histogram+"_bucket"), t, w))
			}},
		{Name: "network-receive-rate", PerEngine: true,
			PromQL: fmt.Sprintf(`sum by (job) (rate(node_network_receive_bytes_total[%[1]s]) and node_network_receive_bytes_total offset %[1]s and node_network_receive_bytes_total)`, d),
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job"}, rate(src, sel("node_network_receive_bytes_total"), t, w))
			}},
		// Regular expressions, one negated: the "/data" filesystems
		// (xfs), each at most 32 GiB.
		{Name: "filesystem-data-size",
			PromQL: `sum by (job, fstype) (node_filesystem_size_bytes{mountpoint=~"/data.*",fstype!~"ext.*"})`,
			eval: func(src source, t int64) Vector {
				s := sel("node_filesystem_size_bytes").matching("mountpoint", "/data.*", false).matching("fstype", "ext.*", true)
				return aggregate(aggSum, []string{"job", "fstype"}, src.instant(s, t))
			}},
		{Name: "busy-or-low-memory",
			PromQL: `count by (job) (node_load1 > 7 or node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes < 0.1)`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggCount, []string{"job"}, set(setOr, filter(src.instant(sel("node_load1"), t), above(7)),
					filter(memRatio(src, t), below(0.1)), nil))
			}},
		{Name: "up-unless-loaded",
			PromQL: `count by (job) (up unless on (instance) node_load1 > 4)`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggCount, []string{"job"}, set(setUnless, src.instant(sel("up"), t),
					filter(src.instant(sel("node_load1"), t), above(4)), []string{"instance"}))
			}},
		// A metric the targets never expose: 1, labelled by the matcher.
		{Name: "textfile-errors-absent",
			PromQL: `absent(node_textfile_scrape_error{job=` + promql.Quote(m.cfg.Job) + `})`,
			eval: func(src source, t int64) Vector {
				s := sel("node_textfile_scrape_error", "job", m.cfg.Job)
				return absent(s, src.instant(s, t))
			}},
		// "/" is at most 32 GiB: the sum over MaxTargets stays exact.
		{Name: "filesystem-root-avail", PromQL: `sum by (job) (node_filesystem_avail_bytes{mountpoint="/"})`,
			eval: func(src source, t int64) Vector {
				return aggregate(aggSum, []string{"job"}, src.instant(sel("node_filesystem_avail_bytes", "mountpoint", "/"), t))
			}},
	}
}
