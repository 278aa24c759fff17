// Package threshold checks a run against pass/fail criteria, as k6 does:
// "INGESTION.p99<50ms", "INGESTION.throughput>100000", "errors==0". A run
// whose thresholds fail exits with status 99, so CI pipelines can gate on it.
package threshold

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/suggest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/ts"
)

// Operations are the operation names a threshold may name: the rows of the
// Result matrix, INGESTION and the query kinds.
var Operations = operations()

func operations() []string {
	out := []string{"INGESTION"}
	for _, k := range ts.QueryKinds {
		out = append(out, k.String())
	}
	return out
}

func knownOperation(op string) bool {
	for _, o := range Operations {
		if o == op {
			return true
		}
	}
	return false
}

// metricNames are the metrics, for suggestions.
var metricNames = []string{"throughput", "ok_operations", "fail_operations", "errors", "tpmc", "tpmtotal",
	"avg", "min", "p10", "p25", "p50", "median", "p75", "p90", "p95", "p99", "p999", "max"}

// runMetrics are the metrics of a whole run rather than of one operation:
// its failures, and a TPC-C run's tpmC and tpmTotal.
var runMetrics = map[string]func(s *summary.Summary) (float64, string){
	"errors": func(s *summary.Summary) (float64, string) {
		var n float64
		for _, o := range s.Operations {
			n += float64(o.FailOperations)
		}
		return n, ""
	},
	"tpmc":     tpm(func(t *summary.TPCC) float64 { return t.TpmC }),
	"tpmtotal": tpm(func(t *summary.TPCC) float64 { return t.TpmTotal }),
}

func tpm(figure func(*summary.TPCC) float64) func(s *summary.Summary) (float64, string) {
	return func(s *summary.Summary) (float64, string) {
		if s.TPCC == nil {
			return 0, "not a TPC-C run"
		}
		return figure(s.TPCC), ""
	}
}

// TPCC reports whether the threshold bounds a TPC-C run's figure (tpmC,
// tpmTotal), which only a TPC-C run has.
func (t Threshold) TPCC() bool { return t.Metric == "tpmc" || t.Metric == "tpmtotal" }

func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return " (did you mean " + s + "?)"
}

// Threshold is one parsed criterion.
type Threshold struct {
	Expr      string
	Operation string  // matrix row (INGESTION, TIME_RANGE, ...); "" for errors
	Metric    string  // throughput, avg, min, p10..p999, max, ok_operations, fail_operations, errors
	Op        string  // <, <=, >, >=, ==, !=
	Value     float64 // latency thresholds in milliseconds
}

// syntax is OPERATION.METRIC OP VALUE[unit]; an operation whose name is
// not a word (a TSBS query type: "TimescaleDB max of all CPU metrics, ...")
// is written in double quotes.
var syntax = regexp.MustCompile(`^\s*(?:([A-Za-z_][A-Za-z0-9_]*|"[^"]+")\.)?([A-Za-z0-9_]+)\s*(<=|>=|==|!=|<|>)\s*([0-9.eE+-]+)\s*(us|µs|ms|s)?\s*$`)

var latencyMetrics = map[string]func(l summary.Latency) float64{
	"avg": func(l summary.Latency) float64 { return l.Avg }, "min": func(l summary.Latency) float64 { return l.Min },
	"p10": func(l summary.Latency) float64 { return l.P10 }, "p25": func(l summary.Latency) float64 { return l.P25 },
	"p50": func(l summary.Latency) float64 { return l.P50 }, "median": func(l summary.Latency) float64 { return l.P50 },
	"p75": func(l summary.Latency) float64 { return l.P75 }, "p90": func(l summary.Latency) float64 { return l.P90 },
	"p95": func(l summary.Latency) float64 { return l.P95 }, "p99": func(l summary.Latency) float64 { return l.P99 },
	"p999": func(l summary.Latency) float64 { return l.P999 }, "max": func(l summary.Latency) float64 { return l.Max },
}

// Allowed describes the syntax for error messages.
const Allowed = `OPERATION.METRIC OP VALUE[unit] or errors OP N, e.g. 'INGESTION.p99<50ms', ` +
	`'INGESTION.throughput>100000', 'errors==0', 'NEW_ORDER.p90<50ms', 'tpmC>1000' (TPC-C); METRIC: throughput, ` +
	`ok_operations, fail_operations, avg, min, p10, p25, p50, p75, p90, p95, p99, p999, max (latencies take us, ms or s; ` +
	`ms by default); an OPERATION that is not a word in double quotes`

// Parse reads one threshold expression whose operation is a built-in
// one (INGESTION, a query kind) or one of own, the names of the run's own
// queries (QUERY_FILE).
func Parse(expr string, own ...string) (Threshold, error) {
	t, err := Syntax(expr)
	if err == nil && t.TPCC() {
		return Threshold{}, fmt.Errorf("threshold %q: %s is a TPC-C run's figure, and this run is not one (--workload tpcc)", expr, t.Metric)
	}
	if err != nil || t.Operation == "" || knownOperation(t.Operation) {
		return t, err
	}
	for _, o := range own {
		if strings.EqualFold(o, t.Operation) {
			t.Operation = o
			return t, nil
		}
	}
	all := append(append([]string(nil), Operations...), own...)
	return Threshold{}, fmt.Errorf("threshold %q: unknown operation %q%s; allowed: %s", expr, t.Operation,
		didYouMean(suggest.Closest(t.Operation, all)), strings.Join(all, ", "))
}

