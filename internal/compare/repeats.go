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
	// CILow and CIHigh bound the mean at Confidence (n-1 degrees of
	// freedom); with one run they equal the mean.
	CILow  float64 `json:"ci95_low"`
	CIHigh float64 `json:"ci95_high"`
	CV     float64 `json:"cv"` // Std / Mean; 0 when Mean is 0
	// Unstable: CV above MaxCV.
	Unstable bool `json:"unstable,omitempty"`
}

// figure reads one whole-run figure of an operation.
type figure struct {
	name, unit string
	higher     bool
	value      func(o *summary.Operation) float64
}

var runFigures = []figure{
	{"throughput", "points/s", true, func(o *summary.Operation) float64 { return o.Throughput }},
	{"p50", "ms", false, func(o *summary.Operation) float64 { return o.LatencyMS.P50 }},
	{"p99", "ms", false, func(o *summary.Operation) float64 { return o.LatencyMS.P99 }},
}

// Repetitions is each operation's figures over runs, repetitions of one
// configuration, in the order of the first run's operations. An operation
// some repetition lacks is left out of none: its Values are only those of
// the runs that have it.
func Repetitions(runs []*summary.Summary) []Spread {
	var out []Spread
	for _, name := range summary.OperationNames(runs) {
		for _, f := range runFigures {
			out = append(out, spreadOf(name, f, runValues(runs, name, f)))
		}
	}
	return out
}

func spreadOf(op string, f figure, xs []float64) Spread {
	mean, variance := meanVar(xs)
	s := Spread{Operation: op, Metric: f.name, Unit: f.unit, Values: xs, Mean: mean, Std: math.Sqrt(variance),
		CILow: mean, CIHigh: mean}
	if n := len(xs); n > 1 {
		half := TQuantile(Confidence, float64(n-1)) * s.Std / math.Sqrt(float64(n))
		s.CILow, s.CIHigh = mean-half, mean+half
	}
	if mean != 0 {
		s.CV = s.Std / math.Abs(mean)
	}
	s.Unstable = s.CV > MaxCV
	return s
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
				op.Metrics = append(op.Metrics, groupMetric(f, sa, sb))
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
			xs = append(xs, f.value(o))
		}
	}
	return xs
}

func groupMetric(f figure, sa, sb []float64) Metric {
	ma, _ := meanVar(sa)
	mb, _ := meanVar(sb)
	m := Metric{Name: f.name, Unit: f.unit, Baseline: ma, Value: mb, Ratio: ratio(ma, mb), HigherIsBetter: f.higher,
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
	for i, s := range spreads {
		name := s.Operation
		if i > 0 && spreads[i-1].Operation == s.Operation {
			name = ""
		}
		cv := fmt.Sprintf("%.1f %%", s.CV*100)
		if s.Unstable {
			cv += " !"
			unstable = append(unstable, s.Operation+" "+s.Metric)
		}
		vals := make([]string, len(s.Values))
		for j, v := range s.Values {
			vals[j] = FormatNumber(v)
		}
		fmt.Fprintf(tw, "%s\t%s (%s)\t%s\t%s .. %s\t%s\t%s\n", name, s.Metric, s.Unit, FormatNumber(s.Mean),
			FormatNumber(s.CILow), FormatNumber(s.CIHigh), cv, strings.Join(vals, ", "))
	}
	tw.Flush()
	if len(unstable) > 0 {
		fmt.Fprintf(&b, "Warning: the runs differ by more than %.0f %% (coefficient of variation) in %s: "+
			"one run of this configuration does not tell its figure; compare repetitions, not runs\n",
			MaxCV*100, strings.Join(unstable, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
