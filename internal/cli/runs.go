package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
)

func newRunsCmd(stdout, stderr io.Writer) *cobra.Command {
	var sf storeFlags
	var f results.Filter
	var sinceArg string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List stored runs; show, export, import or remove one",
		Long: `List the runs kept in the results store, newest first: id, start time,
scenario, target, the headline operation (INGESTION when the run wrote) with
its throughput and p99 latency, and the status (ok, failed, threshold-failed,
verify-failed, interrupted; running while a run is under way, and for a run
whose process was killed: the seconds it measured are kept).

Every 'tsbench run' is stored, interrupted ones too, in <data-dir>/results.db
(SQLite) unless --results names another store: a file, or a PostgreSQL or
MySQL/MariaDB database by URL (the password is never printed or stored; it
may also come from $TSBENCH_RESULTS). A run id may be abbreviated to any
unique prefix, or given as latest, latest~1, ...`,
		Example: `  tsbench runs
  tsbench runs --target postgres --since 7d --limit 5
  tsbench runs show latest
  tsbench runs export latest --format csv -o out/
  tsbench runs export 20260301-120000 --format hdr -o run.hlog
  tsbench runs --results postgres://bench@db.example:5432/results`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if sinceArg != "" {
				t, err := results.ParseSince(sinceArg, time.Now())
				if err != nil {
					return exit.Usagef("--since %q: %v", sinceArg, err)
				}
				f.Since = t
			}
			if f.Limit < 0 {
				return exit.Usagef("--limit %d: must be >= 0", f.Limit)
			}
			if err := checkStatus(f.Status); err != nil {
				return err
			}
			return listStored(&sf, stdout, asJSON, func(ctx context.Context, st *results.Store) ([]results.RunInfo, error) {
				return st.List(ctx, f)
			}, results.PrintRuns)
		},
	}
	sf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.Target, "target", "", "only runs against this target")
	fl.StringVar(&f.Scenario, "scenario", "", "only runs of scenarios starting with this name")
	fl.StringVar(&f.Status, "status", "", "only runs with this status: ok, failed, threshold-failed, verify-failed, interrupted, incomplete, running")
	fl.StringVar(&f.Group, "group", "", "only the runs of this run group (RUN_GROUP): its workers' runs and their merges")
	fl.StringVar(&sinceArg, "since", "", "only runs started since: a duration back (24h, 7d) or a date/time (2026-03-01, RFC 3339)")
	fl.IntVar(&f.Limit, "limit", 20, "at most this many runs, newest first (0 = all)")
	fl.BoolVar(&asJSON, "json", false, "print the list as JSON")
	cmd.AddCommand(newRunsShowCmd(&sf, stdout), newRunsExportCmd(&sf, stdout), newRunsImportCmd(&sf, stdout, stderr), newRunsRmCmd(&sf, stdout))
	return cmd
}

// runStatuses are the values of --status: summary.Summary.Status and the
// results store's "running".
var runStatuses = []string{"ok", "failed", "threshold-failed", "verify-failed", "interrupted", "incomplete", results.StatusRunning}

// checkStatus refuses a --status no run can have: the filter would match
// nothing and say "No runs", hiding the typo.
func checkStatus(v string) error {
	if v == "" || slices.Contains(runStatuses, v) {
		return nil
	}
	hint := ""
	if s := config.Closest(v, runStatuses); s != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return exit.Usagef("--status %q: unknown status%s; allowed: %s", v, hint, strings.Join(runStatuses, ", "))
}

func newRunsShowCmd(sf *storeFlags, stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print a stored run's matrices (as at the end of the run)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			runs, err := sf.loadRuns(context.Background(), args)
			if err != nil {
				return err
			}
			s := runs[0]
			if asJSON {
				return results.ExportJSON(stdout, s)
			}
			scen := ""
			if s.Scenario != "" {
				scen = ", scenario " + s.Scenario
			}
			fmt.Fprintf(stdout, "Run %s: target %s%s, started %s, status %s\n", s.RunID, s.Target, scen,
				s.Started.UTC().Format("2006-01-02 15:04:05 UTC"), s.Status())
			if s.StopReason == "incomplete" {
				fmt.Fprintf(stdout, "Incomplete: the run did not finish (it is still running, or its process ended abruptly); "+
					"below are the %d seconds it stored as it went, latencies from their HDR histograms\n", len(s.Intervals))
			}
			if err := report.Console(stdout, s); err != nil {
				return err
			}
			report.Footer(stdout, s)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the stored summary as JSON instead")
	return cmd
}

func newRunsExportCmd(sf *storeFlags, stdout io.Writer) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Export a stored run as CSV files, JSON, or an HdrHistogram log",
		Long: `Export a stored run.

  --format json  the summary JSON (as summary.json), to -o FILE or standard output
  --format csv   result.csv, latency.csv, intervals.csv and resources.csv into
                 the directory -o DIR (default ./tsbench-<run id>)
  --format hdr   the latency histograms in the HdrHistogram interval log format
                 (one tag per operation; values in microseconds), to -o FILE or
                 standard output`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !results.KnownExportFormat(format) {
				return exit.Usagef("--format %q: allowed: %s", format, strings.Join(results.ExportFormats, ", "))
			}
			runs, err := sf.loadRuns(context.Background(), args)
			if err != nil {
				return err
			}
			if err := results.Export(stdout, runs[0], format, out); err != nil {
				if out != "" {
					// -o is the user's path: one that cannot be written is
					// bad input, named with its flag, as --cpuprofile's is.
					return exit.Usagef("--output %s: %v", out, err)
				}
				return exit.With(exit.Failure, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "json", "csv, json or hdr")
	cmd.Flags().StringVarP(&out, "output", "o", "", "output file (json, hdr) or directory (csv)")
	return cmd
}

func newRunsImportCmd(sf *storeFlags, stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE...",
		Short: "Store runs from their summary JSON files (e.g. runs the store could not take)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			var runs []*summary.Summary
			for _, a := range args {
				s, err := results.ReadSummaryFile(a)
				if err != nil {
					return exit.Usagef("%v", err)
				}
				runs = append(runs, s)
			}
			loc, err := sf.location("import")
			if err != nil {
				return err
			}
			st, err := sf.openOrCreate(ctx, loc)
			if err != nil {
				return err
			}
			defer st.Close()
			for _, s := range runs {
				if err := st.Save(ctx, s); err != nil {
					return exit.With(exit.Failure, err)
				}
				fmt.Fprintf(stdout, "Stored: run %s in %s\n", s.RunID, loc)
			}
			return nil
		},
	}
}

func newRunsRmCmd(sf *storeFlags, stdout io.Writer) *cobra.Command {
	return newRemoveCmd(sf, stdout, "rm ID...", "Remove runs from the results store", "run",
		func(ctx context.Context, st *results.Store, ref string) (string, error) { return st.Delete(ctx, ref) })
}
