package victoriametrics

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkSerialise is generation and the JSON-lines import body, without
// the network.
func BenchmarkSerialise(b *testing.B) {
	targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
		return appendImport(dst, `"device":"d_0"`, s.Sensors, batch)
	})
}
