package hbase

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// A sparse batch puts a cell per present value only, and no Put for an hour
// whose rows have no value at all.
func TestPutRowsSparse(t *testing.T) {
	d := &ts.Device{Name: "d_0"}
	b := &ts.Batch{Device: d, Times: []int64{1000, 2000, bucketMs + 1000}, Columns: []ts.Column{
		{Type: ts.Int64, Int64s: []int64{1, 0, 0}},
		{Type: ts.Double, Doubles: []float64{0, 2.5, 0}},
	}}
	for _, c := range []struct{ col, row int }{{0, 1}, {0, 2}, {1, 0}, {1, 2}} {
		b.MarkNull(c.col, c.row)
	}
	rows := putRows(b, b.Device.Name)
	if len(rows) != 1 {
		t.Fatalf("%d Puts, want 1 (the second hour has no value)", len(rows))
	}
	cells := rows[0].cells
	if len(cells) != 2 || cells[0].ts != 1000 || cells[1].ts != 2000 {
		t.Fatalf("cells %+v, want s_0 at 1000 and s_1 at 2000", cells)
	}
	if sn, off, err := parseQualifier(cells[1].qualifier); err != nil || sn != 1 || off != 2000 {
		t.Fatalf("second cell is sensor %d at offset %d, want sensor 1 at 2000", sn, off)
	}
}
