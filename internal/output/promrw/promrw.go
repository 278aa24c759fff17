// Package promrw sends samples with Prometheus remote write 1.0: a
// WriteRequest, snappy block-compressed, POSTed to the receiver's URL
// (Prometheus's /api/v1/write, VictoriaMetrics's /api/v1/write, Mimir's
// /api/v1/push). The request is encoded by internal/remotewrite, which
// the remote-write targets write through too.
//
// It stands apart as k6's outputs do, one package per receiver behind
// output.Receiver: a new receiver is one new package, and each brings only
// its own format and libraries. internal/cli's receivers.go
// is the one place that knows them all.
package promrw

import (
	"context"
	"fmt"
	"net/http"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/remotewrite"
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
var header = func() http.Header {
	h := http.Header{}
	kv := remotewrite.V1.Header()
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}()

// Send posts the batch as one WriteRequest.
func (r *Receiver) Send(ctx context.Context, batch []*output.Sample) error {
	if err := r.Post(ctx, r.url, Encode(batch), header); err != nil {
		return fmt.Errorf("prometheus-rw: %w", err)
	}
	return nil
}

// Encode is the compressed WriteRequest of the batch: one time series per
// series, with each of its samples in time order, and the metric metadata
// (type and help) that remote write 1.0 carries beside them.
func Encode(batch []*output.Sample) []byte {
	type series struct {
		labels []byte // Label fields, __name__ first ("__" sorts before the lower-case names)
		times  []int64
		values []float64
	}
	var all []*series
	index := map[string]*series{}
	var meta []byte
	seen := map[string]bool{}
	for _, s := range batch {
		for _, p := range s.Points() {
			key := seriesKey(p)
			sr := index[key]
			if sr == nil {
				sr = &series{labels: remotewrite.AppendLabel(nil, remotewrite.MetricName, p.Name)}
				for _, l := range p.Labels {
					sr.labels = remotewrite.AppendLabel(sr.labels, l.Name, l.Value)
				}
				index[key] = sr
				all = append(all, sr)
			}
			sr.times, sr.values = append(sr.times, p.Time.UnixMilli()), append(sr.values, p.Value)
			if !seen[p.Name] {
				seen[p.Name] = true
				typ := remotewrite.Gauge
				if p.Kind == output.Counter {
					typ = remotewrite.Counter
				}
				meta = remotewrite.AppendMetadata(meta, typ, p.Name, p.Help)
			}
		}
	}
	var raw []byte
	for _, sr := range all {
		raw = remotewrite.AppendSeries(raw, sr.labels, sr.times, sr.values)
	}
	return remotewrite.Compress(nil, append(raw, meta...))
}

func seriesKey(p output.Point) string {
	key := p.Name
	for _, l := range p.Labels {
		key += "\xff" + l.Name + "\xfe" + l.Value
	}
	return key
}
