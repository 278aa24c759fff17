package gen

import (
	"fmt"
	"math"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func testSchema(devices int, types ...ts.DataType) *ts.Schema {
	s := &ts.Schema{Database: "test", Groups: []string{"g_0"}, StartTime: 1_640_966_400_000, PointStep: 5000}
	for i := 0; i < devices; i++ {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: "d_" + string(rune('0'+i))})
	}
	for i, t := range types {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: "s_" + string(rune('0'+i)), Type: t})
	}
	return s
}

func allTypes() []ts.DataType { return ts.DataTypes }

func mustNew(t testing.TB, s *ts.Schema, o Options) *Generator {
	t.Helper()
	g, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func defaultOptions(batch int) Options {
	return Options{Seed: 666, Ratios: [6]float64{1, 1, 1, 1, 1, 1}, StringLength: 4, DoubleLength: 2, BatchSize: batch}
}

// Any batch, in any delivery mode, holds exactly the values Value computes for
// its rows: batches are recomputable point by point. With one row per batch
// the cursor carries each series' phase from batch to batch, over more rows
// than the longest period (10,000), so its wrap-around is crossed too.
func TestFillMatchesValue(t *testing.T) {
	for _, c := range []struct{ batch, batches int64 }{{7, 40}, {1, 10_500}} {
		for _, mode := range []OrderMode{InOrder, Poisson, BatchOrder} {
			t.Run(fmt.Sprintf("%s/batch%d", mode, c.batch), func(t *testing.T) {
				fillMatchesValue(t, mode, c.batch, c.batches)
			})
		}
	}
}

func fillMatchesValue(t *testing.T, mode OrderMode, batch, batches int64) {
	o := defaultOptions(int(batch))
	o.Order = Order{Mode: mode, Ratio: 0.3, Lambda: 20, MaxDelay: 100}
	s := testSchema(3, allTypes()...)
	g := mustNew(t, s, o)
	b := g.NewBatch()
	cur := NewCursor()
	for _, dev := range []int{0, 2, 0} {
		for n := int64(0); n < batches; n++ {
			g.Fill(b, &s.Devices[dev], n, cur)
			if b.Len() != int(batch) {
				t.Fatalf("batch has %d rows, want %d", b.Len(), batch)
			}
			checkFixed(t, b, batch > 1)
			for i, k := range b.Rows {
				if b.Times[i] != g.Time(k) {
					t.Fatalf("row %d time %d, want %d", k, b.Times[i], g.Time(k))
				}
				for sn := range s.Sensors {
					if got, want := b.Columns[sn].Value(i), g.Value(dev, sn, k); got != want {
						t.Fatalf("dev %d sensor %d row %d: batch %v, Value %v", dev, sn, k, got, want)
					}
				}
			}
		}
	}
}

// checkFixed holds a batch's DOUBLE columns to ts.Column.Fixed's promise:
// when kept, each integer but 0 divided by 10^Decimals is exactly the value.
// Batches of several rows (the column path) keep them; one-row batches
// may not, and then say so by the length.
func checkFixed(t *testing.T, b *ts.Batch, mustKeep bool) {
	t.Helper()
	for sn := range b.Columns {
		c := &b.Columns[sn]
		if c.Type != ts.Double {
			continue
		}
		if len(c.Fixed) != len(c.Doubles) {
			if mustKeep {
				t.Fatalf("sensor %d: %d integers for %d values", sn, len(c.Fixed), len(c.Doubles))
			}
			continue
		}
		for i, n := range c.Fixed {
			if v := float64(n) / math.Pow10(b.Decimals); v != c.Doubles[i] && n != 0 {
				t.Fatalf("sensor %d row %d: Fixed %d / 10^%d = %v, value %v", sn, i, n, b.Decimals, v, c.Doubles[i])
			}
		}
	}
}

// Two generators from the same seed agree; another seed differs.
func TestDeterministicAcrossInstances(t *testing.T) {
	s := testSchema(2, allTypes()...)
	a := mustNew(t, s, defaultOptions(50))
	b := mustNew(t, s, defaultOptions(50))
	o := defaultOptions(50)
	o.Seed = 667
	c := mustNew(t, s, o)
	same, diff := 0, 0
	for sn := range s.Sensors {
		for k := int64(0); k < 200; k++ {
			if a.Value(1, sn, k) != b.Value(1, sn, k) {
				t.Fatalf("sensor %d row %d differs between equal generators", sn, k)
			}
			if a.Value(1, sn, k) == c.Value(1, sn, k) {
				same++
			} else {
				diff++
			}
		}
	}
	if diff < same {
		t.Fatalf("a different seed changed only %d of %d values", diff, same+diff)
	}
}

// Over whole windows every row is delivered exactly once: no timestamp
// collides and none is lost, whatever the delivery mode.
func TestOutOfOrderIsAPermutation(t *testing.T) {
	cases := []struct {
		name  string
		order Order
		batch int
	}{
		{"in-order", Order{}, 10},
		{"poisson", Order{Mode: Poisson, Ratio: 0.5, Lambda: 30, MaxDelay: 1000}, 10},
		{"poisson-large-lambda", Order{Mode: Poisson, Ratio: 0.3, Lambda: 2200, MaxDelay: 170000}, 100},
		{"poisson-batch1", Order{Mode: Poisson, Ratio: 0.2, Lambda: 5, MaxDelay: 10}, 1},
		{"poisson-all-late", Order{Mode: Poisson, Ratio: 1, Lambda: 5, MaxDelay: 10}, 3},
		{"batch", Order{Mode: BatchOrder, Ratio: 0.5, Lambda: 50, MaxDelay: 1000}, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			units, _ := tc.order.window(tc.batch)
			rowsPerWindow := units
			if tc.order.Mode == BatchOrder {
				rowsPerWindow = units * tc.batch
			}
			if tc.order.Mode == InOrder {
				rowsPerWindow = tc.batch * 10
			}
			total := int64(3 * rowsPerWindow)
			batches := total / int64(tc.batch)
			cur := NewCursor()
			seen := make([]bool, total)
			late := 0
			var maxSeen int64 = -1
			for n := int64(0); n < batches; n++ {
				rows := tc.order.rows(nil, tc.batch, 4, n, cur, 42)
				for _, k := range rows {
					if k < 0 || k >= total {
						t.Fatalf("batch %d has row %d outside [0, %d)", n, k, total)
					}
					if seen[k] {
						t.Fatalf("row %d delivered twice", k)
					}
					seen[k] = true
					if k < maxSeen {
						late++
					}
					maxSeen = max(maxSeen, k)
				}
			}
			for k, ok := range seen {
				if !ok {
					t.Fatalf("row %d never delivered", k)
				}
			}
			share := float64(late) / float64(total)
			switch {
			case tc.order.Mode == InOrder && late != 0:
				t.Fatalf("in-order delivery has %d late rows", late)
			case tc.order.Mode == Poisson && tc.order.Ratio < 1 && math.Abs(share-tc.order.Ratio) > 0.15:
				t.Fatalf("late share %.3f, want about %.2f", share, tc.order.Ratio)
			case tc.order.Mode == BatchOrder && late == 0:
				t.Fatalf("batch mode delivered nothing late")
			}
		})
	}
}

