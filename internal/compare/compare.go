// Package compare sets runs side by side: per operation, throughput and
// latency (p50, p99, max) of each run against a baseline, with ratios. A
// difference is called significant only when it exceeds the runs' own
// spread: the per-second values of both runs (throughput, p50 and p99 of
// each second) are compared with Welch's t-test, which does not assume equal
// variances, and the p-values are adjusted for the number of tests made
// (Holm–Bonferroni), so that a table of many figures does not flag chance
// differences. Seconds of one run are not independent draws (a slow
// compaction spans several): each run's seconds count as their effective
// number under their lag-1 autocorrelation, which keeps the false alarms
// of slowly wandering series near alpha. When either run has fewer than
// MinEffectiveSeconds of them, the figure is "too short to tell" rather than
// given a p-value that only says the test had no power. The maximum is a
// single extreme value with no spread to test against, so it is shown but
// never called significant.
package compare

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// DefaultAlpha is the significance level: a difference whose p-value is
// below it is significant.
const DefaultAlpha = 0.05

// MinEffectiveSeconds is the fewest effective seconds (EffectiveN) either
// run must have for a figure to be tested. Below it a p-value says nothing
// about the runs, only about the test's lack of power:
//   - Welch's degrees of freedom are then under about 8, and only large
//     shifts can show: the shift found half the time (before the Holm
//     adjustment, which asks for more) is 1.5 standard deviations of a
//     second with 5 effective seconds a side, 2.3 with 3, 4.3 with 2;
//   - the variances come from 4 or fewer independent values: one time in
//     ten the estimate is under a fifth of the truth (chi-squared, 3 df),
//     so the p-value itself is unreliable;
//   - the lag-1 autocorrelation behind EffectiveN is estimated from as
//     few lag pairs, so the count is itself shaky.
//
// Five is also the usual floor for a t-test in practice, and since
// EffectiveN is at least 2 and at most n, every run of fewer than 5
// seconds is too short, whatever its series look like: the user is told to
// run longer instead of reading "p = 1.000" as "no difference".
const MinEffectiveSeconds = 5

// Verdicts of a Metric.
const (
	VerdictBetter    = "better"
	VerdictWorse     = "worse"
	VerdictSame      = "no significant difference"
	VerdictTooShort  = "too short to tell"
	VerdictNotTested = "not tested"
)

// MinIntervalSeconds leaves out intervals shorter than this (the last,
// partial one): their rates are noisy.
const MinIntervalSeconds = 0.5

// Run identifies a compared run.
type Run struct {
	ID       string    `json:"run_id"`
	Target   string    `json:"target"`
	Scenario string    `json:"scenario,omitempty"`
	Started  time.Time `json:"started"`
	Elapsed  float64   `json:"elapsed_s"`
	// Answers says how the run's query answers checked out: "5 of 5
	// agree", "2 of 5 agree", or "" when none were checked.
	Answers string `json:"query_answers,omitempty"`
	// Repetitions is the number of repeated runs (--repeat) it stands for,
	// 0 for a single run.
	Repetitions int `json:"repetitions,omitempty"`
}

// Metric is one figure of one operation in two runs.
type Metric struct {
	Name           string  `json:"metric"` // throughput, p50, p99, max
	Unit           string  `json:"unit"`
	Baseline       float64 `json:"baseline"`
	Value          float64 `json:"value"`
	Ratio          float64 `json:"ratio"` // Value / Baseline; 0 when Baseline is 0
	HigherIsBetter bool    `json:"higher_is_better"`
	// Test is "welch" when the per-second series are compared (or would be,
	// given MinEffectiveSeconds: see Verdict), TestBetweenRuns when the
	// whole-run values of repetitions are (CompareRepeated), else why not
	// ("max: single value", "fewer than 2 seconds").
	Test string `json:"test"`
	// PValue is Welch's two-sided p-value adjusted (Holm–Bonferroni) for
	// the number of tests in the comparison; nil (null) when not tested,
	// among others when the runs are too short to tell.
	PValue *float64 `json:"p_value"`
	N1     int      `json:"seconds_baseline"`
	N2     int      `json:"seconds"`
	// EffN1 and EffN2 are what the seconds count for in the test, given
	// how much each second resembles the one before (see EffectiveN).
	EffN1 float64 `json:"effective_seconds_baseline,omitempty"`
	EffN2 float64 `json:"effective_seconds,omitempty"`
	// Runs1 and Runs2 are the repetitions whose whole-run values a test
	// between runs compared (Test is TestBetweenRuns); N1 and N2 are then 0.
	Runs1       int  `json:"runs_baseline,omitempty"`
	Runs2       int  `json:"runs,omitempty"`
	Significant bool `json:"significant"`
	// Verdict is "better", "worse" (significant only), "no significant
	// difference", "too short to tell" (fewer than MinEffectiveSeconds in
	// a run) or "not tested" (max).
	Verdict string `json:"verdict"`
}

