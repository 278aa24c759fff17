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

// Verify is the comparison of stored with acknowledged points.
type Verify struct {
	ExpectedPoints int64  `json:"expected_points"`
	StoredPoints   int64  `json:"stored_points"`
	OK             bool   `json:"ok"`
	Error          string `json:"error,omitempty"`   // counting failed
	Skipped        string `json:"skipped,omitempty"` // why nothing could be counted
	// DuplicatePoints are points of a replayed file that repeat an earlier
	// (series, time) of it: written, and expected stored once.
	DuplicatePoints int64 `json:"duplicate_points,omitempty"`
	// InDoubtPoints are points of write attempts that failed after they
	// could have reached the server (a timeout, a connection lost mid-way):
	// the server may have stored them or not, so a correct server holds
	// from ExpectedPoints up to this many more, never fewer.
	InDoubtPoints int64 `json:"in_doubt_points,omitempty"`
	// Lost maps acknowledged points the server no longer holds, when the
	// count came short and the data's times are known (generated in
	// order): the server's loss, by series and time range.
	Lost *Loss `json:"lost,omitempty"`
	// Queries are the query answers checked after the run against the
	// data it wrote (QUERY_CHECKS per kind), generated or replayed.
	Queries []QueryCheck `json:"queries,omitempty"`
	// QueriesSeconds is how long the checks took, outside the measured run.
	QueriesSeconds float64 `json:"queries_seconds,omitempty"`
	// QueriesSkipped says why no answer was checked, when that is worth
	// saying (a run whose stored rows cannot be computed).
	QueriesSkipped string `json:"queries_skipped,omitempty"`
	// Method says how a merged run was verified: counted once on the
	// server over every worker's devices, or the sum of the workers' own
	// counts.
	Method string `json:"method,omitempty"`
}

