package promshape

import (
	"math"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// Each engine's rate, increase and irate by hand, over a window
// (0, 4000] ms of samples a second apart.
func TestRatesByHand(t *testing.T) {
	pts := func(vs ...float64) []Point {
		var out []Point
		for i, v := range vs {
			out = append(out, Point{T: int64(4000 - 1000*(len(vs)-1-i)), V: v})
		}
		return out
	}
	cases := []struct {
		name      string
		ps        []Point
		prev      float64 // the sample at 0, before the window
		prom, mql float64
	}{
		// Extrapolated a whole interval back to the window's start: 30
		// over 3 s is 40 over 4; MetricsQL counts 31 from the sample before.
		{"steady", pts(100, 110, 120, 130), 99, 10, 31.0 / 4},
		// A drop is a reset to zero: 100 + 25 - 100.
		{"reset", pts(100, 5, 15, 25), 99, 25 * 4.0 / 3 / 4, 0}, // MetricsQL's not modelled: no resets in the model
		// The counter's zero is nearer than the window's start: the
		// extrapolation stops there, 3 x 1/90 s back.
		{"near zero", pts(1, 31, 61, 91), 0, 90 * (3 + 3.0/90) / 3 / 4, 91.0 / 4},
		// The first sample 2 s in, past 1.1 intervals: half an interval back.
		{"late start", pts(10, 20, 30), 0, 20 * (2 + 0.5) / 2 / 4, 30.0 / 4},
	}
	for _, c := range cases {
		if got := extrapolatedRate(c.ps, 0, 4000, 4000); math.Abs(got-c.prom) > 1e-12 {
			t.Errorf("%s: Prometheus' rate %v, want %v", c.name, got, c.prom)
		}
		// increase is rate over the window's 4 s, in either engine.
		if got := fnIncrease.eval(promql.EnginePrometheus, c.ps, 4000, 4000, c.prev); math.Abs(got-4*c.prom) > 1e-9 {
			t.Errorf("%s: Prometheus' increase %v, want %v", c.name, got, 4*c.prom)
		}
		// irate: the last two samples, a second apart, in both engines.
		last2 := c.ps[len(c.ps)-1].V - c.ps[len(c.ps)-2].V
		for _, engine := range engines {
			if got := fnIrate.eval(engine, c.ps, 4000, 4000, c.prev); got != last2 {
				t.Errorf("%s: irate on %s %v, want %v", c.name, engine, got, last2)
			}
		}
		if c.name == "reset" {
			continue
		}
		if got := rateSinceBefore(c.ps, 0, c.prev); math.Abs(got-c.mql) > 1e-12 {
			t.Errorf("%s: MetricsQL's rate %v, want %v", c.name, got, c.mql)
		}
		if got := fnIncrease.eval(promql.EngineMetricsQL, c.ps, 4000, 4000, c.prev); math.Abs(got-4*c.mql) > 1e-9 {
			t.Errorf("%s: MetricsQL's increase %v, want %v", c.name, got, 4*c.mql)
		}
	}
}

// The rate queries answer for every job and mode once a window has
// passed, differently on the two engines, and not before: the series
// must be alive at the window's start.
func TestRateQueriesPerEngine(t *testing.T) {
	m := mustNew(t, testConfig())
	q := queryByName(t, m, "job_mode:node_cpu_seconds:rate")
	if !q.PerEngine {
		t.Fatal("a rate query not PerEngine")
	}
	if _, err := m.Expect(q, m.Time(8), ""); err == nil {
		t.Error("a rate answered without an engine")
	}
	early, err := m.Expect(q, m.Time(WindowScrapes-1), promql.EnginePrometheus)
	if err != nil || len(early) != 0 {
		t.Errorf("a rate before a whole window: %s, %v", vectorString(early), err)
	}
	prom, _ := m.Expect(q, m.Time(9), promql.EnginePrometheus)
	mql, _ := m.Expect(q, m.Time(9), promql.EngineMetricsQL)
	if len(prom) != len(smallShape.modes) || len(mql) != len(smallShape.modes) {
		t.Fatalf("a group per mode: prometheus %s, metricsql %s", vectorString(prom), vectorString(mql))
	}
	differ := false
	for i := range prom {
		if prom[i].Value <= 0 || prom[i].Tol <= 0 || prom[i].Tol > prom[i].Value*1e-12 {
			t.Errorf("%s: %v within %v", Key(prom[i].Labels), prom[i].Value, prom[i].Tol)
		}
		differ = differ || !within(prom[i].Value, mql[i].Value, prom[i].Tol+mql[i].Tol)
	}
	if !differ {
		t.Errorf("the engines' rates agree everywhere: %s", vectorString(prom))
	}
}

// histogram_quantile by hand: inside a bucket from its lower bound, in the
// first bucket from 0, at a bucket's exact count its upper bound, past
// the last finite bound that bound, and nothing without +Inf or
// observations.
func TestHistogramQuantileByHand(t *testing.T) {
	inf := math.Inf(1)
	bs := []bucket{{0.1, 40}, {0.2, 70}, {0.4, 90}, {inf, 100}}
	cases := []struct {
		q    float64
		bs   []bucket
		want float64
		ok   bool
	}{
		{0.5, bs, 0.1 + 0.1*(10.0/30), true},
		{0.2, bs, 0.1 * (20.0 / 40), true},
		{0.7, bs, 0.2, true},
		{0.95, bs, 0.4, true},
		{0.5, bs[:3], 0, false},
		{0.5, []bucket{{0.1, 0}, {inf, 0}}, 0, false},
	}
	for _, c := range cases {
		got, ok := quantileOf(c.q, c.bs)
		if ok != c.ok || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("q %v of %v: %v, %v; want %v, %v", c.q, c.bs, got, ok, c.want, c.ok)
		}
	}
}
