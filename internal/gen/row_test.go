package gen

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

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
