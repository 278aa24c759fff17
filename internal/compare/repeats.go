package compare

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/summary"
)

// MaxCV is the coefficient of variation over repetitions above which a
// figure is called unstable: its runs differ by more than the differences
// a user usually looks for.
const MaxCV = 0.05

// Confidence is the level of the intervals given for repeated figures.
const Confidence = 0.95

// Spread is one figure over repeated runs of one configuration: its mean,
// a Student's t confidence interval of the mean, and how much the runs
// differ (standard deviation, coefficient of variation).
type Spread struct {
	Operation string    `json:"operation"`
	Metric    string    `json:"metric"` // throughput, p50, p99
	Unit      string    `json:"unit"`
	Values    []float64 `json:"values"` // one per repetition, in order
	Mean      float64   `json:"mean"`
	Std       float64   `json:"std"`
	// CILow and CIHigh bound the figure at Confidence (n-1 degrees of
	// freedom), by Interval's method; with one run they equal the mean.
	CILow  float64 `json:"ci95_low"`
	CIHigh float64 `json:"ci95_high"`
	// Interval names how CILow and CIHigh were found: IntervalLog, or
	// IntervalClipped where a run's value is 0.
	Interval string  `json:"interval,omitempty"`
	CV       float64 `json:"cv"` // Std / Mean; 0 when Mean is 0
	// Unstable: CV above MaxCV. RunsFor5 is then about how many
	// repetitions an interval of ±MaxCV would take at this spread.
	Unstable bool `json:"unstable,omitempty"`
	RunsFor5 int  `json:"runs_for_5pct,omitempty"`
}

// The interval methods. Every figure repeated (a throughput, a latency) is
// positive and varies by ratios, so its interval is Student's t on the
// logarithms of the runs' values, taken back: it bounds the geometric mean
// and never falls below 0, where t on the values themselves gave a
// throughput's interval of -6.9M .. 25.3M points/s over three short runs.
// A figure with a run at 0 has no logarithm: t on the values, clipped at 0.
const (
	IntervalLog     = "t on logs"
	IntervalClipped = "t, clipped at 0"
)

// figure reads one whole-run figure of an operation.
type figure struct {
	name   string
	unit   func(s *summary.Summary, op string) string
	higher bool
	value  func(s *summary.Summary, o *summary.Operation) float64
}

func ms(*summary.Summary, string) string { return "ms" }

// runFigures: throughput is in the operation's own unit (summary.Rate):
// queries per second for a query, whose points are its answers'.
var runFigures = []figure{
	{"throughput", (*summary.Summary).RateUnit, true, (*summary.Summary).Rate},
	{"p50", ms, false, func(_ *summary.Summary, o *summary.Operation) float64 { return o.LatencyMS.P50 }},
	{"p99", ms, false, func(_ *summary.Summary, o *summary.Operation) float64 { return o.LatencyMS.P99 }},
}

// Repetitions is each operation's figures over runs, repetitions of one
// configuration, in the order of the first run's operations. An operation
// some repetition lacks is left out of none: its Values are only those of
// the runs that have it.
func Repetitions(runs []*summary.Summary) []Spread {
	var out []Spread
	for _, name := range summary.OperationNames(runs) {
		for _, f := range runFigures {
			out = append(out, spreadOf(name, f.name, f.unit(runs[0], name), runValues(runs, name, f)))
		}
	}
	return out
}

