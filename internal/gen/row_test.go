package gen

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// round gives math.Round(v*scale)/scale for every input, halves, signed
// zeros, huge values and non-finite ones included.
func TestRoundMatchesMathRound(t *testing.T) {
	if belowHalf != math.Nextafter(0.5, 0) {
		t.Fatalf("belowHalf = %v, not the double below 0.5", belowHalf)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -2.5, 0.49999999999999994, -0.49999999999999994,
		0.005, -0.005, 1.005, 4503599627370495.5, -4503599627370495.5, 1e300, -1e300, math.MaxFloat64,
		math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for digits := 0; digits <= 6; digits++ {
		g := &Generator{scale: math.Pow10(digits)}
		values := append([]float64(nil), special...)
		for i := 0; i < 100_000; i++ {
			values = append(values, (rng.Float64()*2-1)*math.Pow10(rng.IntN(20)-6),
				float64(rng.IntN(2_000_001)-1_000_000)/2/g.scale) // halves at the rounding place
			// Exact halves of every magnitude, and their neighbours.
			half := (float64(rng.Int64N(1<<uint(rng.IntN(53)))) + 0.5) / g.scale
			if rng.IntN(2) == 0 {
				half = -half
			}
			values = append(values, half, math.Nextafter(half, 0), math.Nextafter(half, math.Inf(1)))
		}
		for _, v := range values {
			got, want := g.round(v), math.Round(v*g.scale)/g.scale
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("digits %d: round(%v) = %v, math.Round gives %v", digits, v, got, want)
			}
		}
	}
}

// One-row batches of many DOUBLE sensors of every model, among other
// types, hold Value's values, also when the same batch is resized by a
// batch of another length in between (the cursor's row array is then
// re-attached).
func TestOneRowBatchesMatchValue(t *testing.T) {
	for _, mode := range []OrderMode{InOrder, Poisson, BatchOrder} {
		t.Run(mode.String(), func(t *testing.T) { oneRowBatchesMatchValue(t, mode) })
	}
}

func oneRowBatchesMatchValue(t *testing.T, mode OrderMode) {
	types := make([]ts.DataType, 0, 66)
	for i := 0; i < 60; i++ {
		types = append(types, ts.Double)
	}
	types = append(types, allTypes()...)
	s := testSchema(3, types...)
	o := defaultOptions(1)
	o.Order = Order{Mode: mode, Ratio: 0.3, Lambda: 20, MaxDelay: 100}
	one := mustNew(t, s, o)
	o.BatchSize = 3
	three := mustNew(t, s, o)
	models := map[Model]int{}
	for s := 0; s < 60; s++ {
		models[one.ModelOf(s)]++
	}
	if len(models) != 6 {
		t.Fatalf("DOUBLE sensors of %d models, want all 6: the test would not cover them", len(models))
	}
	b := three.NewBatch() // room for either
	curOne, curThree := NewCursor(), NewCursor()
	check := func(g *Generator, dev int) {
		t.Helper()
		for i, k := range b.Rows {
			for sn := range s.Sensors {
				if got, want := b.Columns[sn].Value(i), g.Value(dev, sn, k); got != want {
					t.Fatalf("dev %d sensor %d (%s) row %d: batch %v, Value %v", dev, sn, g.ModelOf(sn), k, got, want)
				}
			}
		}
	}
	for n := int64(0); n < 3000; n++ {
		dev := int(n % 3)
		one.Fill(b, &s.Devices[dev], n/3, curOne)
		if b.Len() != 1 {
			t.Fatalf("batch has %d rows, want 1", b.Len())
		}
		check(one, dev)
		if n%500 == 499 {
			three.Fill(b, &s.Devices[dev], n, curThree)
			if b.Len() != 3 {
				t.Fatalf("batch has %d rows, want 3", b.Len())
			}
			check(three, dev)
		}
	}
}
