package victoriametrics

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkWrite is the lean-client comparison's shape against the server:
// go test -run '^$' -bench . -count 3 ./internal/targets/victoriametrics/
func BenchmarkWrite(b *testing.B) {
	targettest.RequireServer(b, "victoriametrics", "127.0.0.1:8428")
	targettest.BenchmarkWrite(b, Driver, targets.Options{Database: "tsbench_bench"})
}

// BenchmarkSerialise is generation and the JSON-lines import body, without
// the network.
func BenchmarkSerialise(b *testing.B) {
	targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
		return appendImport(dst, `"device":"d_0"`, s.Sensors, batch)
	})
}
