package targettest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// LeanShape is the lean-client comparison's data: 100 devices x 10 DOUBLE
// sensors, IoT-benchmark's five value models, 2 decimal places, 100-row
// batches.
func LeanShape(tb testing.TB, database string) (*ts.Schema, *gen.Generator) {
	s := &ts.Schema{Database: database, Groups: []string{"g_0"}, StartTime: startTime, PointStep: 1000}
	for i := 0; i < 100; i++ {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: fmt.Sprintf("d_%d", i)})
	}
	for i := 0; i < 10; i++ {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: ts.Double})
	}
	g, err := gen.New(s, gen.Options{Seed: 1, Ratios: [6]float64{1, 1, 1, 1, 1, 0}, StringLength: 2, DoubleLength: 2, BatchSize: 100})
	if err != nil {
		tb.Fatal(err)
	}
	return s, g
}

// BenchmarkWrite measures one write path on the lean-client comparison's
// shape (LeanShape), one client. Each iteration writes one batch to every
// device (100,000 points), generation included; the metrics are points/s,
// the tool's CPU seconds per million points (CPU-µs per point) and
// allocations per iteration.
func BenchmarkWrite(b *testing.B, d *targets.Driver, o targets.Options) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s, g := LeanShape(b, o.Database)
	conn := OpenSetUp(ctx, b, d, o, s, true)
	batch := g.NewBatch()
	cur := gen.NewCursor()
	before := sysinfo.SelfUsage()
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i := range s.Devices {
			g.Fill(batch, &s.Devices[i], int64(n), cur)
			if err := conn.Write(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	points := float64(b.N) * 100 * 100 * 10
	b.ReportMetric(points/b.Elapsed().Seconds(), "points/s")
	b.ReportMetric((sysinfo.SelfUsage().CPUSeconds-before.CPUSeconds)/(points/1e6), "CPU-s/Mpoints")
}

// BenchmarkSerialise is a text target's client work per batch without the
// network: generation of the lean shape's batches and serialise, which
// appends a request body to dst (reused: it must not allocate).
func BenchmarkSerialise(b *testing.B, serialise func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte) {
	s, g := LeanShape(b, "tsbench_bench")
	batch := g.NewBatch()
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		g.Fill(batch, &s.Devices[n%100], int64(n/100), nil)
		buf = serialise(buf[:0], s, batch)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/(float64(b.N)*float64(batch.Points())), "ns/point")
}
