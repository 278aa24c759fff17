package htmlreport

import (
	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// opMatrix is one operation's Result and Latency matrices turned on their
// side: a row per figure, a column per run, then each later run's ratio to
// the first, so that A and B sit next to each other instead of in two
// blocks of rows.
type opMatrix struct {
	Name   string
	Groups []matrixGroup
}

type matrixGroup struct {
	Title string // "Result Matrix", "Latency (ms) Matrix", ...
	Rows  []matrixRow
}

type matrixRow struct {
	Metric string
	Values []string
	Ratios []string
	Bad    []bool // a failure count above zero
}

// figure reads one number of an operation; ok is false when the run lacks
// the figure (the operation, or its service times).
type figure struct {
	name  string
	value func(o *summary.Operation) (v float64, ok bool)
	text  func(float64) string
	bad   bool // non-zero is a failure
}

func countFig(name string, f func(o *summary.Operation) int64, bad bool) figure {
	return figure{name: name, bad: bad, text: func(v float64) string { return count(int64(v)) },
		value: func(o *summary.Operation) (float64, bool) { return float64(f(o)), true }}
}

func latFig(name string, f func(l summary.Latency) float64) figure {
	return figure{name: name, text: f2, value: func(o *summary.Operation) (float64, bool) { return f(o.LatencyMS), true }}
}

func serviceFig(name string, f func(l summary.Latency) float64) figure {
	return figure{name: name, text: f2, value: func(o *summary.Operation) (float64, bool) {
		if o.ServiceMS == nil {
			return 0, false
		}
		return f(*o.ServiceMS), true
	}}
}

// clientWaitFig is a figure of the time answers waited for the tool after
// they arrived (summary.Operation.ClientWaitMS), where the run stamped
// their arrival.
func clientWaitFig(name string, f func(l summary.Latency) float64) figure {
	return figure{name: name, text: f3, value: func(o *summary.Operation) (float64, bool) {
		if o.ClientWaitMS == nil {
			return 0, false
		}
		return f(*o.ClientWaitMS), true
	}}
}

// The figures and their names are the console matrices' (IoT-benchmark's).
var (
	resultFigures = []figure{
		countFig("okOperation", func(o *summary.Operation) int64 { return o.OKOperations }, false),
		countFig("okPoint", func(o *summary.Operation) int64 { return o.OKPoints }, false),
		countFig("failOperation", func(o *summary.Operation) int64 { return o.FailOperations }, true),
		countFig("failPoint", func(o *summary.Operation) int64 { return o.FailPoints }, true),
		{name: "throughput(point/s)", text: f2, value: func(o *summary.Operation) (float64, bool) { return o.Throughput, true }},
	}
	latencyFigures = append(percentileFigures(latFig),
		figure{name: "SLOWEST_THREAD", text: f2, value: func(o *summary.Operation) (float64, bool) { return o.SlowestThreadMS, true }})
	serviceFigures    = percentileFigures(serviceFig)
	clientWaitFigures = []figure{
		clientWaitFig("MEDIAN", func(l summary.Latency) float64 { return l.P50 }),
		clientWaitFig("P99", func(l summary.Latency) float64 { return l.P99 }),
		clientWaitFig("MAX", func(l summary.Latency) float64 { return l.Max }),
	}
)

func percentileFigures(mk func(string, func(summary.Latency) float64) figure) []figure {
	return []figure{
		mk("AVG", func(l summary.Latency) float64 { return l.Avg }),
		mk("MIN", func(l summary.Latency) float64 { return l.Min }),
		mk("P10", func(l summary.Latency) float64 { return l.P10 }),
		mk("P25", func(l summary.Latency) float64 { return l.P25 }),
		mk("MEDIAN", func(l summary.Latency) float64 { return l.P50 }),
		mk("P75", func(l summary.Latency) float64 { return l.P75 }),
		mk("P90", func(l summary.Latency) float64 { return l.P90 }),
		mk("P95", func(l summary.Latency) float64 { return l.P95 }),
		mk("P99", func(l summary.Latency) float64 { return l.P99 }),
		mk("P999", func(l summary.Latency) float64 { return l.P999 }),
		mk("MAX", func(l summary.Latency) float64 { return l.Max }),
	}
}

func opMatrices(runs []*summary.Summary, ops []string, openModel bool) []opMatrix {
	var out []opMatrix
	for _, op := range ops {
		m := opMatrix{Name: op, Groups: []matrixGroup{
			{Title: "Result Matrix", Rows: matrixRows(runs, op, resultFigures)},
			{Title: "Latency (ms) Matrix", Rows: matrixRows(runs, op, latencyFigures)},
		}}
		if openModel {
			m.Groups = append(m.Groups, matrixGroup{Title: "Service time (ms) Matrix", Rows: matrixRows(runs, op, serviceFigures)})
		}
		if anyClientWait(runs, op) {
			m.Groups = append(m.Groups, matrixGroup{Title: "Client wait (ms, after the answer arrived; not in the latency) Matrix",
				Rows: matrixRows(runs, op, clientWaitFigures)})
		}
		out = append(out, m)
	}
	return out
}

// anyClientWait reports whether a run recorded op's client wait.
func anyClientWait(runs []*summary.Summary, op string) bool {
	for _, s := range runs {
		if o := s.Op(op); o != nil && o.ClientWaitMS != nil {
			return true
		}
	}
	return false
}

func matrixRows(runs []*summary.Summary, op string, figs []figure) []matrixRow {
	var rows []matrixRow
	for _, f := range figs {
		r := matrixRow{Metric: f.name}
		var base float64
		var haveBase bool
		for i, s := range runs {
			o := s.Op(op)
			v, ok := 0.0, false
			if o != nil {
				v, ok = f.value(o)
			}
			if !ok {
				r.Values, r.Bad = append(r.Values, "—"), append(r.Bad, false)
			} else {
				r.Values, r.Bad = append(r.Values, f.text(v)), append(r.Bad, f.bad && v > 0)
			}
			switch {
			case i == 0:
				base, haveBase = v, ok
			case ok && haveBase:
				r.Ratios = append(r.Ratios, ratioText(ratioOf(base, v)))
			default:
				r.Ratios = append(r.Ratios, "—")
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// thresholdRow is one threshold expression, checked in every run that
// had it, with the limit and the measured values in the metric's unit.
type thresholdRow struct {
	Expr  string
	Limit string
	Cells []thresholdCell
}

type thresholdCell struct {
	Measured string
	Result   string // passed, FAILED, not measured, or "" (not set)
	Class    string
	Reason   string
}

// thresholdUnit is the unit of a threshold's metric, as the threshold
// package evaluates it (latencies in ms whatever unit the expression used).
func thresholdUnit(metric string) string {
	switch metric {
	case "throughput":
		return "points/s"
	case "ok_operations", "fail_operations":
		return "operations"
	case "errors":
		return "failed operations"
	}
	return "ms"
}

func thresholdRows(runs []*summary.Summary) []thresholdRow {
	var out []thresholdRow
	index := map[string]int{}
	for i, s := range runs {
		for _, t := range s.Thresholds {
			k, ok := index[t.Expr]
			if !ok {
				k = len(out)
				index[t.Expr] = k
				out = append(out, newThresholdRow(t.Expr, len(runs)))
			}
			out[k].Cells[i] = thresholdCellOf(t, metricOf(t.Expr))
		}
	}
	return out
}

func newThresholdRow(expr string, runs int) thresholdRow {
	r := thresholdRow{Expr: expr, Cells: make([]thresholdCell, runs)}
	if t, err := threshold.Syntax(expr); err == nil {
		r.Limit = t.Op + " " + thresholdValue(t.Metric, t.Value)
	}
	return r
}

// metricOf is the metric a threshold expression checks, "" when it does
// not parse (a run saved by another version of tsbench).
func metricOf(expr string) string {
	if t, err := threshold.Syntax(expr); err == nil {
		return t.Metric
	}
	return ""
}

// thresholdValue prints a threshold's figure in its metric's unit: counts
// whole, other figures as 'tsbench compare' does.
func thresholdValue(metric string, v float64) string {
	switch metric {
	case "":
		return compare.FormatNumber(v)
	case "ok_operations", "fail_operations", "errors":
		return count(int64(v)) + " " + thresholdUnit(metric)
	}
	return compare.FormatNumber(v) + " " + thresholdUnit(metric)
}

func thresholdCellOf(t summary.ThresholdResult, metric string) thresholdCell {
	switch {
	case t.Reason != "":
		return thresholdCell{Result: "not measured", Class: "bad", Reason: t.Reason}
	case t.Passed:
		return thresholdCell{Measured: thresholdValue(metric, t.Actual), Result: "passed", Class: "ok"}
	}
	return thresholdCell{Measured: thresholdValue(metric, t.Actual), Result: "FAILED", Class: "bad"}
}