// Tool is what the benchmark process itself cost.
type Tool struct {
	Version      string  `json:"version"`
	CPUSeconds   float64 `json:"cpu_seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	// MeasuredCPUSeconds is the part of CPUSeconds spent while the run
	// measured (from the clients' release to the end of the last
	// operation): the operations' own cost, without start-up, schema,
	// warm-up, verification and reports. 0 in runs saved before it was kept.
	MeasuredCPUSeconds float64 `json:"measured_cpu_seconds,omitempty"`
	// CPUSecondsPerMillionPoints relates the tool's cost to the work done:
	// MeasuredCPUSeconds where known, else CPUSeconds.
	CPUSecondsPerMillionPoints float64 `json:"cpu_seconds_per_million_points"`
	// EmbeddedEngine names the database engine that ran inside the tool's
	// process (sqlite, duckdb): its work is part of the CPU and memory above.
	EmbeddedEngine string `json:"embedded_engine,omitempty"`
}

// Environment describes where the run happened.
type Environment struct {
	Hostname      string `json:"hostname"`
	OS            string `json:"os"`
	Kernel        string `json:"kernel,omitempty"`
	CPUModel      string `json:"cpu_model"`
	Cores         int    `json:"cores"`
	MemoryBytes   uint64 `json:"memory_bytes"`
	GoVersion     string `json:"go_version"`
	ServerVersion string `json:"server_version,omitempty"`
}

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
	StopReason    string      `json:"stop_reason"`
	OpenModel     bool        `json:"open_model"`
	RatePerSecond float64     `json:"rate_ops_per_s,omitempty"`
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
	// Worker says which share of a scaled-out run this is (WORKERS > 1).
	Worker *Worker `json:"worker,omitempty"`
	// Merge describes a run made by 'tsbench merge' from its workers' runs.
	Merge *Merge `json:"merge,omitempty"`
	// Replay describes the user's data a run replayed (DATA), when it did.
	Replay *Replay `json:"replay,omitempty"`
	// Hosts breaks the measured phase down per host when HOST lists
	// several (client i connects to host i mod n).
	Hosts []Host `json:"hosts,omitempty"`
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

// Crash is what --crash did to the server during the run.
type Crash struct {
	AtS       float64 `json:"at_s"`        // planned, seconds into the measured phase
	KilledAtS float64 `json:"killed_at_s"` // when SIGKILL was sent
	PID       int32   `json:"pid,omitempty"`
	Process   string  `json:"process,omitempty"`
	Found     string  `json:"found_by,omitempty"` // how the process was found: its port, a pid file
	Restart   string  `json:"restart"`            // the command that started it again
	// RestartedBy says where Restart came from: CRASH_RESTART, the killed
	// process's own image (/proc), or its service script.
	RestartedBy string  `json:"restarted_by,omitempty"`
	NewPID      int32   `json:"new_pid,omitempty"` // the restarted server's process
	RestartS    float64 `json:"restart_s,omitempty"`
	// BackAfterS is from the kill until the port accepted connections.
	BackAfterS float64 `json:"back_after_s,omitempty"`
	Error      string  `json:"error,omitempty"`
}

// Loss is where acknowledged points went missing.
type Loss struct {
	Points int64       `json:"points"` // acknowledged points not stored, over the ranges
	Ranges []LostRange `json:"ranges"`
	// Unresolved counts missing points the search did not place (it stops
	// after a bounded number of counts); Note says why a map is partial.
	Unresolved int64  `json:"unresolved_points,omitempty"`
	Note       string `json:"note,omitempty"`
}

// LostRange is one stretch of one device's acknowledged rows with points
// missing: rows [FromRow, ToRow), times [From, To) in milliseconds since
// the epoch.
type LostRange struct {
	Device  string `json:"device"`
	FromRow int64  `json:"from_row"`
	ToRow   int64  `json:"to_row"`
	From    int64  `json:"from_ms"`
	To      int64  `json:"to_ms"`
	Points  int64  `json:"points"` // missing in the range
}

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

// QueryFile is what a run did with the user's own queries.
type QueryFile struct {
	Path string `json:"path"`
	// QueryOnly: the run only queried data already stored (QUERY_ONLY):
	// it created no schema, wrote nothing and counted nothing.
	QueryOnly bool       `json:"query_only,omitempty"`
	Queries   []OwnQuery `json:"queries"`
}

// OwnQuery is one of the user's queries as the target ran it.
type OwnQuery struct {
	Name     string `json:"name"`
	Key      string `json:"key"`      // the file's text it ran: a target's name or a language
	Language string `json:"language"` // the target's language
	Text     string `json:"text"`     // as the file wrote it
	Weight   int64  `json:"weight"`
	// Rows returned per measured execution.
	RowsMin    int64 `json:"rows_min"`
	RowsMedian int64 `json:"rows_median"`
	RowsMax    int64 `json:"rows_max"`
	// Plan is the statement's plan (EXPLAIN), captured once with the
	// first checked parameter set; PlanError why it could not be.
	Plan      string `json:"plan,omitempty"`
	PlanError string `json:"plan_error,omitempty"`
	// Answers are the answers to the checked parameter sets, drawn with
	// fixed seeds: the same sets on every target, so that two runs of one
	// file compare answer by answer.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is a query's answer to one parameter set.
type Answer struct {
	Params map[string]string `json:"params"`
	Rows   int64             `json:"rows"`
	// Sample is the answer's first rows; Values, kept in memory only, its
	// first targets.MaxRows rows, which answers are compared by.
	Sample [][]any `json:"sample,omitempty"`
	Values [][]any `json:"-"`
	Error  string  `json:"error,omitempty"`
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
}

// Replay is the data a run wrote instead of generated data.
type Replay struct {
	Source  string `json:"source"`  // the file or directory given
	Dataset string `json:"dataset"` // the dataset directory it was read from
	Format  string `json:"format"`
	Devices int    `json:"devices"`
	Sensors int    `json:"sensors"`
	Rows    int64  `json:"rows"`
	// DuplicateRows repeat an earlier (device, time) of the file.
	DuplicateRows int64 `json:"duplicate_rows"`
	// MissingValues are the file's empty cells (sparse data): no points.
	MissingValues int64 `json:"missing_values,omitempty"`
	// FirstTime and LastTime are the data's first and last row's times
	// (RFC 3339, UTC), as read from the file: what a reader checks that
	// no time was misread (months or row numbers as seconds in 1970).
	FirstTime string `json:"first_time,omitempty"`
	LastTime  string `json:"last_time,omitempty"`
	// Repeat says the rows started again, shifted in time, once written
	// (LOOP or --duration longer than the file).
	Repeat        bool    `json:"repeat"`
	ImportSeconds float64 `json:"import_seconds,omitempty"`
}

// Worker is one process's share of a run split between WORKERS processes.
type Worker struct {
	Group   string `json:"group"`
	Index   int    `json:"index"`
	Workers int    `json:"workers"`
	// Clients are the global client numbers [lo, hi) this worker ran.
	Clients [2]int `json:"clients"`
	// StartAt is the instant the barrier gave for the measured phase to
	// begin, and Barrier how the workers agreed on it ("store" or
	// "start-at").
	StartAt time.Time `json:"start_at,omitzero"`
	Barrier string    `json:"barrier,omitempty"`
}

// Merge is the provenance of a merged run: which workers' runs it adds up,
// and which are missing or unfinished (then the run is incomplete).
type Merge struct {
	Group   string      `json:"group,omitempty"`
	Workers int         `json:"workers"`
	Runs    []MergedRun `json:"runs"`
	// Missing are the worker indexes with no finished run: the merged
	// counts lack their share.
	Missing []int `json:"missing,omitempty"`
	// Problems say why each missing index is missing.
	Problems []string `json:"problems,omitempty"`
}

// Complete reports whether every worker's share is in the merged run.
func (m *Merge) Complete() bool { return m == nil || len(m.Missing) == 0 }

// MergedRun is one worker's run as the merge saw it.
type MergedRun struct {
	Index      int     `json:"index"`
	RunID      string  `json:"run_id"`
	Hostname   string  `json:"hostname,omitempty"`
	Status     string  `json:"status"`
	Points     int64   `json:"points"`
	Operations int64   `json:"operations"`
	Elapsed    float64 `json:"elapsed_s"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// OffsetMS is when this worker began measuring, after the earliest.
	OffsetMS float64 `json:"start_offset_ms"`
}