// The cursor is only a cache: without it the same rows come out.
func TestCursorIsOnlyACache(t *testing.T) {
	o := Order{Mode: Poisson, Ratio: 0.4, Lambda: 12, MaxDelay: 60}
	cur := NewCursor()
	for n := int64(0); n < 30; n++ {
		a := o.rows(nil, 5, 1, n, cur, 9)
		b := o.rows(nil, 5, 1, n, nil, 9)
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("batch %d: cursor %v, no cursor %v", n, a, b)
			}
		}
	}
}

// No series repeats with a short period: for every lag up to maxLag some
// value differs from the one lag rows later. IoT-benchmark repeats every
// 100 values.
func TestNoShortPeriod(t *testing.T) {
	const n, maxLag = 60000, 1000
	for m := Line; m <= Walk; m++ {
		for _, typ := range []ts.DataType{ts.Double, ts.Int32, ts.Text, ts.Boolean} {
			o := defaultOptions(n)
			o.Ratios = [6]float64{}
			o.Ratios[m] = 1
			s := testSchema(1, typ)
			g := mustNew(t, s, o)
			b := g.NewBatch()
			g.Fill(b, &s.Devices[0], 0, nil)
			col := &b.Columns[0]
			for lag := 1; lag <= maxLag; lag++ {
				periodic := true
				for k := 0; k+lag < n && periodic; k++ {
					periodic = col.Value(k) == col.Value(k+lag)
				}
				if periodic {
					t.Fatalf("%s %s series repeats with period %d", m, typ, lag)
				}
			}
		}
	}
}

