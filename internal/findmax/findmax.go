// Package findmax searches for the highest rate a database sustains within
// latency objectives ("INGESTION.p99<50ms"): open-model rates are stepped
// up by doubling until a step fails, then bisected to a precision. A step
// fails when it breaks an objective, or when the rate it achieved falls
// more than MaxShortfall short of the rate offered (a server that cannot
// keep up builds a queue that a short step may not yet show in its
// latencies). Each step is one run, held for a settle time (its warm-up)
// and then measured; this package decides the rates and how long each step
// is measured, and judges the steps; the caller runs them.
//
// A percentile is a measurement only over enough operations: the p99 of 40
// operations is their maximum. A step at a low rate is therefore measured
// longer, up to a limit, until each objective's operation can complete the
// operations its percentile needs (MinOps); a step that still cannot is
// flagged, and the search stops there rather than judge on it.
package findmax

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// MaxShortfall is how far short of the offered rate a step may fall and
// still pass.
const MaxShortfall = 0.05

// Search is one search's settings.
type Search struct {
	Objectives []threshold.Threshold
	// Start is the first rate offered (operations per second, every client
	// together); 0 starts from half of what a closed-loop probe achieves.
	Start     float64
	Precision float64 // e.g. 0.05
	MaxSteps  int     // steps at most, the probe included
	// Measure is each step's measured time; a step at a rate too low to
	// complete the operations an objective needs in it is lengthened, up
	// to MaxMeasure.
	Measure, MaxMeasure time.Duration
	// MinOps is the number of operations each objective's operation must
	// complete in a step; 0 takes it from the objective's metric (MinOps).
	MinOps int64
	// OnStep, when set, hears of each step once it is judged (n from 1).
	OnStep func(n int, st summary.FindMaxStep)
}

// StepFunc runs one step at rate (operations per second; 0 = closed loop),
// measured for measure, and returns its run. An error ends the search; a
// run returned with it (an interrupted step) is judged first.
type StepFunc func(rate float64, measure time.Duration) (*summary.Summary, error)

// ErrNoRate is a search whose probe achieved nothing to start from.
var ErrNoRate = errors.New("the closed-loop probe completed no operation: no rate to start from")

// ErrNoOperations is a step in which an objective's operation was not done
// at all: there is nothing to judge the objective by, so the search, not
// the server, is at fault (a step too short for its rate, a mix without
// that operation).
var ErrNoOperations = errors.New("no operation to judge")

// Run searches, calling step for each rate, and returns the search and the
// run of its best step (of its last step when none passed). An error of a
// step ends the search; what was searched until then is returned with it.
func (s Search) Run(step StepFunc) (*summary.FindMax, *summary.Summary, error) {
	fm := &summary.FindMax{Precision: s.Precision, MaxShortfall: MaxShortfall, Best: -1,
		MaxMeasureS: s.MaxMeasure.Seconds()}
	for _, o := range s.Objectives {
		fm.Objectives = append(fm.Objectives, o.Expr)
		fm.MinOperations = max(fm.MinOperations, s.minOps(o))
	}
	r := &search{Search: s, run: step, fm: fm}
	rate := s.Start
	if rate <= 0 {
		probe, err := r.take(0)
		if err != nil {
			return fm, r.pick(), err
		}
		if rate = probe.Achieved / 2; rate <= 0 {
			return fm, r.last, ErrNoRate
		}
	}
	lo, hi := 0.0, math.Inf(1) // highest passing, lowest failing rate
	for len(fm.Steps) < max(s.MaxSteps, 1) {
		st, err := r.take(rate)
		if err != nil {
			return fm, r.pick(), err
		}
		if st.TooFew != "" {
			if math.IsInf(hi, 1) && lo == 0 { // a first rate too low to tell: higher ones may
				rate *= 2
				continue
			}
			// Lower rates would complete fewer still: nothing below is
			// measurable within MaxMeasure.
			fm.Floor = rate
			break
		}
		if st.Passed {
			lo = max(lo, rate)
		} else {
			hi = min(hi, rate)
		}
		next, done := nextRate(lo, hi, s.Precision)
		if done {
			fm.Bracketed = lo > 0
			break
		}
		rate = next
	}
	return fm, r.pick(), nil
}

// search is one Run's state: its steps (in fm), the runs of its best and
// last steps, and the last step's mix.
type search struct {
	Search
	run        StepFunc
	fm         *summary.FindMax
	best, last *summary.Summary
	shares     map[string]float64 // each operation's share of the last step's operations
}

// take holds rate for as long as the last step's mix says its objectives
// need, and once more, longer, when the step then shows that it completed
// too few.
func (r *search) take(rate float64) (summary.FindMaxStep, error) {
	measure := r.measureFor(rate, r.shares)
	st, err := r.hold(rate, measure)
	if err != nil || st.TooFew == "" || rate <= 0 {
		return st, err
	}
	longer := max(r.measureFor(rate, r.shares), r.longer(measure, st.Operations, r.fm.MinOperations))
	if longer > measure && len(r.fm.Steps) < max(r.MaxSteps, 1) {
		return r.hold(rate, longer)
	}
	return st, nil
}

