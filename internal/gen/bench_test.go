package gen

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkFill measures generation alone: 100 rows x 10 sensors per batch,
// the shape of the lean-client comparison.
func BenchmarkFill(b *testing.B) {
	cases := []struct {
		name  string
		types []ts.DataType
		order Order
	}{
		{"double", repeat(ts.Double, 10), Order{}},
		{"double-walk", repeat(ts.Double, 10), Order{}},
		{"all-types", []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double, ts.Text, ts.Boolean, ts.Int32, ts.Int64, ts.Float}, Order{}},
		{"double-poisson", repeat(ts.Double, 10), Order{Mode: Poisson, Ratio: 0.5, Lambda: 2200, MaxDelay: 170000}},
		{"crrc-row", repeat(ts.Double, 300), Order{}}, // seed 002's CRRC shape: one row of 300 sensors
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := testSchema(10, c.types...)
			o := defaultOptions(100)
			if c.name == "crrc-row" {
				o = defaultOptions(1)
			}
			o.Order = c.order
			if c.name != "double-walk" {
				o.Ratios[Walk] = 0 // the default mix: IoT-benchmark's five models
			} else {
				o.Ratios = [6]float64{Walk: 1}
			}
			g := mustNew(b, s, o)
			batch := g.NewBatch()
			cur := NewCursor()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g.Fill(batch, &s.Devices[i%10], int64(i/10), cur)
			}
			b.ReportMetric(float64(b.N)*float64(batch.Points())/b.Elapsed().Seconds(), "points/s")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/(float64(b.N)*float64(batch.Points())), "ns/point")
		})
	}
}

func repeat(t ts.DataType, n int) []ts.DataType {
	out := make([]ts.DataType, n)
	for i := range out {
		out[i] = t
	}
	return out
}
