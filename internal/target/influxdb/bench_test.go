package influxdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
)

// BenchmarkWrite is the lean-client comparison's shape against the server:
// go test -run '^$' -bench . -count 3 ./internal/target/influxdb/
func BenchmarkWrite(b *testing.B) {
	targettest.RequireServer(b, "influxdb", "127.0.0.1:8086")
	targettest.BenchmarkWrite(b, Driver, target.Options{Database: "tsbench_bench"})
}

// BenchmarkSerialise is the client's work per batch without the network:
// generation and line protocol into a reused buffer (no allocation).
func BenchmarkSerialise(b *testing.B) {
	s, g := targettest.LeanShape(b, "tsbench_bench")
	batch := g.NewBatch()
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		g.Fill(batch, &s.Devices[n%100], int64(n/100), nil)
		buf = lineproto.AppendRows(buf[:0], "g_0,device=d_0 ", s.Sensors, batch)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/(float64(b.N)*float64(batch.Points())), "ns/point")
}