// Operation is one operation's metrics; Missing says which run lacks it.
type Operation struct {
	Name    string   `json:"operation"`
	Missing string   `json:"missing,omitempty"`
	Metrics []Metric `json:"metrics,omitempty"`
}

// Pair compares one run with the baseline.
type Pair struct {
	Run Run `json:"run"`
	// Differences are the settings in which the run differs from the
	// baseline (only those), empty when none.
	Differences []Difference `json:"differences"`
	Operations  []Operation  `json:"operations"`
}

// Result is a whole comparison.
type Result struct {
	Alpha    float64 `json:"alpha"`
	Method   string  `json:"method"`
	Baseline Run     `json:"baseline"`
	Pairs    []Pair  `json:"comparisons"`
}

func ref(s *summary.Summary) Run {
	return Run{ID: s.RunID, Target: s.Target, Scenario: s.Scenario, Started: s.Started, Elapsed: s.Elapsed,
		Answers: answers(s.Verify)}
}

// answers counts a run's checked query answers that agree with the data
// written (a failed query does not agree).
func answers(v *summary.Verify) string {
	if v == nil || len(v.Queries) == 0 {
		return ""
	}
	agree := 0
	for _, q := range v.Queries {
		if q.OK && q.Error == "" {
			agree++
		}
	}
	return fmt.Sprintf("%d of %d agree", agree, len(v.Queries))
}

// Compare compares every run in others with base at significance alpha
// (DefaultAlpha when 0).
func Compare(base *summary.Summary, others []*summary.Summary, alpha float64) Result {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	res := Result{Alpha: alpha, Baseline: ref(base),
		Method: fmt.Sprintf("%s, two-sided, p-values adjusted for the number of figures tested (Holm), significant when p < %g",
			withinRunMethod, alpha)}
	for _, o := range others {
		res.Pairs = append(res.Pairs, comparePair(base, o, alpha))
	}
	return res
}

// Figures names the figures of the whole comparison that have the verdict,
// as "B: INGESTION p99".
func (r Result) Figures(verdict string) []string {
	var out []string
	for i, p := range r.Pairs {
		for _, op := range p.Operations {
			for _, m := range op.Metrics {
				if m.Verdict == verdict {
					out = append(out, fmt.Sprintf("%s: %s %s", label(i), op.Name, m.Name))
				}
			}
		}
	}
	return out
}

// withinRunMethod is the test of two single runs.
var withinRunMethod = fmt.Sprintf("Welch's t-test on per-second values (intervals of at least %.1f s; each run's seconds "+
	"counted as their effective number under lag-1 autocorrelation)", MinIntervalSeconds)

// Count is how many figures of the whole comparison have the verdict.
func (r Result) Count(verdict string) int { return len(r.Figures(verdict)) }