// TPCC is a TPC-C run's own figures.
type TPCC struct {
	Warehouses int    `json:"warehouses"`
	Terminals  int    `json:"terminals"`
	ThinkTimes bool   `json:"think_times"`
	Tables     string `json:"tables"` // logged, or unlogged (PostgreSQL)
	Tablespace string `json:"tablespace,omitempty"`
	// Mode is TPCC_MODE: how the statements went (batched, interactive,
	// procedures); empty in runs stored before it was kept.
	Mode string `json:"mode,omitempty"`
	// TpmC is New-Order transactions completed per minute of the measured
	// phase (those rolled back by design included, as the specification
	// counts them); TpmTotal counts all five types.
	TpmC        float64 `json:"tpmc"`
	TpmTotal    float64 `json:"tpm_total"`
	ServerCores int     `json:"server_cores,omitempty"`
	TpmCPerCore float64 `json:"tpmc_per_core,omitempty"`
	// Rollbacks are New-Orders rolled back by design (1 % name an unused
	// item); failed transactions are in the matrices' failure columns.
	Rollbacks       int64       `json:"new_order_rollbacks"`
	DeliverySkipped int64       `json:"delivery_districts_skipped"`
	Reconnects      int64       `json:"reconnects,omitempty"`
	WarmupTx        int64       `json:"warmup_transactions,omitempty"`
	Load            TPCCLoad    `json:"load"`
	Consistency     []TPCCCheck `json:"consistency"`
	// NewOrders holds the New-Orders the terminals saw committed against
	// the orders the server holds after the run.
	NewOrders *TPCCNewOrders `json:"new_orders,omitempty"`
	// Sweep is a scenario's tpmC by number of connections, attached to
	// each of its runs for the report.
	Sweep []SweepPoint `json:"sweep,omitempty"`
}

