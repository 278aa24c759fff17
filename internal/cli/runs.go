package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/since"
	"github.com/tsbench/tsbench/internal/summary"
)

// resultsEnv names the environment variable that gives the default
// results store (a path or a postgres:// or mysql:// URL; a password is
// better kept here than on a command line).
const resultsEnv = "TSBENCH_RESULTS"

// storeFlags are the flags of the commands that read the results store.
type storeFlags struct {
	results string
	dataDir string
}

func (sf *storeFlags) register(cmd *cobra.Command) {
	cmd.PersistentFlags().StringVar(&sf.results, "results", "",
		"results store: an SQLite file or postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT/DB (default $"+resultsEnv+", else <data-dir>/results.db)")
	cmd.PersistentFlags().StringVar(&sf.dataDir, "data-dir", "", "data directory whose results.db is the default store")
}

// resultsSpec resolves the store to use: the flag, else $TSBENCH_RESULTS,
// else <dataDir>/results.db. off reports that storing is turned off.
func resultsSpec(flag, dataDir string) (spec, def string, off bool) {
	spec = flag
	if spec == "" {
		spec = os.Getenv(resultsEnv)
	}
	if dataDir == "" {
		dataDir = datadir.Default()
	}
	switch strings.ToLower(strings.TrimSpace(spec)) {
	case "off", "none", "false", "no":
		return "", "", true
	}
	return spec, filepath.Join(dataDir, "results.db"), false
}

// location is the store the flags name; it is a usage error when storing
// is turned off or the spec is malformed.
func (sf *storeFlags) location() (results.Location, error) {
	spec, def, off := resultsSpec(sf.results, sf.dataDir)
	if off {
		return results.Location{}, usageError("--results %s: this command needs a results store", sf.results)
	}
	loc, err := results.ParseLocation(spec, def)
	if err != nil {
		return results.Location{}, usageError("--results: %v", err)
	}
	return loc, nil
}

// open opens an existing store: a default SQLite file that is not there
// yet means no run was ever stored, which is said plainly.
func (sf *storeFlags) open(ctx context.Context) (*results.Store, error) {
	loc, err := sf.location()
	if err != nil {
		return nil, err
	}
	if loc.Dialect == "sqlite" {
		if _, err := os.Stat(loc.Path); errors.Is(err, os.ErrNotExist) {
			return nil, &exitError{ExitFailure, fmt.Errorf("no results store at %s: run 'tsbench run' first, or name one with --results", loc)}
		}
	}
	return sf.openOrCreate(ctx, loc)
}

// openOrCreate opens the store at loc, making its tables when missing.
func (sf *storeFlags) openOrCreate(ctx context.Context, loc results.Location) (*results.Store, error) {
	ctx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
	defer cancel()
	st, err := results.Open(ctx, loc)
	if err != nil {
		return nil, &exitError{ExitFailure, err}
	}
	return st, nil
}

// loadRuns reads runs named by id (anything results.Store.Resolve takes) or
// by the path of a summary JSON file (summary.json, --json output).
func (sf *storeFlags) loadRuns(ctx context.Context, refs []string) ([]*summary.Summary, error) {
	var out []*summary.Summary
	var st *results.Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	for _, ref := range refs {
		if looksLikeFile(ref) {
			s, err := readSummaryFile(ref)
			if err != nil {
				return nil, &exitError{ExitUsage, err}
			}
			out = append(out, s)
			continue
		}
		if st == nil {
			var err error
			if st, err = sf.open(ctx); err != nil {
				return nil, err
			}
		}
		s, err := st.Get(ctx, ref)
		if err != nil {
			if errors.Is(err, results.ErrNotFound) {
				return nil, &exitError{ExitUsage, err}
			}
			return nil, &exitError{ExitFailure, err}
		}
		if len(s.Operations) == 0 {
			// A run that never finished (still running, or killed) is
			// known by the seconds it stored as it went.
			s.Operations = metrics.FromIntervals(s.Intervals)
		}
		out = append(out, s)
	}
	return out, nil
}

func looksLikeFile(ref string) bool {
	if !strings.HasSuffix(strings.ToLower(ref), ".json") && !strings.ContainsRune(ref, os.PathSeparator) {
		return false
	}
	st, err := os.Stat(ref)
	return err == nil && !st.IsDir()
}

func readSummaryFile(path string) (*summary.Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s summary.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: not a tsbench summary: %v", path, err)
	}
	if s.RunID == "" || s.SchemaVersion == 0 {
		return nil, fmt.Errorf("%s: not a tsbench summary (no run_id or schema_version)", path)
	}
	return &s, nil
}

// resultsFlagText repeats a --results given on the command line, without
// its password, for a suggested command.
func resultsFlagText(flag string, loc results.Location) string {
	if flag == "" {
		return ""
	}
	return " --results '" + loc.String() + "'"
}

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
				t, err := since.Parse(sinceArg, time.Now())
				if err != nil {
					return usageError("--since %q: %v", sinceArg, err)
				}
				f.Since = t
			}
			if f.Limit < 0 {
				return usageError("--limit %d: must be >= 0", f.Limit)
			}
			if err := checkStatus(f.Status); err != nil {
				return err
			}
			ctx := context.Background()
			st, err := sf.open(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			runs, err := st.List(ctx, f)
			if err != nil {
				return &exitError{ExitFailure, err}
			}
			if asJSON {
				return writeJSONList(stdout, runs)
			}
			return printRunList(stdout, runs, st.Location())
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
	if v == "" {
		return nil
	}
	for _, s := range runStatuses {
		if v == s {
			return nil
		}
	}
	hint := ""
	if s := config.Closest(v, runStatuses); s != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return usageError("--status %q: unknown status%s; allowed: %s", v, hint, strings.Join(runStatuses, ", "))
}