func spreadOf(op, metric, unit string, xs []float64) Spread {
	mean, variance := meanVar(xs)
	s := Spread{Operation: op, Metric: metric, Unit: unit, Values: xs, Mean: mean, Std: math.Sqrt(variance),
		CILow: mean, CIHigh: mean}
	if mean != 0 {
		s.CV = s.Std / math.Abs(mean)
	}
	s.Unstable = s.CV > MaxCV
	n := len(xs)
	if n < 2 {
		return s
	}
	t := TQuantile(Confidence, float64(n-1))
	logs, ok := logsOf(xs)
	if !ok {
		half := t * s.Std / math.Sqrt(float64(n))
		s.Interval, s.CILow, s.CIHigh = IntervalClipped, max(0, mean-half), mean+half
		return s
	}
	lm, lv := meanVar(logs)
	half := t * math.Sqrt(lv) / math.Sqrt(float64(n))
	s.Interval, s.CILow, s.CIHigh = IntervalLog, math.Exp(lm-half), math.Exp(lm+half)
	if s.Unstable {
		s.RunsFor5 = runsFor(math.Sqrt(lv), math.Log1p(MaxCV))
	}
	return s
}

// logsOf is the natural logarithm of every value, or false where one is
// not positive.
func logsOf(xs []float64) ([]float64, bool) {
	out := make([]float64, len(xs))
	for i, x := range xs {
		if !(x > 0) {
			return nil, false
		}
		out[i] = math.Log(x)
	}
	return out, true
}

// maxRunsFor bounds runsFor's answer: beyond it, "more than" is the answer.
const maxRunsFor = 1_000_000