// The model mix follows the ratios.
func TestModelRatios(t *testing.T) {
	types := make([]ts.DataType, 600)
	for i := range types {
		types[i] = ts.Double
	}
	o := defaultOptions(1)
	o.Ratios = [6]float64{1, 0, 2, 0, 0, 1}
	g := mustNew(t, testSchema(1, types...), o)
	count := map[Model]int{}
	for i := range types {
		count[g.ModelOf(i)]++
	}
	if count[Sin]+count[Random]+count[Constant] != 0 {
		t.Fatalf("zero-weight models were picked: %v", count)
	}
	if count[Square] < 240 || count[Square] > 360 || count[Line] < 100 || count[Walk] < 100 {
		t.Fatalf("model mix %v far from 1:2:1", count)
	}
}

func TestDoubleLengthRounds(t *testing.T) {
	g := mustNew(t, testSchema(1, ts.Double, ts.Float), defaultOptions(1))
	for k := int64(0); k < 1000; k++ {
		v := g.Value(0, 0, k).(float64)
		if r := math.Round(v*100) / 100; r != v {
			t.Fatalf("row %d value %v has more than 2 decimals", k, v)
		}
	}
}

func TestSinTurnAccuracy(t *testing.T) {
	for i := 0; i < 100000; i++ {
		x := float64(i) / 100000
		if d := math.Abs(sinTurn(x) - math.Sin(2*math.Pi*x)); d > 1e-6 {
			t.Fatalf("sinTurn(%v) off by %g", x, d)
		}
	}
}

func TestWriteDoesNotAllocate(t *testing.T) {
	s := testSchema(2, ts.Double, ts.Text, ts.Int64, ts.Boolean)
	g := mustNew(t, s, defaultOptions(100))
	b := g.NewBatch()
	cur := NewCursor()
	n := int64(0)
	allocs := testing.AllocsPerRun(100, func() {
		g.Fill(b, &s.Devices[1], n, cur)
		n++
	})
	if allocs != 0 {
		t.Fatalf("Fill allocates %.1f times per batch", allocs)
	}
}

// With the planned row count known, a complete run sends exactly rows
// [0, Rows) even when Rows is not a whole number of windows.
func TestLastWindowIsCut(t *testing.T) {
	for _, o := range []Order{
		{Mode: Poisson, Ratio: 0.5, Lambda: 40, MaxDelay: 200, Rows: 1000},
		{Mode: BatchOrder, Ratio: 0.5, Lambda: 100, MaxDelay: 400, Rows: 1000},
	} {
		cur := NewCursor()
		seen := map[int64]bool{}
		for n := int64(0); n < 40; n++ {
			for _, k := range o.rows(nil, 25, 3, n, cur, 5) {
				if k >= 1000 || seen[k] {
					t.Fatalf("%s: row %d out of range or repeated", o.Mode, k)
				}
				seen[k] = true
			}
		}
		if len(seen) != 1000 {
			t.Fatalf("%s: %d distinct rows, want 1000", o.Mode, len(seen))
		}
	}
}

// The change knob keeps values for the share of rows it says, repeats them
// exactly, and batches still agree with Value.
func TestChangeRatio(t *testing.T) {
	for _, ratio := range []float64{0.25, 0.5, 0.75, 1} {
		o := defaultOptions(100)
		o.Ratios = [6]float64{Random: 1} // a model that never repeats by itself
		o.Change = Change{Ratio: ratio, Block: 20}
		s := testSchema(1, ts.Double, ts.Text)
		g := mustNew(t, s, o)
		b := g.NewBatch()
		changed, total := 0, 0
		for n := int64(0); n < 50; n++ {
			g.Fill(b, &s.Devices[0], n, nil)
			for i := range b.Rows {
				if b.Columns[0].Value(i) != g.Value(0, 0, b.Rows[i]) || b.Columns[1].Value(i) != g.Value(0, 1, b.Rows[i]) {
					t.Fatalf("ratio %v: batch and Value differ at row %d", ratio, b.Rows[i])
				}
				if b.Rows[i]%20 != 0 {
					total++
					if b.Columns[0].Doubles[i] != b.Columns[0].Doubles[i-1] {
						changed++
					}
				}
			}
		}
		// Share of changing rows = (1 + p*(K-1))/K = ratio; among non-first rows it is p.
		want := (ratio*20 - 1) / 19
		if got := float64(changed) / float64(total); math.Abs(got-want) > 0.05 {
			t.Errorf("ratio %v: %.3f of non-first rows changed, want %.3f", ratio, got, want)
		}
	}
}