// TPCCNewOrders checks that every New-Order the server acknowledged is
// still there after the run, district by district: a district's orders
// must have grown by its committed New-Orders, and by at most its in-doubt
// ones (whose commit's answer was lost) more.
type TPCCNewOrders struct {
	Committed int64 `json:"committed"` // acknowledged, warm-up included
	Found     int64 `json:"found"`
	InDoubt   int64 `json:"in_doubt"`
	// Lost are acknowledged New-Orders the server does not hold: its
	// loss. Unexplained are orders beyond every acknowledged and in-doubt
	// one.
	Lost        int64 `json:"lost"`
	Unexplained int64 `json:"unexplained,omitempty"`
	// Districts lists (the first of) those where the counts disagree.
	Districts []TPCCDistrictOrders `json:"districts,omitempty"`
}

// TPCCDistrictOrders is one district's New-Orders against its orders.
type TPCCDistrictOrders struct {
	Warehouse int   `json:"w_id"`
	District  int   `json:"d_id"`
	Committed int64 `json:"committed"`
	InDoubt   int64 `json:"in_doubt"`
	Grew      int64 `json:"orders_grew_by"`
}

// TPCCLoad is the initial population of a TPC-C run.
type TPCCLoad struct {
	Loaded  bool    `json:"loaded"` // false: an earlier complete load was reused
	Seconds float64 `json:"seconds,omitempty"`
	Rows    int64   `json:"rows,omitempty"`
}

// TPCCCheck is one consistency condition (TPC-C clause 3.3.2) checked
// after the run, and how many rows break it.
type TPCCCheck struct {
	Number     int    `json:"number"`
	Condition  string `json:"condition"`
	Violations int64  `json:"violations"`
	OK         bool   `json:"ok"`
	Error      string `json:"error,omitempty"`
}

// Consistent reports whether every consistency condition held.
func (t *TPCC) Consistent() bool {
	for _, c := range t.Consistency {
		if !c.OK {
			return false
		}
	}
	if n := t.NewOrders; n != nil && (n.Lost > 0 || n.Unexplained > 0) {
		return false
	}
	return len(t.Consistency) > 0
}

// SweepPoint is one step of a connections sweep.
type SweepPoint struct {
	Label       string  `json:"label"` // the scenario phase
	Connections int     `json:"connections"`
	TpmC        float64 `json:"tpmc"`
	P90MS       float64 `json:"p90_ms"` // 90th percentile over all transaction types
}

// Resources is the resource use sampled during the measured phase.
type Resources struct {
	IntervalSeconds float64 `json:"interval_s"`
	// Server names the process watched as the database server (with its
	// descendants), when it runs on this host.
	Server *ServerProcess `json:"server,omitempty"`
	// Samples are this host's, one a second.
	Samples []ResourceSample `json:"samples"`
	// Remote are samples from 'tsbench monitor' on the database host,
	// merged by time by 'tsbench report --monitor'.
	Remote []ResourceSample `json:"remote,omitempty"`
	// Errors say what could not be sampled (each kind once).
	Errors []string `json:"errors,omitempty"`
}

// ServerProcess identifies the database server process.
type ServerProcess struct {
	PID    int32  `json:"pid"`
	Name   string `json:"name,omitempty"`
	Source string `json:"source"` // "--server-pid", or the pid file it came from
}

// ResourceSample is one moment's resource use; rates cover the time since
// the previous sample.
type ResourceSample struct {
	Time     time.Time     `json:"time"`
	T        float64       `json:"t_s"`                // seconds since the measured phase began
	Hostname string        `json:"hostname,omitempty"` // set on samples taken by 'tsbench monitor'
	Tool     *ProcessUsage `json:"tool,omitempty"`
	Server   *ProcessUsage `json:"server,omitempty"`
	Host     *HostUsage    `json:"host,omitempty"`
}

// ProcessUsage is a process's (and its descendants') use.
type ProcessUsage struct {
	PID            int32   `json:"pid"`
	Processes      int     `json:"processes,omitempty"` // the process and its descendants
	CPUPercent     float64 `json:"cpu_percent"`         // 100 = one core busy
	RSSBytes       uint64  `json:"rss_bytes"`
	ReadBytesPerS  float64 `json:"read_bytes_per_s"`  // storage reads
	WriteBytesPerS float64 `json:"write_bytes_per_s"` // storage writes
}

