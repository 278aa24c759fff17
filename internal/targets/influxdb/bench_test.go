package influxdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkSerialise is generation and line protocol, without the network.
func BenchmarkSerialise(b *testing.B) {
	var keys *lineproto.Keys
	targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
		if keys == nil {
			k := lineproto.NewKeys(s.Sensors)
			keys = &k
		}
		return lineproto.AppendRows(dst, "g_0,device=d_0 ", *keys, batch)
	})
}
