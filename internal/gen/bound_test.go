package gen

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// A bounded generator (TSBS's fields) keeps every value in [Lo, Hi] on
// every path (batches of many rows, one-row batches, single values), the
// paths agree, and the walk spends time near both bounds.
func TestBoundedWalk(t *testing.T) {
	s := testSchema(3, ts.Double, ts.Double, ts.Double, ts.Double)
	for _, batch := range []int{1, 500} {
		o := defaultOptions(batch)
		o.Bound = Bound{Lo: 0, Hi: 100}
		g := mustNew(t, s, o)
		b := g.NewBatch()
		cur := &Cursor{}
		var high, low, all int
		for dev := range s.Devices {
			for n := int64(0); n < int64(20_000/batch); n++ {
				g.Fill(b, &s.Devices[dev], n, cur)
				for c := range b.Columns {
					for i, v := range b.Columns[c].Doubles {
						if v < 0 || v > 100 {
							t.Fatalf("batch %d: value %v outside [0, 100]", batch, v)
						}
						if i == 0 && n%97 == 0 {
							if w, _ := g.Number(dev, c, b.Rows[i]); w != v {
								t.Fatalf("batch %d: row %d: batch %v, Value %v", batch, b.Rows[i], v, w)
							}
						}
						all++
						if v > 90 {
							high++
						}
						if v < 10 {
							low++
						}
					}
				}
			}
		}
		if high < all/100 || low < all/100 {
			t.Errorf("batch %d: %d of %d values above 90, %d below 10: the walk stays in the middle", batch, high, all, low)
		}
	}
}

func TestReflect(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{{50, 50}, {110, 90}, {-10, 10}, {210, 10}, {-110, 90}, {100, 100}, {0, 0}, {300, 100}} {
		if got := reflect(c.v, 0, 100); got != c.want {
			t.Errorf("reflect(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// Missing cells (TSBS's iot) are empty in every batch, in any delivery
// order, exactly where Missing says, and MissingCells counts them.
func TestMissingCells(t *testing.T) {
	s := testSchema(2, ts.Double, ts.Double, ts.Int64)
	for _, batch := range []int{1, 50} {
		o := defaultOptions(batch)
		o.Missing = 0.1
		g := mustNew(t, s, o)
		b := g.NewBatch()
		cur := NewCursor()
		var empty int64
		for dev := range s.Devices {
			for n := int64(0); n < int64(1000/batch); n++ {
				g.Fill(b, &s.Devices[dev], n, cur)
				for c := range b.Columns {
					for i, k := range b.Rows {
						if b.Columns[c].Present(i) == g.Missing(dev, c, k) {
							t.Fatalf("batch %d: device %d sensor %d row %d: present %v, Missing %v", batch, dev, c, k,
								b.Columns[c].Present(i), g.Missing(dev, c, k))
						}
					}
				}
				empty += b.Nulls
				if b.Points() != int64(b.Len()*len(b.Columns))-b.Nulls {
					t.Fatalf("points %d", b.Points())
				}
			}
		}
		if got := g.MissingCells(s.Devices, 1000); got != empty || got < 500 || got > 700 {
			t.Errorf("batch %d: %d cells empty in batches, MissingCells %d (about 10 %% of 6,000)", batch, empty, got)
		}
	}
}
