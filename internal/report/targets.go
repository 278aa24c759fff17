package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/summary"
)

// Targets prints the runs of one workload on several targets side by
// side (tsbench run --target a,b,c): each operation's throughput and
// latency on every target, whether each stored what it acknowledged, and
// how the answers of the user's own queries compare with the first
// target's. It returns the comparisons, so that the caller can judge them.
func Targets(w io.Writer, runs []*summary.Summary) ([]ownquery.Comparison, error) {
	var b strings.Builder
	b.WriteString("==================== targets side by side ====================\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	head := "Operation"
	for _, s := range runs {
		head += fmt.Sprintf("\t%s ops/s\tp50 ms\tp99 ms", s.Target)
	}
	fmt.Fprintln(tw, head)
	for _, name := range summary.OperationNames(runs) {
		row := name
		for _, s := range runs {
			op := s.Op(name)
			if op == nil || op.OKOperations == 0 {
				row += "\t-\t-\t-"
				continue
			}
			row += fmt.Sprintf("\t%.1f\t%.2f\t%.2f", float64(op.OKOperations)/max(s.Elapsed, 1e-9), op.LatencyMS.P50, op.LatencyMS.P99)
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	for _, s := range runs {
		if v := verifyLine(s.Verify); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", s.Target, v)
		}
	}
	comparisons := ownquery.CompareRuns(runs)
	writeComparisons(&b, comparisons)
	_, err := io.WriteString(w, b.String())
	return comparisons, err
}

// writeComparisons says, per own query and target, whether its answers
// agree with the first target's, with an example of a disagreement.
func writeComparisons(b *strings.Builder, cs []ownquery.Comparison) {
	if len(cs) == 0 {
		return
	}
	agree := 0
	for _, c := range cs {
		if c.Agree() {
			agree++
		}
	}
	fmt.Fprintf(b, "Answers of own queries: %d of %d query-target pairs agree with %s (same parameter sets, rows as sets, numbers within a relative %g)\n",
		agree, len(cs), cs[0].Reference, ownquery.Tolerance)
	for _, c := range cs {
		switch {
		case c.Skipped != "":
			fmt.Fprintf(b, "  %s on %s: not compared: %s\n", c.Query, c.Target, oneLine(c.Skipped, exampleMax))
		case c.Differ > 0:
			fmt.Fprintf(b, "  DISAGREE  %s on %s: %d of %d parameter sets answered differently, e.g. %s\n",
				c.Query, c.Target, c.Differ, c.Compared, oneLine(c.Example, 2*exampleMax))
		default:
			fmt.Fprintf(b, "  agree     %s on %s: %d of %d parameter sets\n", c.Query, c.Target, c.Compared, c.Compared)
		}
	}
}
