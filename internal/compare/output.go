package compare

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/report"
)

// tooShortNote explains the verdict where it appears.
var tooShortNote = fmt.Sprintf("too short to tell: fewer than %d effective seconds in a run (seconds counted "+
	"under their autocorrelation), too few for a p-value to mean anything; run longer, e.g. --duration 60s",
	MinEffectiveSeconds)

// label names the i-th compared run in tables: B, C, ... then #27, #28.
func label(i int) string {
	if i >= 25 {
		return fmt.Sprintf("#%d", i+2)
	}
	return string(rune('B' + i))
}

// WriteText prints the comparison as console tables, one per compared run,
// each after what differs between that run and the baseline.
func (r Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Baseline (A): %s\n", describe(r.Baseline))
	for i, p := range r.Pairs {
		l := label(i)
		fmt.Fprintf(&b, "\n%s: %s\n", l, describe(p.Run))
		writeDiffText(&b, p.Differences, l)
		writeTableText(&b, p, l)
	}
	fmt.Fprintf(&b, "\n* significant: %s.\n", r.Method)
	if r.Count(VerdictTooShort) > 0 {
		fmt.Fprintf(&b, "%s.\n", tooShortNote)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeDiffText(b *strings.Builder, diffs []Difference, l string) {
	if len(diffs) == 0 {
		fmt.Fprintf(b, "Settings: the same as A's.\n")
		return
	}
	fmt.Fprintf(b, "Differs from A (A -> %s):\n", l)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	for _, d := range diffs {
		fmt.Fprintf(tw, "  %s\t%s -> %s\n", d.Key, d.Baseline, d.Value)
	}
	tw.Flush()
}

func writeTableText(b *strings.Builder, p Pair, l string) {
	b.WriteString("\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Operation\tMetric\tA\t%s\t%s/A\tp-value\tVerdict\n", l, l)
	for _, op := range p.Operations {
		if op.Missing != "" {
			fmt.Fprintf(tw, "%s\t-\t\t\t\t\tnot in %s\n", op.Name, missingLabel(op, l))
			continue
		}
		for j, m := range op.Metrics {
			name := op.Name
			if j > 0 {
				name = ""
			}
			verdict := m.Verdict
			if m.Significant {
				verdict = "* " + verdict
			}
			fmt.Fprintf(tw, "%s\t%s (%s)\t%s\t%s\t%s\t%s\t%s\n", name, m.Name, m.Unit, FormatNumber(m.Baseline), FormatNumber(m.Value),
				ratioText(m.Ratio), pText(m), verdict)
		}
	}
	tw.Flush()
}

func missingLabel(op Operation, l string) string {
	if op.Missing == "run" {
		return l
	}
	return "A"
}

// WriteMarkdown prints the comparison as GitHub-flavoured Markdown, for a
// pull request's comment: per compared run, a table of the run ids and
// the settings that differ from the baseline's, then the figures. It
// begins with a table header, so that a CI step can paste it as it is.
func (r Result) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	for i, p := range r.Pairs {
		if i > 0 {
			b.WriteString("\n")
		}
		l := label(i)
		writeDiffMarkdown(&b, r.Baseline, p, l)
		b.WriteString("\n")
		writeTableMarkdown(&b, p, l)
	}
	fmt.Fprintf(&b, "\n**Bold**: significant. %s.\n", mdCell(r.Method))
	if r.Count(VerdictTooShort) > 0 {
		fmt.Fprintf(&b, "\n*%s.*\n", mdCell(strings.Replace(tooShortNote, "--duration 60s", "`--duration 60s`", 1)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeDiffMarkdown(b *strings.Builder, base Run, p Pair, l string) {
	fmt.Fprintf(b, "| Setting | A (baseline) | %s |\n|---|---|---|\n", l)
	fmt.Fprintf(b, "| run | `%s` | `%s` |\n", mdCell(base.ID), mdCell(p.Run.ID))
	fmt.Fprintf(b, "| measured | %.1f s | %.1f s |\n", base.Elapsed, p.Run.Elapsed)
	for _, d := range p.Differences {
		fmt.Fprintf(b, "| %s | %s | %s |\n", mdCell(d.Key), mdCell(d.Baseline), mdCell(d.Value))
	}
}

func writeTableMarkdown(b *strings.Builder, p Pair, l string) {
	fmt.Fprintf(b, "| Operation | Metric | A | %s | %s/A | p | Verdict |\n", l, l)
	b.WriteString("|---|---|--:|--:|--:|--:|---|\n")
	for _, op := range p.Operations {
		if op.Missing != "" {
			fmt.Fprintf(b, "| %s | - | | | | | not in %s |\n", mdCell(op.Name), missingLabel(op, l))
			continue
		}
		for _, m := range op.Metrics {
			verdict := m.Verdict
			if m.Significant {
				verdict = "**" + verdict + "**"
			}
			fmt.Fprintf(b, "| %s | %s (%s) | %s | %s | %s | %s | %s |\n", mdCell(op.Name), m.Name, m.Unit,
				FormatNumber(m.Baseline), FormatNumber(m.Value), ratioText(m.Ratio), pText(m), verdict)
		}
	}
}

// mdCell makes text safe inside a Markdown table cell: a pipe would end the
// cell, a newline the row.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

func describe(r Run) string {
	s := r.ID + "  target " + r.Target
	if r.Scenario != "" {
		s += "  scenario " + r.Scenario
	}
	if !r.Started.IsZero() {
		s += "  started " + r.Started.UTC().Format("2006-01-02 15:04:05Z")
	}
	s += fmt.Sprintf("  measured %.1f s", r.Elapsed)
	if r.Repetitions > 1 {
		s += fmt.Sprintf("  with %d repetitions (figures: their means)", r.Repetitions)
	}
	if r.Answers != "" {
		s += "  query answers " + r.Answers
	}
	return s
}

// FormatNumber is compare's number format, shared with the HTML report:
// whole with grouped thousands from 1,000, two decimals from 1, three
// significant digits below.
func FormatNumber(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1000:
		return report.GroupThousands(fmt.Sprintf("%.0f", v))
	case math.Abs(v) >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

func ratioText(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", r)
}

// pText is the p-value column: the adjusted p-value, or, for a figure too
// short to tell, that instead of a number.
func pText(m Metric) string {
	switch {
	case m.PValue != nil && *m.PValue < 0.001:
		return "<0.001"
	case m.PValue != nil:
		return fmt.Sprintf("%.3f", *m.PValue)
	case m.Verdict == VerdictTooShort:
		return VerdictTooShort
	}
	return "-"
}
