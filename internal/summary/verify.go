package summary

// Verification: stored against acknowledged points, where a loss lies,
// and query answers checked against the data.

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
	// QueriesOn says which devices the answers were checked on when some
	// were left out: those of which a write failed for good, whose stored
	// rows the expected answers cannot know.
	QueriesOn string `json:"queries_on,omitempty"`
	// ExpectedSeries and StoredSeries are the prometheus workload's
	// distinct series: the model's (every target generation written, the
	// churn's included) and the store's count of those with a sample;
	// 0 when not counted (a run stopped before its last scrape).
	ExpectedSeries int64 `json:"expected_series,omitempty"`
	StoredSeries   int64 `json:"stored_series,omitempty"`
	// Method says how a merged run was verified: counted once on the
	// server over every worker's devices, or the sum of the workers' own
	// counts.
	Method string `json:"method,omitempty"`
	// CountFailures are the counts that failed for a reason that passes
	// (a connection, a timeout: a node just back, a ring catching one
	// up) before the count that gave StoredPoints or Error, each error as
	// the target gave it; none when the first count answered.
	CountFailures []string `json:"count_failures,omitempty"`
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

// QueryCheck is one query answer compared with the data.
type QueryCheck struct {
	Query  string `json:"query"`
	Window string `json:"window,omitempty"` // devices, sensors and time range asked
	OK     bool   `json:"ok"`
	Points int64  `json:"points"`
	Detail string `json:"detail,omitempty"` // how the answer differs
	Error  string `json:"error,omitempty"`  // the query failed: nothing compared
	// Digest fingerprints every answer of a workload query (the prometheus
	// workload's), times from the workload's start and the run's own labels
	// blanked: runs of the same shape on two stores agree when it does.
	Digest string `json:"digest,omitempty"`
	// Expr and Engine are a workload query's text and the engine that
	// answered it, where answers depend on the engine (a rate): two runs'
	// digests then differ by design between engines (see
	// ownquery.KnownDifference).
	Expr   string `json:"expr,omitempty"`
	Engine string `json:"engine,omitempty"`
	// LatencyMS is the latency of the query's answers, where a workload
	// times each of its queries apart (the prometheus workload's
	// expressions; its operation rows hold them by kind).
	LatencyMS *Latency `json:"latency_ms,omitempty"`
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
