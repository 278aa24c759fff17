// Package summary is the result of a run as data: what the console matrices,
// the JSON file, the CSV files and (later) the results store are made from.
// Its JSON encoding is a public format: change it only by bumping
// SchemaVersion.
package summary

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// SchemaVersion is the version of the JSON format written by --json.
const SchemaVersion = 1

// Phase is a timed step outside the measured phase.
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	// Operations done during the phase, and the points its writes stored
	// (warm-up writes count toward verification; queries' answers do not).
	Operations int64 `json:"operations,omitempty"`
	Points     int64 `json:"points,omitempty"`
}

// Summary is the whole result of a run.
type Summary struct {
	SchemaVersion int       `json:"schema_version"`
	RunID         string    `json:"run_id"`
	Target        string    `json:"target"`
	Scenario      string    `json:"scenario,omitempty"`
	Started       time.Time `json:"started"`
	Interrupted   bool      `json:"interrupted"`
	// StopReason says why the measured phase ended: "loop", "duration",
	// "interrupted" or "error".
	StopReason    string  `json:"stop_reason"`
	OpenModel     bool    `json:"open_model"`
	RatePerSecond float64 `json:"rate_ops_per_s,omitempty"`
	// RealTime: the prometheus workload's scrapes were stamped and written
	// in real time (PROM_TIME = now), each write's latency counted from
	// its scrape's time (RealTimeNote).
	RealTime      bool        `json:"real_time,omitempty"`
	SchemaSeconds float64     `json:"schema_seconds"`
	Elapsed       float64     `json:"elapsed_s"`
	Phases        []Phase     `json:"phases"`
	Operations    []Operation `json:"operations"`
	Intervals     []Interval  `json:"intervals"`
	Verify        *Verify     `json:"verify"`
	// Reconnects counts connections the targets re-opened after the
	// server dropped them (or after a timeout abandoned one), during the
	// measured phase and warm-up.
	Reconnects int64 `json:"reconnects,omitempty"`
	// LatencyClock says what ended the latencies where that is not the
	// client's return from its call: the event loops' answers end at their
	// arrival (the kernel's receive timestamp), the wait until the loop
	// took them being each operation's ClientWaitMS.
	LatencyClock string `json:"latency_clock,omitempty"`
	// Fallbacks counts the measured queries the target answered another
	// way than its declared one, by reason (targets.FallbackCounter):
	// their latency measures that way.
	Fallbacks     map[string]int64 `json:"fallbacks,omitempty"`
	StorageBytes  int64            `json:"storage_bytes,omitempty"`
	BytesPerPoint float64          `json:"bytes_per_point,omitempty"`
	// NameMapping is each name the target stored in another form (a
	// character its server refuses even quoted, a length limit), keyed by
	// what it is and the original ("sensor cpu usage [%]"); everything
	// else reports the original names.
	NameMapping map[string]string `json:"name_mapping,omitempty"`
	Tool        Tool              `json:"tool"`
	Environment Environment       `json:"environment"`
	Config      map[string]any    `json:"config"`
	DataPath    string            `json:"data_path,omitempty"`
	Thresholds  []ThresholdResult `json:"thresholds,omitempty"`
	ResultsDir  string            `json:"results_dir,omitempty"`

	// MeasureStarted is when the measured phase began (Intervals[i].Start
	// and ResourceSample.T count from it); zero when unknown.
	MeasureStarted time.Time `json:"measure_started,omitzero"`
	// Resources holds what the tool, the host and the database server used,
	// once a second while the run measured.
	Resources *Resources `json:"resources,omitempty"`
	// Published is the published-vs-measured table of a seed scenario's
	// run, when the scenario fills it in; the HTML report shows it.
	Published []PublishedFigure `json:"published_vs_measured,omitempty"`
	// TPCC is what a TPC-C run (WORKLOAD = tpcc) measured beyond its
	// matrices, whose rows are then the five transaction types.
	TPCC *TPCC `json:"tpcc,omitempty"`
	// RemoteWrite is what a prometheus workload run sent by remote write.
	RemoteWrite *RemoteWrite `json:"remote_write,omitempty"`
	// Worker says which share of a scaled-out run this is (WORKERS > 1).
	Worker *Worker `json:"worker,omitempty"`
	// Merge describes a run made by 'tsbench merge' from its workers' runs.
	Merge *Merge `json:"merge,omitempty"`
	// Replay describes the user's data a run replayed (DATA), when it did.
	Replay *Replay `json:"replay,omitempty"`
	// Hosts breaks the measured phase down per host when HOST lists
	// several (client i connects to host i mod n).
	Hosts []Host `json:"hosts,omitempty"`
	// NotSent are operations that fell due in the measured phase, at the
	// open model's rate, and were never sent: their clients were still on
	// earlier ones when it ended (a server that stalled or went away). No
	// latency of theirs is in the histograms.
	NotSent int64 `json:"not_sent,omitempty"`
	// QueryFile is the user's own queries (QUERY_FILE), when the run had
	// some: each is an operation of Operations under its name.
	QueryFile *QueryFile `json:"query_file,omitempty"`
	// Stalls are the stretches of the measured phase where throughput
	// stayed below a share of the run's median (STALL_FRACTION) for at
	// least STALL_MIN: a figure decided by one says so.
	Stalls []Stall `json:"stalls,omitempty"`
	// Repeat says which repetition of a --repeat run this is.
	Repeat *Repeat `json:"repeat,omitempty"`
	// FindMax is the search of a --find-max run, kept with the run of its
	// highest sustainable step (or of its last step when none was).
	FindMax *FindMax `json:"find_max,omitempty"`
	// Freshness is what the freshness probe measured (--freshness): how
	// long written points took to become visible to a query.
	Freshness *Freshness `json:"freshness,omitempty"`
	// Crash is the server's kill and restart of a --crash run.
	Crash *Crash `json:"crash,omitempty"`
}

