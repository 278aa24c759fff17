package dataset

import (
	"testing"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkFill compares what a client pays to make a batch: generating it
// (gen.Generator.Fill) or reading it back from a dataset that 'tsbench
// generate' wrote (Reader.Fill), for the same rows. ns/point is the figure
// to compare; replay must not cost more than generation.
func BenchmarkFill(b *testing.B) {
	for _, shape := range []struct {
		name  string
		types []ts.DataType
		batch int
	}{
		{"10xDOUBLE/batch100", []ts.DataType{ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double}, 100},
		{"mixed/batch100", []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double, ts.Double}, 100},
		{"10xDOUBLE/batch1", []ts.DataType{ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double, ts.Double}, 1},
	} {
		const devices, rows = 20, 5000
		ds, _, s := generated(b, shape.types, devices, rows, 100)
		points := float64(shape.batch * len(shape.types))
		b.Run(shape.name+"/generated", func(b *testing.B) {
			opts := gen.Options{Seed: 7, Ratios: [6]float64{1, 1, 1, 1, 1, 1}, StringLength: 5, DoubleLength: -1, BatchSize: shape.batch}
			g, err := gen.New(s, opts)
			if err != nil {
				b.Fatal(err)
			}
			batch := g.NewBatch()
			cur := gen.NewCursor()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g.Fill(batch, &s.Devices[i%devices], int64(i/devices)%(rows/int64(shape.batch)), cur)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/points, "ns/point")
		})
		b.Run(shape.name+"/replayed", func(b *testing.B) {
			r := ds.NewReader(shape.batch, true)
			batch := ds.NewBatch(shape.batch)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := r.Fill(batch, &s.Devices[i%devices], int64(i/devices)%(rows/int64(shape.batch))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/points, "ns/point")
		})
	}
}
