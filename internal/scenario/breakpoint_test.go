package scenario

import (
	"math/rand/v2"
	"testing"
)

func TestFindBreakPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	noisy := func(n int, level, noise float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = level * (1 + noise*(2*rng.Float64()-1))
		}
		return out
	}
	knee := append(noisy(120, 6000, 0.15), noisy(80, 2500, 0.15)...)
	spiky := noisy(200, 6000, 0.2)
	for i := 10; i < 200; i += 37 {
		spiky[i] = 500 // single-second hiccups are not a break point
	}
	cases := []struct {
		name      string
		xs        []float64
		wantFound bool
		wantAt    int
	}{
		{"clear knee", knee, true, 120},
		{"noisy flat", noisy(200, 6000, 0.2), false, 0},
		{"flat with spikes", spiky, false, 0},
		{"slow decline of 20%", func() []float64 {
			xs := make([]float64, 200)
			for i := range xs {
				xs[i] = 6000 - float64(i)*6
			}
			return xs
		}(), false, 0},
		{"too short", []float64{5, 5, 1}, false, 0},
	}
	for _, c := range cases {
		bp, found := FindBreakPoint(c.xs, 0.7, 10)
		if found != c.wantFound {
			t.Errorf("%s: found=%v (%+v), want %v", c.name, found, bp, c.wantFound)
			continue
		}
		if found && (bp.Index < c.wantAt-3 || bp.Index > c.wantAt+3) {
			t.Errorf("%s: break at %d, want about %d", c.name, bp.Index, c.wantAt)
		}
	}
}

func TestSummarise(t *testing.T) {
	s := Summarise([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if s.N != 8 || s.Mean != 5 || s.Min != 2 || s.Max != 9 || s.Std < 2.13 || s.Std > 2.14 {
		t.Fatalf("%+v", s)
	}
	if one := Summarise([]float64{3}); one.Std != 0 || one.Mean != 3 {
		t.Fatalf("%+v", one)
	}
}
