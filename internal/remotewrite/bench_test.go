package remotewrite_test

// The benchmark is an external test: targettest imports targets, which
// imports this package.

import (
	"fmt"
	"testing"

	"github.com/prometheus/prometheus/prompb"

	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// leanEncoder is an Encoder of the lean shape's sensors and devices.
func leanEncoder(v remotewrite.Version, s *ts.Schema) *remotewrite.Encoder {
	devices := make([][]remotewrite.Label, len(s.Devices))
	for i, d := range s.Devices {
		devices[i] = []remotewrite.Label{{"db", "tsbench_bench"}, {"gen", "1700000000000000000"}, {"device", d.Name}, {"group", "g_0"}}
	}
	return remotewrite.NewEncoder(v, s.Sensors, devices)
}

// BenchmarkEncode is generation and a compressed request per batch of the
// lean shape, in each version, without the network.
func BenchmarkEncode(b *testing.B) {
	for _, v := range []remotewrite.Version{remotewrite.V1, remotewrite.V2} {
		b.Run(fmt.Sprintf("v%d", v), func(b *testing.B) {
			var e *remotewrite.Encoder
			targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
				if e == nil {
					e = leanEncoder(v, s)
				}
				return append(dst, e.Encode(batch.Device.Index, batch)...)
			})
		})
	}
	// The same request built as prompb structs and marshalled, for
	// comparison: what the Encoder saves.
	b.Run("prompb", func(b *testing.B) {
		var req prompb.WriteRequest
		var raw, body []byte
		targettest.BenchmarkSerialise(b, func(dst []byte, s *ts.Schema, batch *ts.Batch) []byte {
			req.Timeseries = req.Timeseries[:0]
			for sn := range batch.Columns {
				ls := []prompb.Label{{Name: remotewrite.MetricName, Value: s.Sensors[sn].Name}, {Name: "db", Value: "tsbench_bench"},
					{Name: "device", Value: batch.Device.Name}, {Name: "gen", Value: "1700000000000000000"}, {Name: "group", Value: "g_0"}}
				samples := make([]prompb.Sample, len(batch.Times))
				for i, tm := range batch.Times {
					samples[i] = prompb.Sample{Value: batch.Columns[sn].Doubles[i], Timestamp: tm}
				}
				req.Timeseries = append(req.Timeseries, prompb.TimeSeries{Labels: ls, Samples: samples})
			}
			raw = raw[:0]
			raw, _ = req.Marshal()
			body = remotewrite.Compress(body, raw)
			return append(dst, body...)
		})
	})
}
