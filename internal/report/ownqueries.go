package report

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/summary"
)

// writeOwnQueries prints what the matrices do not show of the user's own
// queries: the rows each returned, the answers kept for comparison (one
// example each) and the plans captured with EXPLAIN.
func writeOwnQueries(b *strings.Builder, qf *summary.QueryFile) {
	if qf == nil {
		return
	}
	if qf.QueryOnly {
		fmt.Fprintf(b, "Query-only run: the queries of %s on data already stored; no schema created, nothing written, nothing counted\n", qf.Path)
	}
	fmt.Fprintf(b, "Own queries (%s): rows returned per execution (min / median / max), answers to the checked parameter sets\n", qf.Path)
	width := 0
	for _, q := range qf.Queries {
		width = max(width, len(q.Name))
	}
	for _, q := range qf.Queries {
		fmt.Fprintf(b, "  %-*s  %s text, weight %d, rows %d / %d / %d%s\n", width, q.Name, q.Key, q.Weight,
			q.RowsMin, q.RowsMedian, q.RowsMax, answersNote(q.Answers))
		if q.Plan != "" {
			fmt.Fprintf(b, "  %-*s  plan (EXPLAIN):\n", width, "")
			for _, l := range strings.Split(q.Plan, "\n") {
				fmt.Fprintf(b, "  %-*s    %s\n", width, "", l)
			}
		}
		if q.PlanError != "" {
			fmt.Fprintf(b, "  %-*s  no plan: %s\n", width, "", oneLine(q.PlanError, exampleMax))
		}
	}
}

// answersNote says how many checked answers a query has, with the first as
// an example, and how many failed.
func answersNote(answers []summary.Answer) string {
	if len(answers) == 0 {
		return ""
	}
	failed := 0
	var example, failure string
	for _, a := range answers {
		switch {
		case a.Error != "":
			failed++
			if failure == "" {
				failure = a.Error
			}
		case example == "":
			example = fmt.Sprintf("%s -> %d rows", ownquery.ParamsText(a.Params), a.Rows)
			if len(a.Sample) > 0 {
				example += fmt.Sprintf(", first %s", ownquery.RowText(a.Sample[0]))
			}
		}
	}
	note := fmt.Sprintf("; %d answers kept", len(answers)-failed)
	if example != "" {
		note += ", e.g. " + example
	}
	if failed > 0 {
		note += fmt.Sprintf("; %d failed: %s", failed, oneLine(failure, exampleMax))
	}
	return note
}
