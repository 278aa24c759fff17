package htmlreport

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// Verdict is what decided the exit status of the command that wrote the
// report, which the page states first: a comparison of several targets
// whose answers disagreed exits 3 though each run's own status is "ok", and
// the page must not read "ok" where the command said otherwise.
type Verdict struct {
	Headline string // the outcome in one line, e.g. "Exit status 3: the targets' answers disagree"
	Bad      bool
	// Answers are the console's lines comparing the targets' answers
	// (report.Answers.Lines), in its words and order.
	Answers []string
}

// verdictView is the top of the page: the headline, the answers compared
// across targets, and each run's status with its own verdict lines.
type verdictView struct {
	Headline string
	Bad      bool
	Answers  []string
}

// buildVerdict is the given verdict, or, for runs reported on their own
// (tsbench report, the live dashboard), one read from their statuses.
func buildVerdict(runs []runView, given *Verdict) verdictView {
	if given != nil {
		return verdictView{Headline: given.Headline, Bad: given.Bad, Answers: given.Answers}
	}
	var bad []string
	for _, r := range runs {
		if r.Status != string(summary.StatusOK) {
			bad = append(bad, fmt.Sprintf("run %s (%s): %s", r.Label, r.Target, r.Status))
		}
	}
	switch {
	case len(bad) > 0:
		return verdictView{Headline: "Not ok: " + strings.Join(bad, "; "), Bad: true}
	case len(runs) == 1:
		return verdictView{Headline: "ok: the run measured, and every check it made passed"}
	}
	return verdictView{Headline: fmt.Sprintf("ok: all %d runs measured, and every check they made passed", len(runs))}
}
