package targettest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkWrite measures one write path on the shape of the lean-client
// comparison: 100 devices x 10 DOUBLE sensors, 100-row batches, one client.
// Each iteration writes one batch to every device (100,000 points); the
// metrics are points/s and the tool's CPU seconds per million points.
func BenchmarkWrite(b *testing.B, d *target.Driver, o target.Options) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s := &ts.Schema{Database: o.Database, Groups: []string{"g_0"}, StartTime: startTime, PointStep: 1000}
	for i := 0; i < 100; i++ {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: fmt.Sprintf("d_%d", i)})
	}
	for i := 0; i < 10; i++ {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: ts.Double})
	}
	g, err := gen.New(s, gen.Options{Seed: 1, Ratios: [6]float64{1, 1, 1, 1, 1, 0}, StringLength: 2, DoubleLength: 2, BatchSize: 100})
	if err != nil {
		b.Fatal(err)
	}
	conn, err := d.Open(ctx, o)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, s, true); err != nil {
		b.Fatal(err)
	}
	batch := g.NewBatch()
	before := sysinfo.SelfUsage()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i := range s.Devices {
			g.Fill(batch, &s.Devices[i], int64(n), nil)
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
