package ownquery

import (
	"regexp"
	"strings"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// A knownDifference is a way two engines of one language answer the same
// text differently by design, not by a wrong answer: where the query uses
// one of funcs, the answers of engines a and b may differ for why.
type knownDifference struct {
	a, b  string
	funcs []string
	why   string
}

// knownDifferences are the documented ones (VictoriaMetrics' "MetricsQL"
// page lists its intended differences from PromQL).
var knownDifferences = []knownDifference{
	{promql.EnginePrometheus, promql.EngineMetricsQL, []string{"rate", "increase", "delta", "irate", "idelta", "changes", "resets"},
		"Prometheus extrapolates from the window's own samples to its ends; MetricsQL counts from the last sample before the window and does not extrapolate"},
	{promql.EnginePrometheus, promql.EngineMetricsQL, []string{"histogram_quantile"},
		"the two interpolate within the +Inf bucket and empty buckets differently"},
}

// calls matches a call of one of the functions a known difference names.
var calls = func() map[string]*regexp.Regexp {
	out := map[string]*regexp.Regexp{}
	for _, d := range knownDifferences {
		for _, f := range d.funcs {
			// A function is a name not within a longer one (metric names
			// take letters, digits, _ and :) followed by its parenthesis.
			out[f] = regexp.MustCompile(`(^|[^\w:])` + f + `\s*\(`)
		}
	}
	return out
}()

// KnownDifference says why engines a and b may answer text differently
// by design: the functions of text they evaluate differently, and how;
// "" when none does, or a and b are one engine (or unknown).
func KnownDifference(a, b, text string) string {
	if a == "" || b == "" || a == b {
		return ""
	}
	var out []string
	for _, d := range knownDifferences {
		if (d.a != a || d.b != b) && (d.a != b || d.b != a) {
			continue
		}
		var used []string
		for _, f := range d.funcs {
			if calls[f].MatchString(text) {
				used = append(used, f)
			}
		}
		if len(used) > 0 {
			out = append(out, strings.Join(used, ", ")+": "+d.why)
		}
	}
	return strings.Join(out, "; ")
}
