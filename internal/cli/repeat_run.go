package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/compare"
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

// executeRepeats runs one configuration f.repeat times, each repetition
// from a fresh state where the target gives one (IS_DELETE_DATA: its
// schema dropped and made anew), as runs of one group in the results
// store, then prints each figure's mean, 95 % confidence interval and
// coefficient of variation over them.
func executeRepeats(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stdout, stderr io.Writer) error {
	if f.repeat < 1 {
		return exit.Usagef("--repeat = %d: must be >= 1", f.repeat)
	}
	if t := targetFlag(flags); t != nil && strings.Contains(t.value, ",") {
		return exit.Usagef("--repeat %d with --target %s: repeat one target at a time (a run of several targets "+
			"compares them once; repeat each and compare the groups with 'tsbench compare')", f.repeat, t.value)
	}
	cfg, err := loadConfig(cmd, f, flags, stderr)
	if err != nil {
		return err
	}
	if err := scenarioOnlyFlags(cmd, cfg, "repeat"); err != nil {
		return err
	}
	if len(cfg.FindMax) > 0 {
		return exit.Usagef("--repeat %d with FIND_MAX (--find-max): a search already runs many steps; repeat the search by running it again", f.repeat)
	}
	if !cfg.DeleteData {
		fmt.Fprintln(stderr, "tsbench: warning: IS_DELETE_DATA = false: each repetition starts on what the one before left, not from a fresh state")
	}
	out := f.runOutputs
	out.serverCores = f.serverCores
	group := summary.RepeatGroupPrefix + newRunID()
	runs, worst, ok := runInTurn(stdout, f.repeat, func(i int) string {
		return fmt.Sprintf("repetition %d of %d", i+1, f.repeat)
	}, func(i int) (*summary.Summary, error) {
		c := *cfg
		c.JSONPath = perRepetition(cfg.JSONPath, i+1)
		out.repeat = &summary.Repeat{Group: group, Index: i + 1, Of: f.repeat}
		return runBenchmark(&c, "", out, stdout, stderr)
	})
	if !ok {
		return worst
	}
	spreads := compare.Repetitions(runs)
	fmt.Fprintln(stdout)
	if err := compare.WriteRepetitions(stdout, group, len(runs), spreads); err != nil {
		return worse(worst, exit.With(exit.Failure, err))
	}
	if cfg.JSONPath != "" {
		if err := writeRepetitionsJSON(cfg.JSONPath, group, runs, spreads); err != nil {
			return worse(worst, exit.With(exit.Usage, fmt.Errorf("--json %s: %w", cfg.JSONPath, err)))
		}
	}
	return worst
}

// perRepetition is --json's path for repetition i: out.json becomes
// out-r1.json, ...; out.json itself holds the figures over them.
func perRepetition(path string, i int) string { return perTarget(path, fmt.Sprintf("r%d", i)) }

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