// ParseAmong reads one threshold expression of a run whose operations are
// ops (a TPC-C run's transactions, a TSBS query file's query types): its
// operation must be one of them, named as the matrices name it (any case),
// and a TPC-C figure (tpmC) is for a TPC-C run (tpcc) alone.
func ParseAmong(expr string, ops []string, tpcc bool) (Threshold, error) {
	t, err := Syntax(expr)
	if err != nil {
		return t, err
	}
	if t.TPCC() && !tpcc {
		return Threshold{}, fmt.Errorf("threshold %q: %s is a TPC-C run's figure, and this run is not one", expr, t.Metric)
	}
	if t.Operation == "" {
		return t, nil
	}
	for _, o := range ops {
		if strings.EqualFold(o, t.Operation) {
			t.Operation = o
			return t, nil
		}
	}
	return Threshold{}, fmt.Errorf("threshold %q: unknown operation %q%s; allowed: %s", expr, t.Operation,
		didYouMean(suggest.Closest(t.Operation, ops)), strings.Join(ops, ", "))
}

// Syntax reads one threshold expression without judging its operation: a
// built-in operation's name comes back as the matrices spell it, any other
// as written (the name of one of the user's own queries, checked by Parse
// once they are known).
func Syntax(expr string) (Threshold, error) {
	m := syntax.FindStringSubmatch(expr)
	if m == nil {
		return Threshold{}, fmt.Errorf("threshold %q: not understood; allowed: %s", expr, Allowed)
	}
	t := Threshold{Expr: strings.TrimSpace(expr), Operation: strings.Trim(m[1], `"`), Metric: strings.ToLower(m[2]), Op: m[3]}
	if knownOperation(strings.ToUpper(t.Operation)) {
		t.Operation = strings.ToUpper(t.Operation)
	}
	v, err := strconv.ParseFloat(m[4], 64)
	if err != nil {
		return Threshold{}, fmt.Errorf("threshold %q: value %q is not a number", expr, m[4])
	}
	_, latency := latencyMetrics[t.Metric]
	_, perRun := runMetrics[t.Metric]
	switch {
	case perRun && t.Operation == "":
	case perRun:
		return Threshold{}, fmt.Errorf("threshold %q: %s is the whole run's: write it without an operation, e.g. %s>0", expr, m[2], m[2])
	case t.Operation == "":
		return Threshold{}, fmt.Errorf("threshold %q: name the operation, e.g. INGESTION.%s; allowed: %s", expr, t.Metric, Allowed)
	case latency:
	case t.Metric == "throughput" || t.Metric == "ok_operations" || t.Metric == "fail_operations" || t.TPCC():
		if m[5] != "" {
			return Threshold{}, fmt.Errorf("threshold %q: %s takes no unit", expr, t.Metric)
		}
	default:
		return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q%s; allowed: %s", expr, t.Metric,
			didYouMean(suggest.Closest(t.Metric, metricNames)), Allowed)
	}
	switch m[5] {
	case "us", "µs":
		v /= 1000
	case "s":
		v *= 1000
	}
	// 1e308s is finite, but not once in milliseconds; a threshold of ±Inf
	// would never fail (or never pass) whatever the run measured.
	if math.IsInf(v, 0) {
		return Threshold{}, fmt.Errorf("threshold %q: value %s%s is out of range", expr, m[4], m[5])
	}
	t.Value = v
	return t, nil
}

// Latency reports whether the threshold bounds a latency (avg, a
// percentile, min or max) rather than a count or a rate.
func (t Threshold) Latency() bool {
	_, ok := latencyMetrics[t.Metric]
	return ok
}

// Evaluate checks the threshold against a finished run.
func (t Threshold) Evaluate(s *summary.Summary) summary.ThresholdResult {
	r := summary.ThresholdResult{Expr: t.Expr}
	var actual float64
	if figure, ok := runMetrics[t.Metric]; ok {
		var reason string
		if actual, reason = figure(s); reason != "" {
			r.Reason = reason
			return r
		}
	} else {
		op := s.Op(t.Operation)
		if op == nil {
			r.Reason = fmt.Sprintf("the run has no %s operations", t.Operation)
			return r
		}
		switch t.Metric {
		case "throughput":
			actual = op.Throughput
		case "ok_operations":
			actual = float64(op.OKOperations)
		case "fail_operations":
			actual = float64(op.FailOperations)
		default:
			if op.OKOperations == 0 {
				r.Reason = fmt.Sprintf("no successful %s operation to measure", t.Operation)
				return r
			}
			actual = latencyMetrics[t.Metric](op.LatencyMS)
		}
	}
	r.Actual = actual
	r.Passed = compare(actual, t.Op, t.Value)
	return r
}

func compare(a float64, op string, b float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	case "==":
		return a == b
	}
	return a != b
}
