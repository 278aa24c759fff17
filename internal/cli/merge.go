package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/merge"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/run"
	"github.com/tsbench/tsbench/internal/summary"
)

type mergeFlags struct {
	storeFlags
	group   string
	workers int
	verify  bool
	json    string
}

func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var f mergeFlags
	cmd := &cobra.Command{
		Use:   "merge [RUN|FILE ...]",
		Short: "Add the runs of a scaled-out run's workers up into one run",
		Long: `Merge the runs of the workers of one scaled-out run (tsbench run --workers N
--worker-index I --group G) into one run: counts are sums, latency
percentiles come from the workers' HDR histograms added together (never
from averaged percentiles), and the per-second series are aligned by
wall-clock second. The merged run is stored, listed, reported and compared
like any other.

Name the runs by --group (every worker's run in the results store) or give
them as run ids or summary JSON files. A worker with no finished run makes
the merged run incomplete, naming its index: exit status 1.

Verification counts the server once, over every merged worker's devices
(the database password comes from $TSBENCH_PASSWORD); --verify=false sums
the workers' own counts instead.

Exit status: 0 merged and complete; 1 incomplete, or operations failed;
2 bad input (runs of different groups, an index twice); 3 verification
mismatch.`,
		Example: `  tsbench merge --group nightly-42 --results postgres://tsbench@db:5432/results
  tsbench merge w0/summary.json w1/summary.json w2/summary.json --results off`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if (f.group == "") == (len(args) == 0) {
				return exit.Usagef("merge: name the workers' runs either by --group NAME or as RUN|FILE arguments")
			}
			return runMerge(cmd.Context(), &f, args, stdout, stderr)
		},
	}
	f.storeFlags.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.group, "group", "", "merge every worker's run of this group (RUN_GROUP) in the results store")
	fl.IntVar(&f.workers, "workers", 0, "the group's size, when the runs cannot tell (default: as the workers were started)")
	fl.BoolVar(&f.verify, "verify", true, "count the stored points once on the server over all workers' devices")
	fl.StringVar(&f.json, "json", "", "also write the merged summary to this file")
	return cmd
}

func runMerge(ctx context.Context, f *mergeFlags, args []string, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if f.workers < 0 {
		return exit.Usagef("--workers = %d: want the group's size, at least 1", f.workers)
	}
	runs, registered, n, err := f.load(ctx, args)
	if err != nil {
		return err
	}
	if f.workers > 0 {
		n = f.workers
	}
	m, err := merge.Runs(runs, merge.Options{Workers: n, Registered: registered})
	if errors.Is(err, merge.ErrInput) {
		return exit.With(exit.Usage, err)
	}
	if err != nil {
		return exit.With(exit.Failure, err)
	}
	m.RunID = run.NewID()
	cfg, cfgErr := config.FromMap(m.Config, "run "+m.Merge.Runs[0].RunID+" configuration")
	if f.verify && m.Verify != nil && m.Verify.Skipped == "" {
		switch {
		case cfgErr == nil && cfg.Workload == config.WorkloadPrometheus:
			// Each worker counted the series of its own targets (their
			// instance labels): the sum is the count over every target.
			m.Verify.Method = "sum of the workers' own counts, each over its own targets' series"
		case cfgErr != nil:
			fmt.Fprintf(stderr, "tsbench: warning: cannot count on the server (%v); verification sums the workers' counts\n", cfgErr)
		default:
			if pw := os.Getenv(passwordEnv); pw != "" {
				cfg.Password = pw
			}
			if err := merge.CountOnce(ctx, cfg, runs, m); err != nil {
				fmt.Fprintf(stderr, "tsbench: warning: %v; verification sums the workers' counts\n", err)
			}
		}
	}
	if cfgErr == nil {
		results.Evaluate(m, cfg)
	}
	return f.finish(ctx, m, stdout, stderr)
}

// load reads the runs to merge: the group's from the store (with the
// barrier's registrations, which know workers that left no run), or the
// named ones.
func (f *mergeFlags) load(ctx context.Context, args []string) (runs []*summary.Summary, registered []int, n int, err error) {
	if f.group == "" {
		runs, err = f.loadRuns(ctx, args)
		return runs, nil, 0, err
	}
	st, err := f.open(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	defer st.Close()
	g, err := st.LoadGroup(ctx, f.group)
	if err != nil {
		return nil, nil, 0, exit.With(exit.Failure, err)
	}
	return g.Runs, g.Registered, g.Workers, nil
}

// finish saves the merged run (run directory, --json, the store) and
// prints it; its status is the exit status.
func (f *mergeFlags) finish(ctx context.Context, m *summary.Summary, stdout, stderr io.Writer) error {
	dataDir := f.dataDir
	if dataDir == "" {
		dataDir = datadir.Default()
	}
	m.ResultsDir = filepath.Join(dataDir, "runs", m.RunID)
	var saved []string
	if err := report.WriteJSON(filepath.Join(m.ResultsDir, "summary.json"), m); err != nil {
		fmt.Fprintf(stderr, "tsbench: could not save the merged run in %s: %v\n", m.ResultsDir, err)
	} else {
		saved = append(saved, "Results: "+m.ResultsDir)
	}
	if f.json != "" {
		if err := report.WriteJSON(f.json, m); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write %s: %v\n", f.json, err)
		}
	}
	if spec, _, off := results.Spec(f.results, f.dataDir); !off {
		if st, err := f.open(ctx); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not store the merged run: %v\n", err)
		} else {
			if err := st.Save(ctx, m); err != nil {
				fmt.Fprintf(stderr, "tsbench: could not store the merged run: %v\n", err)
			} else {
				saved = append(saved, fmt.Sprintf("Stored: run %s in %s (tsbench report %s%s)", m.RunID, st.Location(), m.RunID,
					results.FlagText(spec, st.Location())))
			}
			st.Close()
		}
	}
	if err := report.Console(stdout, m); err != nil {
		return exit.With(exit.Failure, err)
	}
	report.Thresholds(stdout, m.Thresholds)
	for _, line := range saved {
		fmt.Fprintln(stdout, line)
	}
	if !m.Merge.Complete() {
		fmt.Fprintf(stderr, "tsbench: merged run %s is incomplete: worker(s) %v missing\n", m.RunID, m.Merge.Missing)
	}
	return run.Outcome(m)
}