// runsFor is the fewest runs whose interval at Confidence, with spread sd
// (of the logarithms), is within ±half: t(n-1) * sd / sqrt(n) <= half,
// found by bisection (the left side falls as n grows).
func runsFor(sd, half float64) int {
	within := func(n int) bool { return TQuantile(Confidence, float64(n-1))*sd/math.Sqrt(float64(n)) <= half }
	if !within(maxRunsFor) {
		return maxRunsFor + 1
	}
	lo, hi := 1, maxRunsFor // within(hi); lo is below every n that is
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; within(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// TQuantile is the two-sided critical value of Student's t with df degrees
// of freedom at confidence level c: P(|T| <= t) = c. Found by bisection on
// StudentTwoSided, which is monotone in t.
func TQuantile(c, df float64) float64 {
	lo, hi := 0.0, 1.0
	for StudentTwoSided(hi, df) > 1-c {
		hi *= 2
	}
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if StudentTwoSided(mid, df) > 1-c {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// TestBetweenRuns names the test of repeated runs in Metric.Test.
const TestBetweenRuns = "welch between runs"

// CompareRepeated compares groups of repeated runs with the baseline's
// group: each figure's per-run values (one whole-run value per repetition)
// with Welch's t-test, Holm-adjusted as Compare's. The spread between runs
// is what misleads (the same configuration on the same server gives
// another figure tomorrow), and per-second values of one run cannot show
// it. A pair in which either side has a single run cannot be tested so:
// it falls back to Compare's per-second test of the two first runs, and
// each figure's Test says which decided.
func CompareRepeated(base []*summary.Summary, others [][]*summary.Summary, alpha float64) Result {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	res := Compare(base[0], firsts(others), alpha)
	res.Baseline.Repetitions = len(base)
	for i, group := range others {
		res.Pairs[i].Run.Repetitions = len(group)
		if len(base) < 2 || len(group) < 2 {
			continue
		}
		res.Pairs[i] = compareGroups(base, group, alpha)
	}
	res.Method = fmt.Sprintf("where both sides have repetitions (--repeat): Welch's t-test on each figure's "+
		"whole-run values, one per repetition; otherwise %s; two-sided, p-values adjusted for the number of "+
		"figures tested (Holm), significant when p < %g", withinRunMethod, alpha)
	return res
}

func firsts(groups [][]*summary.Summary) []*summary.Summary {
	out := make([]*summary.Summary, len(groups))
	for i, g := range groups {
		out[i] = g[0]
	}
	return out
}

func compareGroups(a, b []*summary.Summary, alpha float64) Pair {
	p := Pair{Run: ref(b[0]), Differences: Diff(a[0], b[0])}
	p.Run.Repetitions = len(b)
	for _, name := range summary.OperationNames(append(append([]*summary.Summary{}, a...), b...)) {
		op := Operation{Name: name}
		for _, f := range runFigures {
			sa, sb := runValues(a, name, f), runValues(b, name, f)
			switch {
			case len(sa) == 0:
				op.Missing = "baseline"
			case len(sb) == 0:
				op.Missing = "run"
			default:
				op.Metrics = append(op.Metrics, groupMetric(f, f.unit(a[0], name), sa, sb))
			}
		}
		if op.Missing != "" {
			op.Metrics = nil
		}
		p.Operations = append(p.Operations, op)
	}
	adjust(&p, alpha)
	return p
}

func runValues(runs []*summary.Summary, op string, f figure) []float64 {
	var xs []float64
	for _, s := range runs {
		if o := s.Op(op); o != nil {
			xs = append(xs, f.value(s, o))
		}
	}
	return xs
}

func groupMetric(f figure, unit string, sa, sb []float64) Metric {
	ma, _ := meanVar(sa)
	mb, _ := meanVar(sb)
	m := Metric{Name: f.name, Unit: unit, Baseline: ma, Value: mb, Ratio: ratio(ma, mb), HigherIsBetter: f.higher,
		Test: TestBetweenRuns, Runs1: len(sa), Runs2: len(sb), Verdict: VerdictTooShort}
	if len(sa) < 2 || len(sb) < 2 {
		m.Test = "fewer than 2 repetitions a side: not tested"
		return m
	}
	_, _, pv := WelchT(sa, sb)
	m.PValue = &pv
	return m
}

// WriteRepetitions prints the figures of n repetitions: per operation and
// figure, the mean with its 95 % confidence interval, the coefficient of
// variation and each run's value, and a warning under any figure whose
// runs differ by more than MaxCV.
func WriteRepetitions(w io.Writer, group string, n int, spreads []Spread) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Repetitions: %d runs of one configuration (group %s; 'tsbench compare' tests between their runs)\n", n, group)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Operation\tMetric\tMean\t95%% CI\tCV\tRuns\n")
	var unstable []string
	clipped := false
	for i, s := range spreads {
		name := s.Operation
		if i > 0 && spreads[i-1].Operation == s.Operation {
			name = ""
		}
		cv := fmt.Sprintf("%.1f %%", s.CV*100)
		if s.Unstable {
			cv += " !"
			unstable = append(unstable, fmt.Sprintf("%s %s (%s)", s.Operation, s.Metric, runsText(s.RunsFor5)))
		}
		clipped = clipped || s.Interval == IntervalClipped
		vals := make([]string, len(s.Values))
		for j, v := range s.Values {
			vals[j] = FormatNumber(v)
		}
		fmt.Fprintf(tw, "%s\t%s (%s)\t%s\t%s .. %s\t%s\t%s\n", name, s.Metric, s.Unit, FormatNumber(s.Mean),
			FormatNumber(s.CILow), FormatNumber(s.CIHigh), cv, strings.Join(vals, ", "))
	}
	tw.Flush()
	if n > 1 {
		b.WriteString("Intervals: Student's t on the logarithms of the runs' values, taken back (about the geometric mean; never below 0)")
		if clipped {
			b.WriteString("; where a run's value is 0, t on the values, clipped at 0")
		}
		b.WriteString("\n")
	}
	if len(unstable) > 0 {
		fmt.Fprintf(&b, "Warning: the runs differ by more than %.0f %% (coefficient of variation) in %s: "+
			"one run of this configuration does not tell its figure; compare repetitions, not runs\n",
			MaxCV*100, strings.Join(unstable, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// runsText says how many repetitions a ±MaxCV interval would take.
func runsText(n int) string {
	switch {
	case n == 0:
		return "a ±5 % interval: not computable"
	case n > maxRunsFor:
		return fmt.Sprintf("a ±%.0f %% interval needs more than %s repetitions", MaxCV*100, count(maxRunsFor))
	}
	return fmt.Sprintf("a ±%.0f %% interval needs about %s repetitions", MaxCV*100, count(n))
}

// count prints a whole number with thousands separators.
func count(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return FormatNumber(float64(n))
}
