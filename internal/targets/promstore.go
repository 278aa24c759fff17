package targets

import (
	"context"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// PromStore is a target that takes Prometheus remote write and answers
// PromQL over Prometheus' HTTP API: what the prometheus workload
// (internal/promrun) writes and reads through, beside the time series
// run's Write and Query. Prometheus, VictoriaMetrics, Mimir and Thanos
// implement it.
type PromStore interface {
	// Begin prepares the store before the first write: Thanos Receive's
	// in-order head opened at the epoch (see the prometheus target's
	// HeadAtEpoch), so that the samples of any time stay visible to
	// Thanos Query, this run's and the next runs'.
	Begin(ctx context.Context) error
	// RemoteWriteVersion is the remote write version the store takes,
	// as it was opened (write_path).
	RemoteWriteVersion() remotewrite.Version
	// RemoteWrite posts one snappy-compressed remote write request of
	// that version, holding samples samples. A 2.0 receiver's answer says
	// how many it wrote; fewer is an error.
	RemoteWrite(ctx context.Context, body []byte, samples int64) error
	// PromQuery posts form (URL-encoded) to path below the query API's
	// base (/api/v1/query, /api/v1/query_range) and returns the answer.
	PromQuery(ctx context.Context, path, form string) ([]byte, error)
	// Settle makes every acknowledged sample from the time from (ms) on
	// visible to the queries that follow: VictoriaMetrics' force flush,
	// Thanos Query's wait until its stores say they hold that time; a
	// no-op where a write is visible once acknowledged.
	Settle(ctx context.Context, from int64) error
	// ServerLabels are the labels the store puts on every series it
	// answers with (Thanos' tenant and external labels): not the data's.
	ServerLabels() []string
}
