package promshape

import (
	"fmt"
	"math"
	"time"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// Rates: where the engines part ways by design. Prometheus' engine (and
// Mimir's and Thanos', which follow it) takes the samples inside the
// window and extrapolates their increase towards the window's ends;
// VictoriaMetrics' MetricsQL counts from the last sample before the
// window, without extrapolating. The model computes each rule the way the
// engine does, in the same floating-point operations, so an answer is
// checked against its engine's expected value rather than a value both
// share.
//
// The queries keep the series alive from one end of the window to the
// other (`rate(x[w]) and x offset w and x`): a series born or replaced
// within the window is where the rules meet the engines' finer points (a
// staleness marker inside the window, a first sample with no sample
// before it), which the read load leaves out.

// counterFunc is a function of a counter's window: rate, increase or
// irate.
type counterFunc int

const (
	fnRate counterFunc = iota
	fnIncrease
	fnIrate
)

// rate is `rate(x[w]) and x offset w and x` of the selector at t on the
// source's engine.
func rate(src source, s selector, t, w int64) Vector { return guardedWindow(src, fnRate, s, t, w) }

// windowFunc is a function of a series' window: a counter's rate,
// increase or irate, a gauge's deriv, predict_linear or changes.
type windowFunc interface {
	// apply is the function of the samples ps in the window (t-w, t],
	// prev the sample at t-w, on engine: its value and the tolerance of
	// an engine's answer (Sample.Tol).
	apply(engine string, ps []Point, t, w int64, prev float64) (v, tol float64)
}

func (f counterFunc) apply(engine string, ps []Point, t, w int64, prev float64) (v, tol float64) {
	v = f.eval(engine, ps, t, w, prev)
	return v, math.Abs(v) * 0x1p-48
}

// guardedWindow is `f(x[w]) and x offset w and x` of the selector at t on
// the source's engine: the function f of each series alive at both ends
// of the window, with two samples in it at least.
func guardedWindow(src source, f windowFunc, s selector, t, w int64) Vector {
	var key []byte
	before := map[string]float64{}
	for _, x := range src.instant(s, t-w) {
		key = appendKey(key[:0], x.Labels, true)
		before[string(key)] = x.Value
	}
	alive := map[string]bool{}
	for _, x := range src.instant(s, t) {
		key = appendKey(key[:0], x.Labels, true)
		alive[string(key)] = true
	}
	var out Vector
	var slab labelSlab
	for _, ser := range src.window(s, t, w) {
		key = appendKey(key[:0], ser.Labels, true)
		prev, ok := before[string(key)]
		if !ok || !alive[string(key)] || len(ser.Points) < 2 {
			continue
		}
		v, tol := f.apply(src.engine(), ser.Points, t, w, prev)
		out = append(out, Sample{Labels: slab.dropName(ser.Labels), Value: v, Tol: tol})
	}
	return out // unsorted: Expect sorts the answer once
}

// eval is the function of a counter's samples ps in the window (t-w, t],
// prev the sample at t-w, on engine.
func (f counterFunc) eval(engine string, ps []Point, t, w int64, prev float64) float64 {
	switch {
	case f == fnIrate:
		// Both engines: the last two samples' increase per second.
		a, b := ps[len(ps)-2], ps[len(ps)-1]
		return (b.V - a.V) / (float64(b.T-a.T) / 1000)
	case engine == promql.EngineMetricsQL && f == fnIncrease:
		return ps[len(ps)-1].V - prev
	case engine == promql.EngineMetricsQL:
		return rateSinceBefore(ps, t-w, prev)
	case f == fnIncrease:
		return extrapolatedIncrease(ps, t-w, t)
	}
	return extrapolatedRate(ps, t-w, t, w)
}

// extrapolatedRate is Prometheus' rate of a counter's samples ps in the
// window (start, end] of w ms: their increase (a drop counted as a reset
// to zero), extrapolated to a window end that lies within 1.1 average
// sample intervals of the nearest sample, else by half an interval, and
// never back past the counter's zero; per second of the window. The
// operations are in Prometheus' order, so the result is its bits.
func extrapolatedRate(ps []Point, start, end, w int64) float64 {
	increase, factor := extrapolated(ps, start, end)
	factor /= (time.Duration(w) * time.Millisecond).Seconds()
	return increase * factor
}

// extrapolatedIncrease is Prometheus' increase of a counter's samples ps
// in the window (start, end]: rate's, not divided by the window.
func extrapolatedIncrease(ps []Point, start, end int64) float64 {
	increase, factor := extrapolated(ps, start, end)
	return increase * factor
}

// extrapolated is the increase of a counter's samples ps (a drop counted
// as a reset to zero) and the factor that extrapolates it to the window
// (start, end].
func extrapolated(ps []Point, start, end int64) (increase, factor float64) {
	first, last := ps[0], ps[len(ps)-1]
	increase = last.V - first.V
	for i := 1; i < len(ps); i++ {
		if ps[i].V < ps[i-1].V {
			increase += ps[i-1].V
		}
	}
	toStart := float64(first.T-start) / 1000
	toEnd := float64(end-last.T) / 1000
	sampled := float64(last.T-first.T) / 1000
	average := sampled / float64(len(ps)-1)
	threshold := average * 1.1
	if toStart >= threshold {
		toStart = average / 2
	}
	if increase > 0 && first.V >= 0 {
		if toZero := sampled * (first.V / increase); toZero < toStart {
			toStart = toZero
		}
	}
	if toEnd >= threshold {
		toEnd = average / 2
	}
	return increase, (sampled + toStart + toEnd) / sampled
}

// rateSinceBefore is MetricsQL's rate of a counter's samples ps in the
// window that starts at start, where the sample before the window, prev,
// lies: the increase from prev to the last sample per second between
// them. (MetricsQL removes counter resets first; the model's counters
// have none while their target lives.)
func rateSinceBefore(ps []Point, start int64, prev float64) float64 {
	last := ps[len(ps)-1]
	return (last.V - prev) / (float64(last.T-start) / 1e3)
}

// checkEngine refuses an engine the query's answer depends on but the
// model does not know.
func (q Query) checkEngine(engine string) error {
	if !q.PerEngine || engine == promql.EnginePrometheus || engine == promql.EngineMetricsQL {
		return nil
	}
	return fmt.Errorf("promshape: %s: its answer depends on the engine (%s or %s), not %q",
		q.Name, promql.EnginePrometheus, promql.EngineMetricsQL, engine)
}
