package summary

// The measured operations: each one's row of the matrices, its seconds,
// stalls, and the figures of the hosts the clients talked to.

// Latency holds the percentiles of one operation in milliseconds. The values
// always satisfy Min <= P10 <= ... <= P999 <= Max.
type Latency struct {
	Avg  float64 `json:"avg"`
	Min  float64 `json:"min"`
	P10  float64 `json:"p10"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// Failure counts the failed operations of one error class.
type Failure struct {
	Class string `json:"class"` // a short, stable description of the error
	// Cause is connection (refused or broken), timeout, or server (the
	// server answered with an error): metrics.Cause.
	Cause      string `json:"cause,omitempty"`
	Example    string `json:"example"` // the first full error text seen
	Operations int64  `json:"operations"`
	Points     int64  `json:"points"`
}

// Operation is one row of the Result and Latency matrices.
type Operation struct {
	Name           string `json:"name"` // INGESTION, PRECISE_POINT, ...
	OKOperations   int64  `json:"ok_operations"`
	OKPoints       int64  `json:"ok_points"`
	FailOperations int64  `json:"fail_operations"`
	FailPoints     int64  `json:"fail_points"`
	Unsupported    int64  `json:"unsupported_operations,omitempty"`
	// Retries counts further attempts (RETRIES): the operation itself is
	// counted once, as ok or failed, whatever its attempts.
	Retries    int64   `json:"retries,omitempty"`
	Throughput float64 `json:"throughput_points_per_s"`
	LatencyMS  Latency `json:"latency_ms"`
	// ServiceMS is the time the server took, measured from the actual send;
	// it differs from LatencyMS only in the open model (--rate), where
	// latency counts from the intended start.
	ServiceMS *Latency `json:"service_ms,omitempty"`
	// ClientWaitMS is how long answers waited, after they arrived (the
	// kernel's receive timestamp), until the tool took them: an event
	// loop's own delay, or a goroutine's wake-up and the driver's parsing,
	// which the latency above leaves out. Recorded where the connections
	// stamp their answers' arrival (internal/arrival).
	ClientWaitMS *Latency `json:"client_wait_ms,omitempty"`
	// SlowestThreadMS is the largest per-client sum of latencies.
	SlowestThreadMS float64   `json:"slowest_thread_ms"`
	Failures        []Failure `json:"failures,omitempty"`
	// Histogram is the merged HDR histogram (microseconds), encoded in the
	// HdrHistogram compressed format, base64: percentiles can be recomputed
	// and runs merged later.
	Histogram string `json:"hdr_histogram,omitempty"`
	// ServiceHistogram is the service-time histogram of an open-model run,
	// encoded the same way, so that merged runs add service times exactly.
	ServiceHistogram string `json:"service_hdr_histogram,omitempty"`
	// ClientWaitHistogram is the client wait's histogram, encoded the same
	// way, so that merged runs add client waits exactly.
	ClientWaitHistogram string `json:"client_wait_hdr_histogram,omitempty"`
}

// Interval is one second (or one interval) of the measured phase.
type Interval struct {
	Start   float64      `json:"t_s"` // seconds since the measured phase began
	Seconds float64      `json:"duration_s"`
	Ops     []IntervalOp `json:"ops"`
}

// IntervalOp is one operation's figures in one interval.
type IntervalOp struct {
	Name     string  `json:"name"`
	OKOps    int64   `json:"ok_operations"`
	OKPoints int64   `json:"ok_points"`
	FailOps  int64   `json:"fail_operations"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
	MaxMS    float64 `json:"max_ms"`
	// Retries are further attempts (RETRIES) made in the interval;
	// InDoubtPoints are points of write attempts that failed in it in a way
	// that may still have stored them (see Verify.InDoubtPoints).
	Retries       int64 `json:"retries,omitempty"`
	InDoubtPoints int64 `json:"in_doubt_points,omitempty"`
	// Histogram is the interval's HDR histogram (microseconds), encoded as
	// Operation.Histogram is, when the recorder keeps it: percentiles of any
	// window can then be recomputed, and --hdr-log writes one histogram per
	// interval instead of one per run.
	Histogram string `json:"hdr_histogram,omitempty"`
}

// Stall is one stretch of the measured phase where throughput stayed low.
type Stall struct {
	Start   float64 `json:"t_s"` // seconds since the measured phase began
	Seconds float64 `json:"duration_s"`
	// OpsPerSecond is the mean rate of completed operations in the stall;
	// MedianOpsPerSecond the run's median per-second rate it fell below.
	OpsPerSecond       float64 `json:"ops_per_s"`
	MedianOpsPerSecond float64 `json:"median_ops_per_s"`
	// HeldOperations are the operations known to have been under way at
	// some moment of the stall: those completed in it, and those completed
	// after it with a latency longer than the time since its end. Share is
	// their part of the run's operations.
	HeldOperations int64   `json:"held_operations"`
	Share          float64 `json:"held_share"`
	// MaxMS is the longest latency of a held operation.
	MaxMS float64 `json:"max_ms"`
	// AtEnd: the stall lasts until the run's end (in a LOOP-bounded run,
	// often clients that finished early, not the server).
	AtEnd bool `json:"at_end,omitempty"`
}

// Host is what the clients connected to one host did in the measured
// phase: every operation kind together.
type Host struct {
	Host             string `json:"host"` // host:port, as HOST or the URL gave it
	Clients          int    `json:"clients"`
	OKOperations     int64  `json:"ok_operations"`
	OKPoints         int64  `json:"ok_points"`      // points written and read
	WrittenPoints    int64  `json:"written_points"` // points of acknowledged writes: what the host stores with HOSTS_DATA=separate
	FailedOperations int64  `json:"failed_operations"`
	// StoredPoints is what verification counted on this host, with
	// HOSTS_DATA=separate (the run's count is their sum); nil otherwise.
	StoredPoints *int64  `json:"stored_points,omitempty"`
	P50MS        float64 `json:"p50_ms"`
	P99MS        float64 `json:"p99_ms"`
	// NotSent are its clients' operations due and never sent
	// (Summary.NotSent).
	NotSent int64 `json:"not_sent,omitempty"`
}

// OperationNames lists the operations any of runs has: the first run's in
// its order, then what later runs add. The comparison, the console matrices
// and the HTML report each lay out one row per operation across runs, and
// must agree on that order.
func OperationNames(runs []*Summary) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range runs {
		for _, o := range s.Operations {
			if !seen[o.Name] {
				seen[o.Name] = true
				out = append(out, o.Name)
			}
		}
	}
	return out
}