// HostUsage is the whole machine's use.
type HostUsage struct {
	CPUPercent         float64 `json:"cpu_percent"` // of all cores: 100 = every core busy
	Cores              int     `json:"cores"`
	MemUsedBytes       uint64  `json:"mem_used_bytes"`
	MemTotalBytes      uint64  `json:"mem_total_bytes"`
	DiskReadBytesPerS  float64 `json:"disk_read_bytes_per_s"`
	DiskWriteBytesPerS float64 `json:"disk_write_bytes_per_s"`
	NetRecvBytesPerS   float64 `json:"net_recv_bytes_per_s"` // every interface, loopback included
	NetSentBytesPerS   float64 `json:"net_sent_bytes_per_s"`
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

// Status is the run's outcome in one word, the most serious that applies:
// running (not finished: under way, or its process was killed),
// incomplete (a merged run lacking some workers' shares), interrupted,
// verify-failed, threshold-failed, failed (some operations failed) or ok.
func (s *Summary) Status() string {
	switch {
	case s.StopReason == "running" || s.StopReason == "incomplete":
		return "running"
	case !s.Merge.Complete():
		return "incomplete"
	case s.Interrupted:
		return "interrupted"
	case s.Verify.Mismatch(), s.TPCC != nil && !s.TPCC.Consistent():
		return "verify-failed"
	case s.ThresholdFailed():
		return "threshold-failed"
	case s.Failed(), s.Verify != nil && s.Verify.Error != "":
		// Counting failed (the server is down): the run failed, but no
		// mismatch was seen.
		return "failed"
	}
	return "ok"
}

// QueryCheck is one query answer compared with the data.
type QueryCheck struct {
	Query  string `json:"query"`
	Window string `json:"window,omitempty"` // devices, sensors and time range asked
	OK     bool   `json:"ok"`
	Points int64  `json:"points"`
	Detail string `json:"detail,omitempty"` // how the answer differs
	Error  string `json:"error,omitempty"`  // the query failed: nothing compared
}

// Unsupported is a QueryCheck's Detail when the target declared the query
// unsupported: OK, and no answer compared.
const Unsupported = "not supported by the target"

// Answered reports whether the check compared an answer.
func (q QueryCheck) Answered() bool { return !(q.OK && q.Detail == Unsupported) }

// Judge records the outcome of asking the target: unsupported (err wraps
// unsupported), failed, or an answer of points whose difference from the
// expected one diff gives ("" when they agree).
func (q *QueryCheck) Judge(err error, unsupported bool, points int64, diff func() string) {
	switch {
	case unsupported:
		q.OK, q.Detail = true, Unsupported
	case err != nil:
		q.Error = err.Error()
	default:
		q.Points = points
		q.Detail = diff()
		q.OK = q.Detail == ""
	}
}

// Judge records the stored count and whether it is right: every
// acknowledged point, and no more than the writes in doubt may add.
func (v *Verify) Judge(stored int64) {
	v.StoredPoints = stored
	v.OK = stored >= v.ExpectedPoints && stored <= v.ExpectedPoints+v.InDoubtPoints
}

// Mismatch reports whether verification counted the stored points and
// found a number Judge does not accept, or a query answer that differs
// from the data.
func (v *Verify) Mismatch() bool {
	if v == nil {
		return false
	}
	for _, q := range v.Queries {
		if !q.OK && q.Error == "" {
			return true
		}
	}
	return !v.OK && v.Skipped == "" && v.Error == ""
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

// ClosedModel reports whether the run measured latency in the closed model
// (no --rate), which the warning above qualifies.
func (s *Summary) ClosedModel() bool { return !s.OpenModel && len(s.Operations) > 0 }

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

// OKPoints is the points of every operation that succeeded.
func (s *Summary) OKPoints() int64 {
	var n int64
	for _, o := range s.Operations {
		n += o.OKPoints
	}
	return n
}

// OperationsCPU is the CPU the tool spent on its operations:
// MeasuredCPUSeconds where known, else the whole process's.
func (t Tool) OperationsCPU() float64 {
	if t.MeasuredCPUSeconds > 0 {
		return t.MeasuredCPUSeconds
	}
	return t.CPUSeconds
}
