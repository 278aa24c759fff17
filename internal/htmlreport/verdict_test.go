package htmlreport

import (
	"bytes"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// top is what the page shows before its table of runs, unescaped.
func top(t *testing.T, runs []*summary.Summary, v *Verdict) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, runs, Options{Generated: time.Unix(0, 0), Verdict: v}); err != nil {
		t.Fatal(err)
	}
	before, _, ok := strings.Cut(buf.String(), `<h2 id="runs">`)
	if !ok {
		t.Fatal("no table of runs")
	}
	return html.UnescapeString(before)
}

// The page opens with the verdict: the command's own when it gives one (a
// comparison whose answers disagreed, with the console's lines), else one
// read from the runs' statuses; then each run's console verdict lines.
func TestTheReportOpensWithTheVerdict(t *testing.T) {
	runs := twoRuns() // A failed a threshold; B is ok
	got := top(t, runs, nil)
	for _, want := range []string{
		`class="verdict bad">Not ok: run A (`, "): threshold-failed</p>",
		`<pre class="verdicts" id="verdicts-A">`, "  FAILED  errors==0 (actual 12)", "  passed  INGESTION.p99<50ms (actual 4.2)",
		`id="verdicts-B">Verify: `,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q at the top of the page:\n%s", want, got)
		}
	}
	if strings.Contains(got, "run B") {
		t.Errorf("run B, which is ok, named as not ok:\n%s", got)
	}

	given := &Verdict{Headline: "Exit status 3: the targets' answers DISAGREE: 1 of 2 query-target pairs differ from sqlite's", Bad: true,
		Answers: []string{"Answers of own queries: 1 of 2 query-target pairs agree with sqlite",
			"  DISAGREE  off_by_one on duckdb: 5 of 5 parameter sets answered differently, e.g. n=45; sqlite: 46, duckdb: 47"}}
	runs[0].Thresholds = nil // every run ok: the answers alone decided
	got = top(t, runs, given)
	for _, want := range []string{`class="verdict bad">` + given.Headline + "</p>",
		"<pre id=\"verdict-answers\" class=\"verdicts\">" + given.Answers[0] + "\n" + given.Answers[1] + "\n</pre>"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q at the top of the page:\n%s", want, got)
		}
	}

	one := twoRuns()[1:]
	if got := top(t, one, nil); !strings.Contains(got, `class="verdict ok">ok: the run measured, and every check it made passed`) {
		t.Errorf("one ok run:\n%s", got)
	}
}
