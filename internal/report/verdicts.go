package report

import (
	"strings"

	"github.com/tsbench/tsbench/internal/findmax"
	"github.com/tsbench/tsbench/internal/summary"
)

// Verdicts are the lines of a run's console output that judge it, in the
// console's words and order: TPC-C's consistency conditions, the crash and
// what it cost, the stored count and where points went missing, the query
// answers, the thresholds and the find-max search's answer. The HTML
// report shows them first, so that it never reads "ok" where the console
// (and the exit status) said otherwise.
func Verdicts(s *summary.Summary) []string {
	var b strings.Builder
	if s.TPCC != nil {
		writeConsistency(&b, s.TPCC)
	}
	writeChecks(&b, s)
	Thresholds(&b, s.Thresholds)
	if s.FindMax != nil {
		b.WriteString(findmax.Conclusion(s.FindMax) + "\n")
	}
	return lines(b.String())
}
