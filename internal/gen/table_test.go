package gen

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// With a Table, every numeric sensor holds the table's value on the rows
// the table has, in batches of any size (one-row batches take their own
// path) and in Number; a row past the table, and a TEXT sensor, keep their
// model's value.
func TestTableGivesValues(t *testing.T) {
	s := testSchema(2, ts.Double, ts.Int64, ts.Text)
	const rows = 9
	tb := NewTable(2, 3, rows)
	want := func(d, sn int, k int64) uint8 { return uint8(d*100 + sn*10 + int(k)) }
	for d := range 2 {
		for sn := range 3 {
			for k := range int64(rows) {
				tb.Set(d, sn, k, want(d, sn, k))
			}
		}
	}
	plain := mustNew(t, s, defaultOptions(4))
	for _, batch := range []int{1, 4} {
		o := defaultOptions(batch)
		o.Table = tb
		g := mustNew(t, s, o)
		b, cur := g.NewBatch(), NewCursor()
		for d := range 2 {
			for n := int64(0); n*int64(batch) < rows+4; n++ {
				g.Fill(b, &s.Devices[d], n, cur)
				for i, k := range b.Rows {
					for sn := range 2 {
						got, _ := b.Columns[sn].Number(i)
						exp := float64(want(d, sn, k))
						if k >= rows {
							exp, _ = plain.Number(d, sn, k)
						}
						if got != exp {
							t.Fatalf("batch %d: device %d sensor %d row %d = %v, want %v", batch, d, sn, k, got, exp)
						}
						if v, _ := g.Number(d, sn, k); v != exp {
							t.Fatalf("Number(%d, %d, %d) = %v, want %v", d, sn, k, v, exp)
						}
					}
					if got, exp := b.Columns[2].Value(i), plain.Value(d, 2, k); got != exp {
						t.Fatalf("TEXT row %d = %v, want the model's %v", k, got, exp)
					}
				}
			}
		}
	}
}

// A table shaped for other sensors is refused.
func TestTableMustFitSchema(t *testing.T) {
	o := defaultOptions(1)
	o.Table = NewTable(1, 2, 1)
	if _, err := New(testSchema(1, ts.Double), o); err == nil {
		t.Fatal("a 2-sensor table was taken for a 1-sensor schema")
	}
}

// BenchmarkFillTable fills TSBS-shaped batches (ten bounded walks, 100 rows)
// from the models and from a table holding every row, in one run:
// go test -run '^$' -bench FillTable ./internal/gen/
func BenchmarkFillTable(b *testing.B) {
	types := make([]ts.DataType, 10)
	for i := range types {
		types[i] = ts.Double
	}
	s := testSchema(1, types...)
	const rows = 100_000
	tb := NewTable(1, 10, rows)
	for name, table := range map[string]*Table{"models": nil, "table": tb} {
		b.Run(name, func(b *testing.B) {
			o := defaultOptions(100)
			o.Bound, o.Table = Bound{Lo: 0, Hi: 100}, table
			g := mustNew(b, s, o)
			batch, cur := g.NewBatch(), NewCursor()
			for i := 0; b.Loop(); i++ {
				g.Fill(batch, &s.Devices[0], int64(i%(rows/100)), cur)
			}
		})
	}
}