// hold runs one step at rate, measured for measure, and judges it.
func (r *search) hold(rate float64, measure time.Duration) (summary.FindMaxStep, error) {
	run, err := r.run(rate, measure)
	if run == nil {
		return summary.FindMaxStep{}, err
	}
	fm := r.fm
	st := r.Judge(run, rate)
	st.MeasuredS = run.Elapsed
	fm.Steps = append(fm.Steps, st)
	r.last, r.shares = run, operationShares(run)
	if st.Passed && rate > 0 && (r.best == nil || rate > fm.Rate) { // the probe offers no rate
		r.best, fm.Best, fm.Rate, fm.Found = run, len(fm.Steps)-1, rate, true
	}
	if r.OnStep != nil {
		r.OnStep(len(fm.Steps), st)
	}
	if err == nil && rate > 0 && st.Empty != "" {
		err = fmt.Errorf("find-max: the step at %s ops/s, measured %.1f s: %s: %w", Rate(rate), run.Elapsed, st.Empty, ErrNoOperations)
	}
	return st, err
}

// pick is the run of the best step, else of the last.
func (r *search) pick() *summary.Summary {
	if r.best != nil {
		return r.best
	}
	return r.last
}

// minRate ends a search whose every step failed: below one operation a
// second there is nothing left to find.
const minRate = 1.0

// nextRate is the rate after a step: double until a step fails, halve
// until one passes, then bisect until the two are within precision.
func nextRate(lo, hi, precision float64) (rate float64, done bool) {
	switch {
	case math.IsInf(hi, 1):
		return lo * 2, false
	case lo == 0:
		return hi / 2, hi/2 < minRate
	case (hi-lo)/lo <= precision:
		return 0, true
	}
	return (lo + hi) / 2, false
}

// Judge says whether the run of one step at rate (0 = the closed-loop
// probe, which passes or fails by its objectives alone) met every
// objective and achieved the rate offered, with enough operations to tell.
func (s Search) Judge(run *summary.Summary, rate float64) summary.FindMaxStep {
	st := summary.FindMaxStep{RunID: run.RunID, Offered: rate, Passed: true}
	var ops int64
	for _, o := range run.Operations {
		ops += o.OKOperations
	}
	if run.Elapsed > 0 {
		st.Achieved = float64(ops) / run.Elapsed
	}
	if o := headline(run, s.Objectives); o != nil {
		st.Operation, st.P50MS, st.P99MS, st.Operations = o.Name, o.LatencyMS.P50, o.LatencyMS.P99, o.OKOperations
	}
	s.countEnough(run, &st)
	for _, o := range s.Objectives {
		r := o.Evaluate(run)
		if r.Passed {
			continue
		}
		st.Passed = false
		reason := fmt.Sprintf("%s (actual %.4g)", o.Expr, r.Actual)
		if r.Reason != "" {
			reason = fmt.Sprintf("%s (%s)", o.Expr, r.Reason)
		}
		if b := burstsOf(run, o); b != nil {
			st.Bursts = b
			reason += "; " + burstText(b)
		}
		st.Reasons = append(st.Reasons, reason)
	}
	if rate > 0 && st.Achieved < rate*(1-MaxShortfall) {
		st.Passed = false
		st.Reasons = append(st.Reasons, fmt.Sprintf("achieved %s of %s ops/s (%.1f %% short)", Rate(st.Achieved), Rate(rate),
			100*(1-st.Achieved/rate)))
		// The shortfall is the verdict, however few operations completed:
		// a server that cannot keep up would complete too few at any
		// length, and a step held longer or a "floor" would misread it.
		if st.TooFew != "" {
			st.TooFew = ""
			st.Reasons = slices.DeleteFunc(st.Reasons, func(r string) bool { return strings.HasPrefix(r, tooFewReason) })
		}
	}
	if run.Interrupted {
		st.Passed = false
		st.Reasons = append(st.Reasons, "interrupted")
	}
	return st
}

// tooFewReason begins the reason of a step with too few operations.
const tooFewReason = "too few operations to tell: "

// countEnough flags a step in which an objective's operation completed
// fewer operations than its metric needs (TooFew), or none at all (Empty):
// neither passes.
func (s Search) countEnough(run *summary.Summary, st *summary.FindMaxStep) {
	for _, o := range s.Objectives {
		if o.Operation == "" {
			continue
		}
		var done, failed int64
		if op := run.Op(o.Operation); op != nil {
			done, failed = op.OKOperations, op.FailOperations
		}
		need := s.minOps(o)
		switch {
		case done+failed == 0:
			st.Empty = fmt.Sprintf("no %s operation was done", o.Operation)
		case done < need:
			st.TooFew = fmt.Sprintf("%d %s operations of the %d its %s needs", done, o.Operation, need, o.Metric)
		default:
			continue
		}
		st.Passed = false
		st.Reasons = append(st.Reasons, tooFewReason+firstOf(st.Empty, st.TooFew))
		return
	}
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// headline is the operation a step's latencies are shown for: the first
// objective's, else INGESTION, else the run's first.
func headline(run *summary.Summary, objectives []threshold.Threshold) *summary.Operation {
	for _, o := range objectives {
		if op := run.Op(o.Operation); op != nil {
			return op
		}
	}
	if op := run.Op("INGESTION"); op != nil {
		return op
	}
	if len(run.Operations) > 0 {
		return &run.Operations[0]
	}
	return nil
}

// Rate prints an operations-per-second figure with the digits that tell
// one rate from another at its size: "2 of 2 ops/s (15.8 % short)" hid
// that 1.68 was achieved.
func Rate(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
