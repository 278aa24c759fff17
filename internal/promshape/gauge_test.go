package promshape

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// A line through the samples by hand: 1, 2, 3, 4 ten seconds apart,
// ending at the evaluation time, rise 0.1 a second.
func TestFitLineByHand(t *testing.T) {
	ps := []Point{{T: 70_000, V: 1}, {T: 80_000, V: 2}, {T: 90_000, V: 3}, {T: 100_000, V: 4}}
	if v, tol := (fnDeriv{}).apply("", ps, 100_000, 40_000, 0); math.Abs(v-0.1) > tol+1e-15 || tol <= 0 {
		t.Errorf("deriv %v ±%v, want 0.1", v, tol)
	}
	if v, tol := (fnPredict{horizon: 3600}).apply("", ps, 100_000, 40_000, 0); math.Abs(v-364) > tol+1e-12 {
		t.Errorf("predict_linear %v ±%v, want 364", v, tol)
	}
	flat := []Point{{T: 90_000, V: 7.5}, {T: 100_000, V: 7.5}}
	if v, tol := (fnDeriv{}).apply("", flat, 100_000, 40_000, 0); v != 0 || tol != 0 {
		t.Errorf("deriv of a flat window %v ±%v, want 0 exactly", v, tol)
	}
	if v, _ := (fnPredict{horizon: 60}).apply("", flat, 100_000, 40_000, 0); v != 7.5 {
		t.Errorf("predict_linear of a flat window %v, want 7.5", v)
	}
}

// Each engine's own arithmetic (Prometheus: Kahan sums from the first
// sample's time for deriv; MetricsQL: plain sums from the evaluation
// time) lands within the model's tolerance, on the model's kinds of
// values: load (k/64 below 8) and filesystem bytes (1024ths of up to
// 32 GiB).
func TestFitLineToleranceHoldsEachEnginesArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		n := 2 + r.IntN(30)
		const end = 1_700_000_000_000
		step := int64(1000 * (1 + r.IntN(30)))
		ps := make([]Point, n)
		for j := range ps {
			v := float64(r.IntN(512)) / 64
			if i%2 == 1 {
				v = float64(int64(32<<30) / 1024 * int64(40+r.IntN(961)))
			}
			ps[j] = Point{T: end - int64(n-1-j)*step, V: v}
		}
		slope, tol := (fnDeriv{}).apply("", ps, end, 0, 0)
		for _, origin := range []int64{ps[0].T, end} {
			for _, kahan := range []bool{true, false} {
				got, _ := engineRegression(ps, origin, kahan)
				if math.Abs(got-slope) > tol {
					t.Fatalf("case %d: slope %v (origin %d, Kahan %v), the model's %v ±%v", i, got, origin, kahan, slope, tol)
				}
			}
		}
		pred, ptol := (fnPredict{horizon: 3600}).apply("", ps, end, 0, 0)
		for _, kahan := range []bool{true, false} {
			s, b := engineRegression(ps, end, kahan)
			if got := s*3600 + b; math.Abs(got-pred) > ptol {
				t.Fatalf("case %d: predict %v (Kahan %v), the model's %v ±%v", i, got, kahan, pred, ptol)
			}
		}
	}
}

// engineRegression is an engine's least squares fit, x in seconds from
// origin, sums Kahan-compensated or plain.
func engineRegression(ps []Point, origin int64, kahan bool) (slope, intercept float64) {
	var sx, sy, sxy, sxx, cx, cy, cxy, cxx float64
	add := func(x, sum, c float64) (float64, float64) {
		if !kahan {
			return sum + x, 0
		}
		y := x - c
		t := sum + y
		return t, (t - sum) - y
	}
	for _, p := range ps {
		x := float64(p.T-origin) / 1e3
		sx, cx = add(x, sx, cx)
		sy, cy = add(p.V, sy, cy)
		sxy, cxy = add(x*p.V, sxy, cxy)
		sxx, cxx = add(x*x, sxx, cxx)
	}
	if slices.IndexFunc(ps, func(p Point) bool { return p.V != ps[0].V }) < 0 {
		return 0, ps[0].V // both engines: a flat window
	}
	n := float64(len(ps))
	slope = (sxy - sx*sy/n) / (sxx - sx*sx/n)
	return slope, sy/n - slope*sx/n
}

// changes: Prometheus within the window, MetricsQL from the sample
// before it too.
func TestChangesByHand(t *testing.T) {
	ps := []Point{{T: 1, V: 1}, {T: 2, V: 1}, {T: 3, V: 2}, {T: 4, V: 2}}
	for _, c := range []struct {
		prev      float64
		prom, mql float64
	}{{0, 1, 2}, {1, 1, 1}, {2, 1, 2}} {
		if got, _ := (fnChanges{}).apply(promql.EnginePrometheus, ps, 4, 4, c.prev); got != c.prom {
			t.Errorf("prev %v: Prometheus' changes %v, want %v", c.prev, got, c.prom)
		}
		if got, _ := (fnChanges{}).apply(promql.EngineMetricsQL, ps, 4, 4, c.prev); got != c.mql {
			t.Errorf("prev %v: MetricsQL's changes %v, want %v", c.prev, got, c.mql)
		}
	}
}
