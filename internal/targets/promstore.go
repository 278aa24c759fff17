package targets

import "context"

// PromStore is a target that takes Prometheus remote write 1.0 and answers
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
	// RemoteWrite posts one snappy-compressed remote write 1.0 request.
	// It fails when the target was opened with another write path.
	RemoteWrite(ctx context.Context, body []byte) error
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