// RepeatGroupPrefix begins the name of every group of repetitions.
const RepeatGroupPrefix = "repeat-"

// Repeat places a run among the repetitions of one configuration
// (--repeat N): they share Group, which the results store keeps as the
// run group, and 'tsbench compare' tests their spread between runs.
type Repeat struct {
	Group string `json:"group"`
	Index int    `json:"index"` // 1..Of
	Of    int    `json:"of"`
}

// PublishedFigure is one line of a published-vs-measured table: a figure
// from a seed study beside what the run measured. Scenario code fills
// Summary.Published; the HTML report prints the table when it is not empty.
type PublishedFigure struct {
	Label     string  `json:"label"` // e.g. "write 1,500 series"
	Unit      string  `json:"unit"`  // e.g. "points/s"
	Published float64 `json:"published"`
	Measured  float64 `json:"measured"`
	Ratio     float64 `json:"ratio,omitempty"` // measured / published
	Source    string  `json:"source,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// ThresholdResult is one threshold checked against the run.
type ThresholdResult struct {
	Expr   string  `json:"expr"`
	Passed bool    `json:"passed"`
	Actual float64 `json:"actual"`
	Reason string  `json:"reason,omitempty"` // why it could not be measured
}

// Status is a run's outcome in one word, as the results store keeps it.
type Status string

// The outcomes, from the most serious down.
const (
	// StatusRunning: not finished (under way, or its process was killed).
	StatusRunning Status = "running"
	// StatusIncomplete: a merged run lacking some workers' shares.
	StatusIncomplete      Status = "incomplete"
	StatusInterrupted     Status = "interrupted"
	StatusVerifyFailed    Status = "verify-failed"
	StatusThresholdFailed Status = "threshold-failed"
	// StatusFailed: some operations failed, or counting did.
	StatusFailed Status = "failed"
	StatusOK     Status = "ok"
)

// Status is the run's outcome, the most serious that applies.
func (s *Summary) Status() Status {
	switch {
	case s.StopReason == "running" || s.StopReason == "incomplete":
		return StatusRunning
	case !s.Merge.Complete():
		return StatusIncomplete
	case s.Interrupted:
		return StatusInterrupted
	case s.Verify.Mismatch(), s.TPCC != nil && !s.TPCC.Consistent():
		return StatusVerifyFailed
	case s.ThresholdFailed():
		return StatusThresholdFailed
	case s.Failed(), s.Verify != nil && s.Verify.Error != "":
		// Counting failed (the server is down): the run failed, but no
		// mismatch was seen.
		return StatusFailed
	}
	return StatusOK
}

// ThresholdFailed reports whether any threshold failed.
func (s *Summary) ThresholdFailed() bool {
	for _, t := range s.Thresholds {
		if !t.Passed {
			return true
		}
	}
	return false
}

// Failed reports whether any operation failed.
func (s *Summary) Failed() bool {
	for _, o := range s.Operations {
		if o.FailOperations > 0 {
			return true
		}
	}
	return false
}

// ClosedModelWarning is the one line the console and the HTML report show
// under a closed-model run's latencies.
const ClosedModelWarning = "Closed model: a client sends its next operation only when the last one returned, " +
	"so latency excludes the time operations would have queued behind a slow server (coordinated omission); " +
	"use --rate for latency from the intended start."

// RealTimeNote is the line the console and the HTML report show under a
// real-time run's latencies in place of the closed model's warning.
const RealTimeNote = "Real time: each write is due at its scrape's time and its latency counts from then, so a write " +
	"held behind a slow one keeps the wait; the queries are asked in a closed loop, their latency from their sending."

// NotSentNote is the line the console and the HTML report show under an
// open-model run whose clients left operations due and never sent
// (Summary.NotSent); "" when there were none.
func (s *Summary) NotSentNote() string {
	if s.NotSent == 0 {
		return ""
	}
	return fmt.Sprintf("Not sent: %d operations fell due before the end and were never sent: their clients were still on "+
		"earlier ones (a slow, stalled or absent server); no latency of theirs is in the matrices.", s.NotSent)
}

// ClosedModel reports whether the run measured latency in the closed model
// (no --rate), which the warning above qualifies; a real-time run's writes
// are not (RealTimeNote).
func (s *Summary) ClosedModel() bool { return !s.OpenModel && !s.RealTime && len(s.Operations) > 0 }

// RetriesNote says how many retries and reconnections the run needed, or
// "" when none.
func (s *Summary) RetriesNote() string {
	var parts []string
	for _, o := range s.Operations {
		if o.Retries > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", o.Name, o.Retries))
		}
	}
	var out string
	if len(parts) > 0 {
		out = "Retries: " + strings.Join(parts, ", ") + " (a retried operation counts once, as ok or failed; its latency includes its retries)"
	}
	if s.Reconnects > 0 {
		if out != "" {
			out += "; "
		}
		out += fmt.Sprintf("connections re-opened: %d", s.Reconnects)
	}
	return out
}

// FallbacksNote says which measured queries the target answered another
// way than its declared one, and how many; "" when none.
func (s *Summary) FallbacksNote() string {
	if len(s.Fallbacks) == 0 {
		return ""
	}
	var parts []string
	for _, reason := range slices.Sorted(maps.Keys(s.Fallbacks)) {
		parts = append(parts, fmt.Sprintf("%d %s", s.Fallbacks[reason], reason))
	}
	return "Answered another way (their latency measures that way): " + strings.Join(parts, "; ")
}

// Op returns the operation row with the given name, or nil.
func (s *Summary) Op(name string) *Operation {
	for i := range s.Operations {
		if s.Operations[i].Name == name {
			return &s.Operations[i]
		}
	}
	return nil
}

// OKPoints is the points of every operation that succeeded.
func (s *Summary) OKPoints() int64 {
	var n int64
	for _, o := range s.Operations {
		n += o.OKPoints
	}
	return n
}
