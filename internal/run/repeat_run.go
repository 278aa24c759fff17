package run

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/summary"
)

// repetitionsJSON is what --json holds after --repeat N: the figures over
// the repetitions; each repetition's own summary is beside it
// (out-r1.json, out-r2.json, ...).
type repetitionsJSON struct {
	Group       string           `json:"group"`
	Repetitions int              `json:"repetitions"`
	RunIDs      []string         `json:"run_ids"`
	Confidence  float64          `json:"confidence"`
	MaxCV       float64          `json:"max_cv"`
	Figures     []compare.Spread `json:"figures"`
}

// perRepetition is --json's path for repetition i: out.json becomes
// out-r1.json, ...; out.json itself holds the figures over them.
func perRepetition(path string, i int) string { return PerTarget(path, fmt.Sprintf("r%d", i)) }

func writeRepetitionsJSON(path, group string, runs []*summary.Summary, spreads []compare.Spread) error {
	doc := repetitionsJSON{Group: group, Repetitions: len(runs), Confidence: compare.Confidence, MaxCV: compare.MaxCV, Figures: spreads}
	for _, s := range runs {
		doc.RunIDs = append(doc.RunIDs, s.RunID)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Repeats runs cfg n times, each repetition from a fresh state where the
// target gives one (IS_DELETE_DATA: its schema dropped and made anew), as
// runs of one group in the results store, then prints each figure's mean,
// 95 % confidence interval and coefficient of variation over them.
func Repeats(cfg *config.Config, n int, out Outputs, stdout, stderr io.Writer) error {
	if !cfg.DeleteData {
		fmt.Fprintln(stderr, "tsbench: warning: IS_DELETE_DATA = false: each repetition starts on what the one before left, not from a fresh state")
	}
	group := summary.RepeatGroupPrefix + NewID()
	runs, worst, ok := runInTurn(stdout, n, func(i int) string {
		return fmt.Sprintf("repetition %d of %d", i+1, n)
	}, func(i int) (*summary.Summary, error) {
		c := *cfg
		c.JSONPath = perRepetition(cfg.JSONPath, i+1)
		out.Repeat = &summary.Repeat{Group: group, Index: i + 1, Of: n}
		return Benchmark(&c, "", out, stdout, stderr)
	})
	if !ok {
		return worst
	}
	spreads := compare.Repetitions(runs)
	fmt.Fprintln(stdout)
	if err := compare.WriteRepetitions(stdout, group, len(runs), spreads); err != nil {
		return Worse(worst, exit.With(exit.Failure, err))
	}
	if cfg.JSONPath != "" {
		if err := writeRepetitionsJSON(cfg.JSONPath, group, runs, spreads); err != nil {
			return Worse(worst, exit.With(exit.Usage, fmt.Errorf("--json %s: %w", cfg.JSONPath, err)))
		}
	}
	return worst
}
