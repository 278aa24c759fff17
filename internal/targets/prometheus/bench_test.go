package prometheus

import (
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// BenchmarkSerialise is generation and the compressed remote write
// request of each version, without the network: the tool's own cost per
// point on this target.
func BenchmarkSerialise(b *testing.B) {
	for _, v := range []remotewrite.Version{remotewrite.V1, remotewrite.V2} {
		b.Run(fmt.Sprintf("v%d", v), func(b *testing.B) {
			var e *remotewrite.Encoder
			targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
				if e == nil {
					devices := make([][]remotewrite.Label, len(s.Devices))
					for i, d := range s.Devices {
						devices[i] = []remotewrite.Label{{Name: "db", Value: "tsbench_bench"}, {Name: "gen", Value: "1"},
							{Name: "device", Value: d.Name}, {Name: "group", Value: "g_0"}}
					}
					e = remotewrite.NewEncoder(v, s.Sensors, devices)
				}
				return append(dst, e.Encode(batch.Device.Index, batch)...)
			})
		})
	}
}
