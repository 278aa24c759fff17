package promshape

import (
	"math"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// Functions of a gauge's window. deriv and predict_linear fit a least
// squares line through the window's samples in both engines (MetricsQL
// follows Prometheus here: VictoriaMetrics issue 73); they add up in
// their own orders (Prometheus with Kahan summation, from the first
// sample's time for deriv; MetricsQL plainly, from the evaluation time),
// so an answer is right within a bound of that rounding. changes counts
// value changes, and there the engines part ways by design: MetricsQL
// counts from the sample before the window, Prometheus within it.

// fnDeriv is deriv(x[w]): the fitted line's slope per second.
type fnDeriv struct{}

// fnPredict is predict_linear(x[w], horizon): the fitted line's value
// horizon seconds after the evaluation time.
type fnPredict struct{ horizon float64 }

// fnChanges is changes(x[w]).
type fnChanges struct{}

func (fnDeriv) apply(_ string, ps []Point, t, _ int64, _ float64) (v, tol float64) {
	fit := fitLine(ps, t)
	return fit.slope, fit.slopeTol
}

func (f fnPredict) apply(_ string, ps []Point, t, _ int64, _ float64) (v, tol float64) {
	fit := fitLine(ps, t)
	v = fit.intercept + fit.slope*f.horizon
	return v, fit.slopeTol*(f.horizon+fit.span) + fit.interceptTol
}

func (fnChanges) apply(engine string, ps []Point, _, _ int64, prev float64) (v, tol float64) {
	n := 0
	if engine == promql.EngineMetricsQL && ps[0].V != prev {
		n++
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].V != ps[i-1].V {
			n++
		}
	}
	return float64(n), 0
}

// line is a least squares fit of a window's samples, intercept at the
// evaluation time, with the bounds of an engine's rounding of it.
type line struct {
	slope, intercept       float64
	slopeTol, interceptTol float64
	span                   float64 // seconds from the first sample to the evaluation time
}

// fitLine fits the samples ps (two at least) by least squares, times in
// seconds from t. A window of equal values has slope 0 in both engines.
// The tolerances bound the rounding of sums of n terms (each engine adds
// in its own order and from its own origin) by a generous multiple of
// n ulps of the sums' magnitudes, divided by the spread of the times:
// far below a wrong sample's effect (at least 1/64 over the window).
func fitLine(ps []Point, t int64) line {
	n := float64(len(ps))
	var sx, sy, sxy, sxx, absY float64
	constant := true
	for _, p := range ps {
		x := float64(p.T-t) / 1e3
		sx += x
		sy += p.V
		sxy += x * p.V
		sxx += x * x
		absY = max(absY, math.Abs(p.V))
		constant = constant && p.V == ps[0].V
	}
	span := float64(t-ps[0].T) / 1e3
	if constant {
		return line{intercept: ps[0].V, span: span}
	}
	varX := sxx - sx*sx/n
	slope := (sxy - sx*sy/n) / varX
	const ulps = 0x1p-52 * 64
	slopeTol := ulps * n * n * span * absY / varX
	return line{
		slope:        slope,
		intercept:    sy/n - slope*sx/n,
		slopeTol:     slopeTol,
		interceptTol: ulps*n*absY + slopeTol*span,
		span:         span,
	}
}
