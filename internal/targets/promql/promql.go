// Package promql is what the targets that query through the Prometheus
// HTTP API share (victoriametrics, prometheus, mimir, thanos): names as
// PromQL string literals and regular expressions, times as the API's
// seconds, the answers read (instant vectors and matrices, the latter by
// a scanner that builds no tree of values), Q7's buckets laid on
// evaluation grids and their answers gathered, and the user's own PromQL
// queries (the language, the rows of an answer). Nothing here is
// MetricsQL: VictoriaMetrics' extensions stay in its package.
package promql

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Quote renders s as a PromQL string literal. PromQL (and MetricsQL) read
// a double-quoted literal as a Go string literal (strconv.Unquote), so
// Go's quoting escapes exactly what they need: quotes, backslashes,
// control characters and invalid UTF-8.
func Quote(s string) string { return strconv.Quote(s) }

// MatchAny is the string literal of a regular expression matching exactly
// the given names (the servers anchor label regexps at both ends). The
// regexp's escapes (regexp.QuoteMeta's `\.`) are text inside the literal,
// so Quote doubles their backslashes: a bare `\.` in a literal is an
// invalid escape, which the servers refuse.
func MatchAny(names []string) string {
	alts := make([]string, len(names))
	for i, n := range names {
		alts[i] = regexp.QuoteMeta(n)
	}
	return Quote(strings.Join(alts, "|"))
}

// Horizon (2200-01-01, in ms) bounds the queries that have no end of their
// own: Q5's points, Q8's latest point and the count of everything. It is a
// data bound, never the wall clock: a run writes far faster than its
// POINT_STEP, so its last points lie ahead of the clock, and a query
// bounded by "now" misses them. A window from any benchmark's START_TIME
// to it stays below the 292 years a PromQL duration holds.
const Horizon int64 = 7258118400000

// Seconds renders milliseconds as the API's fractional seconds.
func Seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64) }

// Clamp moves a range's start to the schema's START_TIME, before which the
// series hold no data of the run (the targets keep a marker or a
// registration sample there). It reports false for a range that ends
// there.
func Clamp(s *ts.Schema, start, end int64) (int64, bool) {
	start = max(start, s.StartTime)
	return start, end > start
}

// RawRange is the range [start, end) of raw points a query reads when
// they are gathered in the client: a precise point's millisecond, every
// point up to Horizon for an aggregate of all values, else the query's
// range; clamped as Clamp does, false when nothing of the run is in it.
func RawRange(s *ts.Schema, q *ts.Query) (start, end int64, ok bool) {
	start, end = q.Start, q.End
	switch q.Kind {
	case ts.PrecisePoint:
		end = start + 1
	case ts.AggValue:
		start, end = s.StartTime, Horizon+1
	}
	start, ok = Clamp(s, start, end)
	return start, end, ok
}

// Window is a range selector's duration of ms milliseconds: "[1500ms]".
func Window(ms int64) string { return "[" + strconv.FormatInt(ms, 10) + "ms]" }

// MaxExactWindow is the longest range selector, in ms, that Prometheus 3
// reads to the millisecond: its parser turns a duration into float64
// seconds and back into nanoseconds, rounded (time.Duration(math.Round(
// seconds*1e9))), which is exact while the nanoseconds stay below 2^51
// (26 days); a longer window may come out a millisecond short, and its
// range then misses the samples at its first millisecond (seen: a count
// from 2026 to the horizon missed every series' first sample).
const MaxExactWindow int64 = 20 * 24 * 3600 * 1000

// GenerationMarker is the series a PromQL target writes to mark a run's
// generation of its data; Selector leaves it out.
const GenerationMarker = "tsbench_generation"

// Selector matches the series of devs x sensors of database db's
// generation gen (every device when devs is nil, every sensor when
// sensors is empty), the generation marker left out. Every name goes
// into a string literal (Quote, MatchAny), whatever characters it holds.
func Selector(db, gen string, s *ts.Schema, devs []*ts.Device, sensors []int) string {
	sel := `{db=` + Quote(db) + `,gen=` + Quote(gen) + `,__name__!="` + GenerationMarker + `"`
	if len(sensors) > 0 {
		names := make([]string, len(sensors))
		for i, sn := range sensors {
			names[i] = s.Sensors[sn].Name
		}
		sel += `,__name__=~` + MatchAny(names)
	}
	if devs != nil {
		names := make([]string, len(devs))
		for i, d := range devs {
			names[i] = d.Name
		}
		sel += `,device=~` + MatchAny(names)
	}
	return sel + "}"
}
