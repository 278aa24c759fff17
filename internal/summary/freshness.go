package summary

// The freshness probe (FRESHNESS): time from acknowledged to visible.

// Freshness is the freshness probe's account: one series written at a
// fixed rate through one connection, its newest point polled through
// another (internal/freshness).
type Freshness struct {
	// Database is where the probe's series lives, apart from the run's
	// data so that verified counts are untouched.
	Database string  `json:"database"`
	Rate     float64 `json:"writes_per_s"`
	PollMS   float64 `json:"poll_ms"` // pause between polls; 0 = back to back
	// Written counts the probe's acknowledged writes (one point each);
	// FailedWrites those the server refused or that timed out.
	Written      int64 `json:"written"`
	FailedWrites int64 `json:"failed_writes,omitempty"`
	// Visible counts acknowledged points a poll returned; Unseen those no
	// poll returned before the probe stopped waiting (WaitS after the run).
	Visible int64   `json:"visible"`
	Unseen  int64   `json:"unseen"`
	WaitS   float64 `json:"wait_s"`
	// BeforeAck counts points a poll returned before their write was
	// acknowledged: their acknowledged-to-visible time is recorded as 0.
	BeforeAck int64 `json:"visible_before_ack,omitempty"`
	// AfterAck is the time from a write's acknowledgment until the first
	// poll that returned it completed; AfterSend the same from the write's
	// start. Polls is the latency of the reader's queries themselves: the
	// resolution of both (a point visible at once still waits for a poll).
	AfterAck    Distribution `json:"ack_to_visible"`
	AfterSend   Distribution `json:"send_to_visible"`
	Polls       Distribution `json:"poll"`
	PollCount   int64        `json:"polls"`
	PollErrors  int64        `json:"poll_errors,omitempty"`
	FirstError  string       `json:"first_error,omitempty"`
	Interrupted bool         `json:"interrupted,omitempty"`
}

// Distribution is a histogram's headline figures, in milliseconds, with
// the histogram itself (HDR, microseconds, encoded as Operation.Histogram).
type Distribution struct {
	Count     int64   `json:"count"`
	MeanMS    float64 `json:"mean_ms"`
	P50MS     float64 `json:"p50_ms"`
	P90MS     float64 `json:"p90_ms"`
	P99MS     float64 `json:"p99_ms"`
	MaxMS     float64 `json:"max_ms"`
	Histogram string  `json:"hdr_histogram,omitempty"`
}
