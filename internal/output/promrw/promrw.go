// Package promrw sends samples with Prometheus remote write 1.0: a
// WriteRequest (the prompb protobuf types), snappy block-compressed, POSTed
// to the receiver's URL (Prometheus's /api/v1/write, VictoriaMetrics's
// /api/v1/write, Mimir's /api/v1/push).
//
// It stands apart as k6's outputs do, one package per receiver behind
// output.Receiver: a new receiver is one new package, and each brings only
// its own format and libraries (prompb, snappy). internal/cli's receivers.go
// is the one place that knows them all.
package promrw

import (
	"context"
	"fmt"
	"net/http"

	"github.com/golang/snappy"
	"github.com/prometheus/prometheus/prompb"

	"github.com/tsbench/tsbench/internal/output"
)

// Receiver is one remote-write endpoint.
type Receiver struct {
	output.HTTPClient // the transport; its Close is the receiver's
	url               string
}

// New makes a receiver for url; nothing is sent until the first Send.
func New(url string) *Receiver { return &Receiver{url: url, HTTPClient: output.NewHTTPClient()} }

// header is remote write 1.0's: the version header tells a receiver that
// also speaks 2.0 which message this is.
var header = http.Header{
	"Content-Encoding":                  {"snappy"},
	"Content-Type":                      {"application/x-protobuf"},
	"User-Agent":                        {"tsbench"},
	"X-Prometheus-Remote-Write-Version": {"0.1.0"},
}

// Send posts the batch as one WriteRequest.
func (r *Receiver) Send(ctx context.Context, batch []*output.Sample) error {
	body, err := Encode(batch)
	if err != nil {
		return err
	}
	if err := r.Post(ctx, r.url, body, header); err != nil {
		return fmt.Errorf("prometheus-rw: %w", err)
	}
	return nil
}

// Encode is the compressed WriteRequest of the batch: one time series per
// series, with each of its samples in time order, and the metric metadata
// (type and help) that remote write 1.0 carries beside them.
func Encode(batch []*output.Sample) ([]byte, error) {
	var req prompb.WriteRequest
	index := map[string]int{} // series key -> index in req.Timeseries
	meta := map[string]bool{}
	for _, s := range batch {
		for _, p := range s.Points() {
			key := seriesKey(p)
			i, ok := index[key]
			if !ok {
				i = len(req.Timeseries)
				index[key] = i
				ls := make([]prompb.Label, 0, len(p.Labels)+1)
				ls = append(ls, prompb.Label{Name: "__name__", Value: p.Name}) // "__" sorts first
				for _, l := range p.Labels {
					ls = append(ls, prompb.Label{Name: l.Name, Value: l.Value})
				}
				req.Timeseries = append(req.Timeseries, prompb.TimeSeries{Labels: ls})
			}
			req.Timeseries[i].Samples = append(req.Timeseries[i].Samples,
				prompb.Sample{Value: p.Value, Timestamp: p.Time.UnixMilli()})
			if !meta[p.Name] {
				meta[p.Name] = true
				typ := prompb.MetricMetadata_GAUGE
				if p.Kind == output.Counter {
					typ = prompb.MetricMetadata_COUNTER
				}
				req.Metadata = append(req.Metadata, prompb.MetricMetadata{Type: typ, MetricFamilyName: p.Name, Help: p.Help})
			}
		}
	}
	raw, err := req.Marshal()
	if err != nil {
		return nil, fmt.Errorf("prometheus-rw: encode: %w", err)
	}
	return snappy.Encode(nil, raw), nil
}

func seriesKey(p output.Point) string {
	key := p.Name
	for _, l := range p.Labels {
		key += "\xff" + l.Name + "\xfe" + l.Value
	}
	return key
}
