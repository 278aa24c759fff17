package compare

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// cells splits a Markdown table row into its cells, leaving escaped pipes
// inside their cell.
func cells(row string) []string {
	row = strings.ReplaceAll(row, `\|`, "\x00")
	parts := strings.Split(strings.Trim(row, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(strings.ReplaceAll(parts[i], "\x00", `\|`))
	}
	return parts
}

func TestWriteMarkdown(t *testing.T) {
	base := synthetic("A", 1, 200, 2*time.Millisecond)
	faster := synthetic("B", 2, 300, time.Millisecond)
	faster.Config = map[string]any{"remark": "a|b"}
	slower := synthetic("C", 3, 100, 4*time.Millisecond)
	short := func(id string) *summary.Summary {
		return resultstest.Summary(resultstest.Run{ID: id, Seconds: 3, Ops: []resultstest.Op{
			{Op: workload.Write, OpsPerSec: 100, Points: 1, Latency: time.Millisecond}}})
	}
	cases := []struct {
		name       string
		res        Result
		want, lack []string
	}{
		{"better, and a pipe in a setting", Compare(base, []*summary.Summary{faster}, 0),
			[]string{"| run | `A` | `B` |", `| remark | (not set) | a\|b |`, "| INGESTION | throughput (points/s) |", "**better**", "| TIME_RANGE | p50 (ms) |"},
			[]string{"**worse**", "too short to tell"}},
		{"worse", Compare(base, []*summary.Summary{slower}, 0),
			[]string{"**worse**", "| INGESTION | max (ms) |", "| - | not tested |"}, []string{"**better**"}},
		{"too short to tell, in the p column and the verdict", Compare(short("A"), []*summary.Summary{short("B")}, 0),
			[]string{"| too short to tell | too short to tell |", "fewer than 5 effective seconds"}, []string{"**worse**", "**better**", "<0.001"}},
		{"two runs: two pairs of tables", Compare(base, []*summary.Summary{faster, slower}, 0),
			[]string{"| Setting | A (baseline) | C |", "| Operation | Metric | A | C | C/A | p | Verdict |"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.res.WriteMarkdown(&buf); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			lines := strings.Split(out, "\n")
			if !strings.HasPrefix(lines[0], "| Setting | A (baseline) | B |") || lines[1] != "|---|---|---|" {
				t.Errorf("does not begin with a table header:\n%s", out)
			}
			checkRows(t, out)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, l := range c.lack {
				if strings.Contains(out, l) {
					t.Errorf("has %q:\n%s", l, out)
				}
			}
		})
	}
}

// checkRows checks that every row of every table has as many cells as its
// header: a stray pipe would shift the columns of a rendered table.
func checkRows(t *testing.T, out string) {
	t.Helper()
	width := 0
	for _, line := range strings.Split(out, "\n") {
		switch {
		case !strings.HasPrefix(line, "|"):
			width = 0
		case width == 0:
			width = len(cells(line))
		case len(cells(line)) != width:
			t.Errorf("row of %d cells in a table of %d: %s", len(cells(line)), width, line)
		}
	}
}

func TestWriteTextDifferencesBeforeTable(t *testing.T) {
	a := synthetic("A", 1, 200, 2*time.Millisecond)
	b := synthetic("B", 2, 200, 2*time.Millisecond)
	b.Target, b.Environment.ServerVersion = "duckdb", "1.2"
	cases := []struct {
		name  string
		other *summary.Summary
		want  []string
	}{
		{"differences listed", b, []string{"Differs from A (A -> B):", "target", "sqlite -> duckdb", "server version"}},
		{"none", a, []string{"Settings: the same as A's."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Compare(a, []*summary.Summary{c.other}, 0).WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			table := strings.Index(out, "Operation")
			for _, w := range c.want {
				if i := strings.Index(out, w); i < 0 || i > table {
					t.Errorf("%q not before the table:\n%s", w, out)
				}
			}
		})
	}
}

// Each run's line says how its query answers checked out; a run without
// checks says nothing of them.
func TestWriteTextQueryAnswers(t *testing.T) {
	a := synthetic("A", 1, 200, 2*time.Millisecond)
	b := synthetic("B", 2, 200, 2*time.Millisecond)
	b.Verify = &summary.Verify{OK: true, Queries: []summary.QueryCheck{
		{Query: "TIME_RANGE", OK: true}, {Query: "AGG_RANGE", OK: false, Detail: "sum differs"},
		{Query: "LATEST_POINT", Error: "timeout"}}}
	var buf bytes.Buffer
	res := Compare(a, []*summary.Summary{b}, 0)
	if err := res.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "query answers 1 of 3 agree") || strings.Count(out, "query answers") != 1 {
		t.Errorf("answers not said once, for B:\n%s", out)
	}
	if res.Pairs[0].Run.Answers != "1 of 3 agree" || res.Baseline.Answers != "" {
		t.Errorf("JSON answers: baseline %q, B %q", res.Baseline.Answers, res.Pairs[0].Run.Answers)
	}
}
