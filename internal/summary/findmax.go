package summary

// The find-max search (FIND_MAX).

// FindMax is the search for the highest rate that meets every objective.
type FindMax struct {
	Objectives []string `json:"objectives"`
	// Precision is the bisection's end: the highest passing and the lowest
	// failing rate within this share of each other.
	Precision float64 `json:"precision"`
	// MaxShortfall: a step whose achieved rate falls more than this share
	// short of the offered one fails.
	MaxShortfall float64       `json:"max_shortfall"`
	SettleS      float64       `json:"settle_s"`
	MeasureS     float64       `json:"measure_s"`
	Steps        []FindMaxStep `json:"steps"`
	// Found: some step passed; Best is then the highest passing one.
	Found bool `json:"found"`
	// Rate is the highest sustainable rate (operations per second), the
	// offered rate of Best; Bracketed says a failing step above it was
	// within Precision (else the search ran out of steps).
	Rate      float64 `json:"sustainable_ops_per_s"`
	Bracketed bool    `json:"bracketed"`
	Best      int     `json:"best_step"` // index into Steps; -1 when none passed
	// MinOperations is the most operations an objective needed a step to
	// complete; MaxMeasureS how long a step at a low rate could be
	// measured to complete them. Floor is the rate at which a step could
	// not, where the search stopped (0: none).
	MinOperations int64   `json:"min_operations"`
	MaxMeasureS   float64 `json:"max_measure_s"`
	Floor         float64 `json:"floor_ops_per_s,omitempty"`
}

// FindMaxStep is one held rate of the search.
type FindMaxStep struct {
	RunID    string  `json:"run_id"`
	Offered  float64 `json:"offered_ops_per_s"` // 0: the closed-loop probe the search started from
	Achieved float64 `json:"achieved_ops_per_s"`
	// P50MS and P99MS are the headline operation's latencies (the first
	// objective's operation, else INGESTION, else the first row).
	Operation string  `json:"operation"`
	P50MS     float64 `json:"p50_ms"`
	P99MS     float64 `json:"p99_ms"`
	Passed    bool    `json:"passed"`
	// Operations are the headline operation's completed operations, in
	// MeasuredS seconds (a step at a low rate is measured longer).
	Operations int64   `json:"operations"`
	MeasuredS  float64 `json:"measured_s"`
	// Reasons say why a step failed: each objective it broke, a shortfall.
	Reasons []string `json:"reasons,omitempty"`
	// TooFew says an objective's operation completed fewer operations
	// than its metric needs; Empty that it was not done at all (an error
	// of the search). Neither step passes.
	TooFew string `json:"too_few,omitempty"`
	Empty  string `json:"empty,omitempty"`
	// Bursts: the step broke a latency objective in a few recurring
	// seconds only (see Bursts).
	Bursts *Bursts `json:"bursts,omitempty"`
}

// Bursts are the seconds of a find-max step in which an operation's
// slowest latency exceeded an objective's bound, when they were a minority
// of the step and recurred: the mark of a server's periodic work.
type Bursts struct {
	AboveMS   float64 `json:"above_ms"` // the objective's bound
	Count     int     `json:"count"`    // runs of consecutive slow seconds
	Seconds   int     `json:"seconds"`  // slow seconds, of OfSeconds
	OfSeconds int     `json:"of_seconds"`
	EveryS    float64 `json:"every_s"` // median time between their starts
	MaxMS     float64 `json:"max_ms"`
}
