package cli

import (
	"context"
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/compare"
)

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var sf storeFlags
	var asJSON bool
	var alpha float64
	cmd := &cobra.Command{
		Use:   "compare A B [C...]",
		Short: "Compare runs with a baseline: throughput and latency per operation, with significance",
		Long: `Compare runs with the first (the baseline): per operation, throughput and the
p50, p99 and max latency of each run beside the baseline's, with their ratio.

A difference is marked significant (*) only when it exceeds the runs' own
spread: the per-second values of both runs (points/s, and the p50 and p99 of
each second) are compared with Welch's t-test, each run's seconds counted as
their effective number given their lag-1 autocorrelation (a slow compaction
spans several seconds, which are then worth fewer independent values), and
the p-values are adjusted for the number of figures compared (Holm), so a
table of many figures does not flag chance. The maximum is one extreme value with no spread: it is
shown, never tested. Runs of one or two seconds cannot be tested; run longer
(--duration 30s) for a verdict.

Runs are named as for 'tsbench report': ids, unique prefixes, latest,
latest~N, or summary JSON files.`,
		Example: `  tsbench compare latest~1 latest
  tsbench compare 20260301-120000 20260302-093000 --json
  tsbench compare base.json new.json --alpha 0.01`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if alpha <= 0 || alpha >= 1 {
				return usageError("--alpha %v: must be between 0 and 1, e.g. 0.05", alpha)
			}
			runs, err := sf.loadRuns(context.Background(), args)
			if err != nil {
				return err
			}
			res := compare.Compare(runs[0], runs[1:], alpha)
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			return res.WriteText(stdout)
		},
	}
	sf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON")
	cmd.Flags().Float64Var(&alpha, "alpha", compare.DefaultAlpha, "significance level")
	return cmd
}
