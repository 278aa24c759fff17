package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/summary"
)

// Answers are the answers of several targets compared with the first
// target's: each comparison, and the lines the console printed of them, so
// that the HTML report and the JSON say what the console said, in its words.
type Answers struct {
	Comparisons []ownquery.Comparison
	Lines       []string
}

// Disagreements counts the query-target pairs whose answers differ where
// no known difference of their engines explains it.
func (a Answers) Disagreements() int {
	n := 0
	for _, c := range a.Comparisons {
		if c.Disagree() {
			n++
		}
	}
	return n
}

// Targets prints the runs of one workload on several targets side by
// side (tsbench run --target a,b,c): each operation's throughput and
// latency on every target, whether each stored what it acknowledged, and
// how the answers of the user's own queries (or the workload's checked
// queries) compare with the first target's. It returns the comparisons,
// so that the caller can judge them and report them.
func Targets(w io.Writer, runs []*summary.Summary) (Answers, error) {
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
	var answers strings.Builder
	own := ownquery.CompareRuns(runs)
	writeComparisons(&answers, own)
	workload := compareDigests(runs)
	writeDigestComparisons(&answers, workload)
	b.WriteString(answers.String())
	_, err := io.WriteString(w, b.String())
	return Answers{Comparisons: append(own, workload...), Lines: lines(answers.String())}, err
}

// lines are text's lines, without their ends.
func lines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// compareDigests compares the digests of a workload's checked queries
// (the prometheus workload's, summary.QueryCheck.Digest) on each run with
// the first run's: the same shape gives the same answers on every store.
// A digest covers all of a query's answers, so a disagreement counts as
// one (Differ 1) of the answers compared.
func compareDigests(runs []*summary.Summary) []ownquery.Comparison {
	if len(runs) < 2 || runs[0].Verify == nil || !slices.ContainsFunc(runs[0].Verify.Queries, func(q summary.QueryCheck) bool {
		return q.Digest != ""
	}) {
		return nil // not a workload whose queries have digests (a time series run's Q1..Q10)
	}
	ref := runs[0]
	var out []ownquery.Comparison
	for _, s := range runs[1:] {
		for _, rq := range ref.Verify.Queries {
			c := ownquery.Comparison{Query: rq.Query, Target: s.Target, Reference: ref.Target}
			q := queryCheck(s, rq.Query)
			switch {
			case q == nil:
				c.Skipped = "the run has no such query"
			case rq.Digest == "" || q.Digest == "":
				c.Skipped = "some answers failed or were not asked: " + cmp.Or(rq.Error, q.Error, "the run stopped before them")
			case rq.Digest != q.Digest:
				c.Compared, c.Differ = int(q.Points), 1
				c.Example = fmt.Sprintf("%s: digest %s, %s: digest %s", ref.Target, rq.Digest, s.Target, q.Digest)
				if rq.OK && q.OK {
					// Each store's answers were its engine's: they differ
					// where the engines do by design.
					c.Semantic = ownquery.KnownDifference(rq.Engine, q.Engine, rq.Expr)
				}
				if !q.OK {
					c.Example += "; " + s.Target + "'s own check: " + q.Detail
				} else if !rq.OK {
					c.Example += "; " + ref.Target + "'s own check: " + rq.Detail
				}
			default:
				c.Compared = int(q.Points)
			}
			out = append(out, c)
		}
	}
	return out
}

// queryCheck is the run's check of the query named, or nil.
func queryCheck(s *summary.Summary, name string) *summary.QueryCheck {
	if s.Verify == nil {
		return nil
	}
	for i := range s.Verify.Queries {
		if s.Verify.Queries[i].Query == name {
			return &s.Verify.Queries[i]
		}
	}
	return nil
}