func comparePair(a, b *summary.Summary, alpha float64) Pair {
	p := Pair{Run: ref(b), Differences: Diff(a, b)}
	for _, name := range summary.OperationNames([]*summary.Summary{a, b}) {
		oa, ob := a.Op(name), b.Op(name)
		switch {
		case oa == nil:
			p.Operations = append(p.Operations, Operation{Name: name, Missing: "baseline"})
			continue
		case ob == nil:
			p.Operations = append(p.Operations, Operation{Name: name, Missing: "run"})
			continue
		}
		op := Operation{Name: name}
		// A query's throughput is queries per second: its points are its
		// answers' (summary.Rate).
		unit := a.RateUnit(name)
		rate := func(iv summary.Interval, o *summary.IntervalOp) (float64, bool) {
			return summary.IntervalRate(unit, iv, o), true
		}
		op.Metrics = append(op.Metrics,
			metric("throughput", unit, a.Rate(oa), b.Rate(ob), true, series(a, name, rate), series(b, name, rate)),
			metric("p50", "ms", oa.LatencyMS.P50, ob.LatencyMS.P50, false, series(a, name, p50), series(b, name, p50)),
			metric("p99", "ms", oa.LatencyMS.P99, ob.LatencyMS.P99, false, series(a, name, p99), series(b, name, p99)),
			untested("max", "ms", oa.LatencyMS.Max, ob.LatencyMS.Max, false, "single value: no spread to test"),
		)
		p.Operations = append(p.Operations, op)
	}
	adjust(&p, alpha)
	return p
}

// adjust corrects the p-values of a pair's tests for their number
// (Holm–Bonferroni: the chance of flagging any unchanged figure stays below
// alpha however many are compared), and sets Significant and Verdict from
// the adjusted values.
func adjust(p *Pair, alpha float64) {
	var tested []*Metric
	for i := range p.Operations {
		for j := range p.Operations[i].Metrics {
			if m := &p.Operations[i].Metrics[j]; m.PValue != nil {
				tested = append(tested, m)
			}
		}
	}
	sort.SliceStable(tested, func(i, j int) bool { return *tested[i].PValue < *tested[j].PValue })
	n := len(tested)
	running := 0.0
	for k, m := range tested {
		running = math.Max(running, math.Min(1, float64(n-k)**m.PValue)) // adjusted p-values never decrease with rank
		*m.PValue = running
		m.Significant = running < alpha && m.Baseline != m.Value
		m.Verdict = VerdictSame
		if m.Significant {
			if (m.Value > m.Baseline) == m.HigherIsBetter {
				m.Verdict = VerdictBetter
			} else {
				m.Verdict = VerdictWorse
			}
		}
	}
}

type pick func(iv summary.Interval, o *summary.IntervalOp) (float64, bool)

func p50(_ summary.Interval, o *summary.IntervalOp) (float64, bool) {
	if o == nil || o.OKOps == 0 {
		return 0, false
	}
	return o.P50MS, true
}

func p99(_ summary.Interval, o *summary.IntervalOp) (float64, bool) {
	if o == nil || o.OKOps == 0 {
		return 0, false
	}
	return o.P99MS, true
}

// series is an operation's per-second values over the measured phase.
func series(s *summary.Summary, name string, f pick) []float64 {
	var out []float64
	for _, iv := range s.Intervals {
		if iv.Seconds < MinIntervalSeconds {
			continue
		}
		var op *summary.IntervalOp
		for i := range iv.Ops {
			if iv.Ops[i].Name == name {
				op = &iv.Ops[i]
			}
		}
		if v, ok := f(iv, op); ok {
			out = append(out, v)
		}
	}
	return out
}

func ratio(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	return b / a
}

// metric compares one figure's per-second series sa and sb, when both runs
// have enough effective seconds (MinEffectiveSeconds); the p-value is
// adjusted, and the verdict given, by adjust.
func metric(name, unit string, a, b float64, higher bool, sa, sb []float64) Metric {
	m := Metric{Name: name, Unit: unit, Baseline: a, Value: b, Ratio: ratio(a, b), HigherIsBetter: higher,
		N1: len(sa), N2: len(sb), Verdict: VerdictTooShort}
	if len(sa) < 2 || len(sb) < 2 {
		m.Test = "fewer than 2 seconds in a run: not tested"
		return m
	}
	m.Test = "welch"
	m.EffN1, m.EffN2 = EffectiveN(sa), EffectiveN(sb)
	if TooShort(m.EffN1, m.EffN2) {
		return m
	}
	_, _, p := WelchTEffective(sa, sb)
	m.PValue = &p
	return m
}

// TooShort reports whether runs with these effective seconds are too short
// to test (see MinEffectiveSeconds).
func TooShort(effN1, effN2 float64) bool {
	return min(effN1, effN2) < MinEffectiveSeconds
}

