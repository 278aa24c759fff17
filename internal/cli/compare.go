package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
)

// ExitWorse is the status of 'compare --fail-on worse' when a figure is
// significantly worse than the baseline's: the same as a failed
// --threshold, so that CI treats both as "the numbers regressed".
const ExitWorse = ExitThreshold

// failOnValues are what --fail-on accepts.
var failOnValues = []string{"none", "worse"}

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var sf storeFlags
	var asJSON, asMarkdown bool
	var alpha float64
	var failOn string
	cmd := &cobra.Command{
		Use:   "compare A B [C...]",
		Short: "Compare runs with a baseline: throughput and latency per operation, with significance",
		Long: `Compare runs with the first (the baseline): per operation, throughput and the
p50, p99 and max latency of each run beside the baseline's, with their ratio.

A difference is marked significant (*) only when it exceeds the runs' own
spread: the per-second values of both runs (throughput: points/s for writes,
queries/s for queries; and the p50 and p99 of each second) are compared with
Welch's t-test, each run's seconds counted as
their effective number given their lag-1 autocorrelation (a slow compaction
spans several seconds, which are then worth fewer independent values), and
the p-values are adjusted for the number of figures compared (Holm), so a
table of many figures does not flag chance.

A run made with --repeat N stands for all N repetitions: then each figure's
whole-run values (one per repetition) are compared between the two groups
with Welch's t-test, since what misleads is the spread from one run to the
next, which the seconds of a single run cannot show. Each figure says which
test decided (--json: "test"). The maximum is one extreme value with no spread: it is
shown, never tested. When either run has fewer than 5 effective seconds the
verdict is "too short to tell", without a p-value: run longer (--duration 60s).

Before each table, the settings in which the run differs from the baseline:
target, server version, host, tsbench version and configuration keys.

Exit status: 0, or with --fail-on worse 99 when any figure is significantly
worse than the baseline's (figures too short to tell never fail); 2 bad input.

Runs are named as for 'tsbench report': ids, unique prefixes, latest,
latest~N, or summary JSON files.`,
		Example: `  tsbench compare latest~1 latest
  tsbench compare 20260301-120000 20260302-093000 --json
  tsbench compare base.json new.json --alpha 0.01
  tsbench compare main.json pr.json --markdown --fail-on worse   # in CI, for the pull request`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if alpha <= 0 || alpha >= 1 {
				return exit.Usagef("--alpha %v: must be between 0 and 1, e.g. 0.05", alpha)
			}
			if !slices.Contains(failOnValues, failOn) {
				return exit.Usagef("--fail-on %q: unknown value; allowed: %s", failOn, strings.Join(failOnValues, ", "))
			}
			runs, err := sf.loadRuns(context.Background(), args)
			if err != nil {
				return err
			}
			groups, err := sf.repetitions(runs)
			if err != nil {
				return err
			}
			res := compare.CompareRepeated(groups[0], groups[1:], alpha)
			if err := writeComparison(stdout, res, asJSON, asMarkdown); err != nil {
				return fmt.Errorf("write the comparison: %w", err)
			}
			if failOn == "worse" {
				return failOnWorse(cmd.ErrOrStderr(), res)
			}
			return nil
		},
	}
	sf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON")
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print the comparison as GitHub-flavoured Markdown tables, for a pull request")
	cmd.MarkFlagsMutuallyExclusive("json", "markdown")
	cmd.Flags().Float64Var(&alpha, "alpha", compare.DefaultAlpha, "significance level")
	cmd.Flags().StringVar(&failOn, "fail-on", "none", "exit 99 when: worse (any figure significantly worse than the baseline's), none")
	return cmd
}

func writeComparison(w io.Writer, res compare.Result, asJSON, asMarkdown bool) error {
	switch {
	case asJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	case asMarkdown:
		return res.WriteMarkdown(w)
	}
	return res.WriteText(w)
}

// failOnWorse fails with ExitWorse when a figure is significantly worse. A
// gate that passes only because the runs were too short to tell would give
// false comfort, so that is said on stderr, though it does not fail.
func failOnWorse(stderr io.Writer, res compare.Result) error {
	if short := res.Count(compare.VerdictTooShort); short > 0 {
		fmt.Fprintf(stderr, "tsbench: compare: %d figure(s) too short to tell (fewer than %d effective seconds): "+
			"--fail-on worse cannot catch a regression in them; run longer\n", short, compare.MinEffectiveSeconds)
	}
	worse := res.Figures(compare.VerdictWorse)
	if len(worse) == 0 {
		return nil
	}
	return exit.With(ExitWorse, fmt.Errorf("compare --fail-on worse: %d figure(s) significantly worse than the baseline: %s",
		len(worse), strings.Join(worse, ", ")))
}

// repetitions expands each run made with --repeat into its group's runs,
// read from the results store in the order they ran; any other run stands
// alone.
func (sf *storeFlags) repetitions(runs []*summary.Summary) ([][]*summary.Summary, error) {
	groups := make([][]*summary.Summary, len(runs))
	for i, s := range runs {
		groups[i] = []*summary.Summary{s}
		if s.Repeat == nil || s.Repeat.Of < 2 {
			continue
		}
		err := sf.withStore(func(ctx context.Context, st *results.Store) error {
			infos, err := st.List(ctx, results.Filter{Group: s.Repeat.Group})
			if err != nil {
				return err
			}
			var members []*summary.Summary
			for j := len(infos) - 1; j >= 0; j-- { // List is newest first
				m, err := st.Get(ctx, infos[j].ID)
				if err != nil {
					return err
				}
				members = append(members, m)
			}
			if len(members) > 0 {
				groups[i] = members
			}
			return nil
		})
		if err != nil {
			return nil, storeError(fmt.Errorf("the repetitions of run %s (group %s): %w", s.RunID, s.Repeat.Group, err))
		}
	}
	return groups, nil
}
