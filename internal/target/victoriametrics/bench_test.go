package victoriametrics

import (
	"testing"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkWrite is the lean-client comparison's shape against the server:
// go test -run '^$' -bench . -count 3 ./internal/target/victoriametrics/
func BenchmarkWrite(b *testing.B) {
	targettest.RequireServer(b, "victoriametrics", "127.0.0.1:8428")
	targettest.BenchmarkWrite(b, Driver, target.Options{Database: "tsbench_bench"})
}

// BenchmarkSerialise is generation and the JSON-lines import body, without
// the network.
func BenchmarkSerialise(b *testing.B) {
	targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
		return appendImport(dst, `"device":"d_0"`, s.Sensors, batch)
	})
}