// writeJSONList prints items as indented JSON: an empty list as [], not
// null, so that scripts can always iterate it.
func writeJSONList[T any](w io.Writer, items []T) error {
	if items == nil {
		items = []T{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(items)
}

func printRunList(w io.Writer, runs []results.RunInfo, loc results.Location) error {
	if len(runs) == 0 {
		_, err := fmt.Fprintf(w, "No runs in %s.\n", loc)
		return err
	}
	grouped := slices.ContainsFunc(runs, func(r results.RunInfo) bool { return r.Group != "" })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "RUN ID\tSTARTED (UTC)\tSCENARIO\tTARGET\tOPERATION\tTHROUGHPUT (points/s)\tP99 (ms)\tSTATUS"
	if grouped {
		header += "\tGROUP"
	}
	fmt.Fprintln(tw, header)
	for _, r := range runs {
		scen := r.Scenario
		if scen == "" {
			scen = "-"
		}
		op := r.Operation
		if op == "" {
			op = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.ID, r.Started.UTC().Format("2006-01-02 15:04:05"), scen, r.Target, op,
			report.GroupThousands(strconv.FormatFloat(r.Throughput, 'f', 2, 64)), strconv.FormatFloat(r.P99MS, 'f', 2, 64), r.Status)
		if grouped {
			fmt.Fprintf(tw, "\t%s", groupCell(r))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d run(s) from %s\n", len(runs), loc)
	return err
}

// groupCell is a run's group: "G worker I" for a worker's run, "G merged"
// for a merge, "-" for a run of its own.
func groupCell(r results.RunInfo) string {
	switch {
	case r.Group == "":
		return "-"
	case r.WorkerIndex == nil:
		return r.Group + " merged"
	}
	return fmt.Sprintf("%s worker %d", r.Group, *r.WorkerIndex)
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
				b, err := json.MarshalIndent(s, "", "  ")
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(stdout, "%s\n", b)
				return err
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
			switch format {
			case "json", "csv", "hdr":
			default:
				return usageError("--format %q: allowed: csv, json, hdr", format)
			}
			runs, err := sf.loadRuns(context.Background(), args)
			if err != nil {
				return err
			}
			s := runs[0]
			switch format {
			case "json":
				if out == "" {
					b, err := json.MarshalIndent(s, "", "  ")
					if err != nil {
						return err
					}
					_, err = fmt.Fprintf(stdout, "%s\n", b)
					return err
				}
				if err := report.WriteJSON(out, s); err != nil {
					return &exitError{ExitFailure, err}
				}
				fmt.Fprintf(stdout, "Wrote %s\n", out)
			case "csv":
				dir := out
				if dir == "" {
					dir = "tsbench-" + s.RunID
				}
				files, err := results.WriteCSV(dir, s)
				if err != nil {
					return &exitError{ExitFailure, err}
				}
				for _, f := range files {
					fmt.Fprintf(stdout, "Wrote %s\n", f)
				}
			case "hdr":
				if out == "" {
					_, err := results.WriteHDRLog(stdout, s)
					return err
				}
				fh, err := os.Create(out)
				if err != nil {
					return &exitError{ExitFailure, err}
				}
				n, err := results.WriteHDRLog(fh, s)
				if cerr := fh.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return &exitError{ExitFailure, err}
				}
				fmt.Fprintf(stdout, "Wrote %s (%d histograms)\n", out, n)
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
				s, err := readSummaryFile(a)
				if err != nil {
					return usageError("%v", err)
				}
				runs = append(runs, s)
			}
			spec, def, off := resultsSpec(sf.results, sf.dataDir)
			if off {
				return usageError("--results %s: import needs a results store", sf.results)
			}
			loc, err := results.ParseLocation(spec, def)
			if err != nil {
				return usageError("--results: %v", err)
			}
			st, err := results.Open(ctx, loc)
			if err != nil {
				return &exitError{ExitFailure, err}
			}
			defer st.Close()
			for _, s := range runs {
				if err := st.Save(ctx, s); err != nil {
					return &exitError{ExitFailure, err}
				}
				fmt.Fprintf(stdout, "Stored: run %s in %s\n", s.RunID, loc)
			}
			return nil
		},
	}
}

func newRunsRmCmd(sf *storeFlags, stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID...",
		Short: "Remove runs from the results store",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sf.removeEach(args, stdout, "run", func(ctx context.Context, st *results.Store, ref string) (string, error) {
				return st.Delete(ctx, ref)
			})
		},
	}
}

// removeEach opens the store and removes what each ref names with remove,
// which returns the id removed; a ref the store does not hold is a usage
// error, and what was removed before it stays removed.
func (sf *storeFlags) removeEach(refs []string, stdout io.Writer, what string,
	remove func(context.Context, *results.Store, string) (string, error)) error {
	ctx := context.Background()
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, ref := range refs {
		id, err := remove(ctx, st, ref)
		if err != nil {
			if errors.Is(err, results.ErrNotFound) {
				return &exitError{ExitUsage, err}
			}
			return &exitError{ExitFailure, err}
		}
		fmt.Fprintf(stdout, "Removed %s %s\n", what, id)
	}
	return nil
}
