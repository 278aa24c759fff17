package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/htmlreport"
	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
)

// targetsVerdict is the outcome of the runs on several targets, as the
// report's first line says it: the exit status and what decided it.
func targetsVerdict(runs []*summary.Summary, answers report.Answers, worst error) *htmlreport.Verdict {
	v := &htmlreport.Verdict{Answers: answers.Lines}
	var ee *exit.Error
	code := exit.OK
	if errors.As(worst, &ee) {
		code = ee.Code
	}
	var why []string
	if n := answers.Disagreements(); n > 0 {
		why = append(why, fmt.Sprintf("the targets' answers DISAGREE: %d of %d query-target pairs differ from %s's",
			n, len(answers.Comparisons), runs[0].Target))
	}
	for _, s := range runs {
		if st := s.Status(); st != summary.StatusOK {
			why = append(why, fmt.Sprintf("%s's run: %s", s.Target, st))
		}
	}
	switch {
	case code != exit.OK || len(why) > 0:
		v.Bad = true
		v.Headline = fmt.Sprintf("Exit status %d: %s", code, strings.Join(why, "; "))
	case len(answers.Comparisons) > 0:
		agree, design := 0, 0
		for _, c := range answers.Comparisons {
			switch {
			case c.Agree():
				agree++
			case c.Differ > 0 && c.Skipped == "":
				design++ // not a disagreement (none above): a known difference
			}
		}
		v.Headline = answersHeadline(len(answers.Comparisons), agree, design, runs[0].Target)
	default:
		v.Headline = "ok: every target's run passed its checks"
	}
	return v
}

// targetsJSON is --json's record of a comparison of several targets (each
// run's own summary goes to out-<target>.json): the verdict and every
// comparison of answers, with each target's value named.
type targetsJSON struct {
	Targets     []string              `json:"targets"`
	RunIDs      []string              `json:"run_ids"`
	Verdict     string                `json:"verdict"`
	OK          bool                  `json:"ok"`
	Comparisons []ownquery.Comparison `json:"answer_comparisons,omitempty"`
	Lines       []string              `json:"answer_lines,omitempty"`
}

func writeTargetsJSON(path string, runs []*summary.Summary, answers report.Answers, v *htmlreport.Verdict) error {
	doc := targetsJSON{Verdict: v.Headline, OK: !v.Bad, Comparisons: answers.Comparisons, Lines: answers.Lines}
	for _, s := range runs {
		doc.Targets = append(doc.Targets, s.Target)
		doc.RunIDs = append(doc.RunIDs, s.RunID)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// runInTurn makes the n runs of --target's targets or --repeat's
// repetitions one after the other, each headed by a banner with title(i),
// and stops after an interrupted one. It returns the runs made and the
// worst of their outcomes; ok is false when a run made no summary at all,
// which ends the series with nothing to compare (worst is then the error).
func runInTurn(stdout io.Writer, n int, title func(i int) string, runOne func(i int) (*summary.Summary, error)) (runs []*summary.Summary, worst error, ok bool) {
	for i := 0; i < n; i++ {
		fmt.Fprintf(stdout, "==================== %s ====================\n", title(i))
		s, err := runOne(i)
		if s == nil {
			return runs, Worse(worst, err), false
		}
		worst = Worse(Worse(worst, err), Outcome(s))
		runs = append(runs, s)
		if s.Interrupted {
			break
		}
	}
	return runs, worst, true
}

// PerTarget is --json's path for one target of several: out.json becomes
// out-postgres.json, so that no run's summary overwrites another's.
func PerTarget(path, target string) string {
	if path == "" {
		return ""
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-" + target + ext
}

// writeTargetsReport writes the runs as one HTML report, the first target
// the baseline, beside the runs in the data directory.
func writeTargetsReport(runs []*summary.Summary, cfg *config.Config, verdict *htmlreport.Verdict) (string, error) {
	var buf bytes.Buffer
	title := "tsbench: " + runs[0].Target
	for _, s := range runs[1:] {
		title += " vs " + s.Target
	}
	if err := htmlreport.Write(&buf, runs, htmlreport.Options{Title: title, Verdict: verdict}); err != nil {
		return "", err
	}
	dir := filepath.Join(datadir.Or(cfg.DataDir), "reports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "targets-"+runs[0].RunID+".html")
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}

// Targets runs cfgs, one configuration per target of names, in turn,
// then prints them side by side, compares the answers of the own queries
// with the first target's, writes one HTML report of all the runs and,
// when combinedJSON names a file, the comparison there.
func Targets(names []string, cfgs []*config.Config, combinedJSON string, out Outputs, stdout, stderr io.Writer) error {
	runs, worst, ok := runInTurn(stdout, len(cfgs), func(i int) string {
		return fmt.Sprintf("%s (%d of %d)", names[i], i+1, len(names))
	}, func(i int) (*summary.Summary, error) {
		return Benchmark(cfgs[i], "", out, stdout, stderr)
	})
	if !ok {
		return worst
	}
	answers, err := report.Targets(stdout, runs)
	if err != nil {
		return err
	}
	if answers.Disagreements() > 0 {
		worst = Worse(worst, exit.With(exit.Verify, nil))
	}
	verdict := targetsVerdict(runs, answers, worst)
	fmt.Fprintf(stdout, "Verdict: %s\n", verdict.Headline)
	if path, err := writeTargetsReport(runs, cfgs[0], verdict); err != nil {
		fmt.Fprintf(stderr, "tsbench: warning: the report of the targets side by side: %v\n", err)
	} else {
		fmt.Fprintf(stdout, "Report: %s\n", path)
	}
	if combinedJSON != "" {
		if err := writeTargetsJSON(combinedJSON, runs, answers, verdict); err != nil {
			return Worse(worst, exit.With(exit.Usage, fmt.Errorf("--json %s: %w", combinedJSON, err)))
		}
	}
	return worst
}

// answersHeadline is the verdict of runs that passed their checks, of n
// query-target pairs: agree of them agree with the reference's answers,
// design differ by a known difference of the engines, the rest were not
// compared.
func answersHeadline(n, agree, design int, reference string) string {
	if agree == n {
		return fmt.Sprintf("ok: every target's run passed its checks, and the answers of all %d query-target pairs agree with %s's", n, reference)
	}
	h := fmt.Sprintf("ok: every target's run passed its checks; the answers of %d of %d query-target pairs agree with %s's", agree, n, reference)
	if design > 0 {
		h += fmt.Sprintf(", %d differ by design (a known difference of their engines)", design)
	}
	if agree+design < n {
		h += ", the others were not compared"
	}
	return h
}