// writeDigestComparisons says, per target, whether its answers to the
// workload's queries agree with the first target's: a line for a target
// whose every query agrees, else a line per query that does not.
func writeDigestComparisons(b *strings.Builder, cs []ownquery.Comparison) {
	if len(cs) == 0 {
		return
	}
	semantic := ""
	if n := byDesign(cs); n > 0 {
		semantic = fmt.Sprintf(", %d differ by design (a known difference of their engines)", n)
	}
	fmt.Fprintf(b, "Answers of the workload's queries: %d of %d query-target pairs agree with %s%s (every answer, bit for bit, "+
		"an inexact one within its rounding, its times from the workload's start)\n", agreeing(cs), len(cs), cs[0].Reference, semantic)
	for start := 0; start < len(cs); {
		end := start
		for end < len(cs) && cs[end].Target == cs[start].Target {
			end++
		}
		writeTargetDigests(b, cs[start:end])
		start = end
	}
}

// writeTargetDigests writes one target's comparisons.
func writeTargetDigests(b *strings.Builder, cs []ownquery.Comparison) {
	agreed, answers := 0, 0
	for _, c := range cs {
		switch {
		case c.Skipped != "":
			fmt.Fprintf(b, "  %s on %s: not compared: %s\n", c.Query, c.Target, oneLine(c.Skipped, exampleMax))
		case c.Differ > 0 && c.Semantic != "":
			fmt.Fprintf(b, "  SEMANTIC  %s on %s: its %d answers differ from %s's by design, each its engine's (%s)\n",
				c.Query, c.Target, c.Compared, c.Reference, c.Semantic)
		case c.Differ > 0:
			fmt.Fprintf(b, "  DISAGREE  %s on %s: its %d answers differ from %s's: %s\n", c.Query, c.Target, c.Compared, c.Reference,
				oneLine(c.Example, 2*exampleMax))
		default:
			agreed++
			answers += c.Compared
		}
	}
	switch {
	case agreed == len(cs):
		fmt.Fprintf(b, "  agree     %s: all %d queries, %d answers\n", cs[0].Target, agreed, answers)
	case agreed > 0:
		fmt.Fprintf(b, "  agree     %s: the other %d queries, %d answers\n", cs[0].Target, agreed, answers)
	}
}

// byDesign is how many of the comparisons differ by a known difference
// of their engines.
func byDesign(cs []ownquery.Comparison) int {
	n := 0
	for _, c := range cs {
		if c.Differ > 0 && c.Semantic != "" && c.Skipped == "" {
			n++
		}
	}
	return n
}

// agreeing is how many of the comparisons agree.
func agreeing(cs []ownquery.Comparison) int {
	n := 0
	for _, c := range cs {
		if c.Agree() {
			n++
		}
	}
	return n
}

// writeComparisons says, per own query and target, whether its answers
// agree with the first target's, with an example of a disagreement.
func writeComparisons(b *strings.Builder, cs []ownquery.Comparison) {
	if len(cs) == 0 {
		return
	}
	semantic := ""
	if n := byDesign(cs); n > 0 {
		semantic = fmt.Sprintf(", %d differ by design (a known difference of their engines, both answers shown)", n)
	}
	fmt.Fprintf(b, "Answers of own queries: %d of %d query-target pairs agree with %s%s (same parameter sets, rows as sets, numbers within a relative %g)\n",
		agreeing(cs), len(cs), cs[0].Reference, semantic, ownquery.Tolerance)
	for _, c := range cs {
		switch {
		case c.Skipped != "":
			fmt.Fprintf(b, "  %s on %s: not compared: %s\n", c.Query, c.Target, oneLine(c.Skipped, exampleMax))
		case c.Differ > 0 && c.Semantic != "":
			fmt.Fprintf(b, "  SEMANTIC  %s on %s: %d of %d parameter sets answered differently by design (%s), e.g. %s\n",
				c.Query, c.Target, c.Differ, c.Compared, c.Semantic, oneLine(c.Example, 2*exampleMax))
		case c.Differ > 0:
			fmt.Fprintf(b, "  DISAGREE  %s on %s: %d of %d parameter sets answered differently, e.g. %s\n",
				c.Query, c.Target, c.Differ, c.Compared, oneLine(c.Example, 2*exampleMax))
		default:
			fmt.Fprintf(b, "  agree     %s on %s: %d of %d parameter sets\n", c.Query, c.Target, c.Compared, c.Compared)
		}
	}
}