func untested(name, unit string, a, b float64, higher bool, why string) Metric {
	return Metric{Name: name, Unit: unit, Baseline: a, Value: b, Ratio: ratio(a, b), HigherIsBetter: higher,
		Test: why, Verdict: VerdictNotTested}
}

// WelchT is Welch's unequal-variances t-test of two samples' means: the t
// statistic, the Welch–Satterthwaite degrees of freedom and the two-sided
// p-value. Two samples without any spread give p = 1 when their means are
// equal and 0 when not.
func WelchT(a, b []float64) (t, df, p float64) {
	return welch(a, float64(len(a)), b, float64(len(b)))
}

// WelchTEffective is WelchT with each sample counted as its EffectiveN:
// per-second values of a run are not independent draws (a compaction or a
// checkpoint spans several seconds), and the plain test, taking them as
// such, calls chance differences significant far more often than alpha.
func WelchTEffective(a, b []float64) (t, df, p float64) {
	return welch(a, EffectiveN(a), b, EffectiveN(b))
}

func welch(a []float64, n1 float64, b []float64, n2 float64) (t, df, p float64) {
	m1, v1 := meanVar(a)
	m2, v2 := meanVar(b)
	se2 := v1/n1 + v2/n2
	if se2 == 0 {
		if m1 == m2 {
			return 0, n1 + n2 - 2, 1
		}
		return math.Inf(sign(m1 - m2)), n1 + n2 - 2, 0
	}
	t = (m1 - m2) / math.Sqrt(se2)
	df = se2 * se2 / ((v1/n1)*(v1/n1)/(n1-1) + (v2/n2)*(v2/n2)/(n2-1))
	p = StudentTwoSided(t, df)
	return t, df, p
}

// EffectiveN is how many independent values a series of autocorrelated
// ones is worth when estimating its mean, under the first-order
// autoregressive approximation: n(1-r)/(1+r), with r the lag-1
// autocorrelation corrected for its small-sample bias. A negative r counts as 0, so that the correction never
// claims more than n values; the result is at least 2 (for n >= 2).
func EffectiveN(xs []float64) float64 {
	n := float64(len(xs))
	if len(xs) < 3 {
		return n
	}
	mean, _ := meanVar(xs)
	var num, den float64
	for i, x := range xs {
		den += (x - mean) * (x - mean)
		if i > 0 {
			num += (x - mean) * (xs[i-1] - mean)
		}
	}
	if den == 0 {
		return n
	}
	// The sample autocorrelation of a short series is biased low, by about
	// (1+4r)/n (Kendall); undone here, as otherwise a wandering series of
	// 30 seconds would still count for too many.
	r := num / den
	if n > 4 {
		r = (n*r + 1) / (n - 4)
	}
	r = min(max(r, 0), 0.99)
	return max(n*(1-r)/(1+r), 2)
}

func sign(x float64) int {
	if x < 0 {
		return -1
	}
	return 1
}

// meanVar returns the mean and the sample variance (n-1).
func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		variance /= float64(len(xs) - 1)
	}
	return mean, variance
}

// StudentTwoSided is P(|T| >= |t|) for Student's t distribution with df
// degrees of freedom: I_{df/(df+t²)}(df/2, 1/2).
func StudentTwoSided(t, df float64) float64 {
	if math.IsInf(t, 0) {
		return 0
	}
	if df <= 0 || math.IsNaN(t) {
		return 1
	}
	x := df / (df + t*t)
	return RegIncBeta(df/2, 0.5, x)
}

// RegIncBeta is the regularised incomplete beta function I_x(a, b),
// evaluated by its continued fraction (modified Lentz), as in Numerical
// Recipes' betai.
func RegIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const (
		maxIter = 300
		eps     = 1e-14
		tiny    = 1e-300
	)
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	// term takes the fraction's next coefficient aa (modified Lentz's
	// method) and returns the factor it brings to h.
	term := func(aa float64) float64 {
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		return d * c
	}
	for m := 1; m <= maxIter; m++ {
		fm := float64(m)
		m2 := 2 * fm
		h *= term(fm * (b - fm) * x / ((qam + m2) * (a + m2)))            // the even step
		del := term(-(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))) // the odd step
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
