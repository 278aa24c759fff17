package targettest

import (
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// The sparse dataset leaves about a quarter of the cells empty and device
// 1's rows 50..59 without any value; its batches mark exactly those cells,
// and the answers computed for it leave them out.
func TestSparseDataset(t *testing.T) {
	d, err := NewDataset(ts.DataTypes, startTime)
	if err != nil {
		t.Fatal(err)
	}
	full := d.Points()
	d.Sparse = true
	sparse := d.Points()
	if sparse >= full*85/100 || sparse <= full*65/100 {
		t.Fatalf("sparse dataset holds %d of %d points", sparse, full)
	}
	var marked int64
	err = d.Batches(func(dev int, _ int64, b *ts.Batch) error {
		marked += b.Points()
		for i, k := range b.Rows {
			if dev == 1 && k >= 50 && k < 60 && b.RowPresent(i) {
				return fmt.Errorf("device 1 row %d has a value", k)
			}
			for c := range b.Columns {
				if b.Columns[c].Present(i) != d.Present(dev, c, k) {
					return fmt.Errorf("device %d row %d sensor %d: marked present %v", dev, k, c, b.Columns[c].Present(i))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if marked != sparse {
		t.Fatalf("batches carry %d points, the dataset %d", marked, sparse)
	}
	q := ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{&d.Schema.Devices[1]}, Sensors: []int{0},
		Start: d.Schema.StartTime + 50*pointStep, End: d.Schema.StartTime + 60*pointStep}
	if r := ExpectPresent(d.Gens[0], &q, rows, d.Present); r.Points != 0 {
		t.Fatalf("answer over missing lines has %d points", r.Points)
	}
}
