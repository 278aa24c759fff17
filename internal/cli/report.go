package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/htmlreport"
	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
)

func newReportCmd(stdout, stderr io.Writer) *cobra.Command {
	var sf storeFlags
	var out, title string
	var monitors []string
	storedMonitors := true
	cmd := &cobra.Command{
		Use:   "report ID [ID...] -o report.html",
		Short: "Write stored runs as one self-contained HTML report with charts",
		Long: `Write one or more runs as a single HTML file that opens offline (the chart
library is inside it). With several runs, the first (A) is the baseline and
the page compares, top to bottom: what differs between the runs (target,
versions, machine, configuration keys), the thresholds with their units, the
comparison table of 'tsbench compare' (ratio B/A, significance and verdict
for every operation), throughput over time with one chart per operation,
then per operation its matrices with the runs side by side and their ratio,
its latency over time and its latency percentile spectrum from the HDR
histograms; then resource use of the tool, the host and the database server
over time, the published-vs-measured table of seed scenarios, and the full
configuration and environment. A single run gets the same page without the
comparison.

A run is named by its id (or a unique prefix, latest, latest~1, ...) in the
results store, or by the path of its summary JSON file. Resource samples
that 'tsbench monitor' took on the database host are merged into each run by
time: those of every monitor session in the results store ('tsbench monitor
--store') that overlaps the run, and those of each --monitor file.`,
		Example: `  tsbench report latest -o report.html
  tsbench report latest~1 latest -o before-after.html
  tsbench report 20260301-120000 --monitor db-host.jsonl -o report.html
  tsbench report ~/.local/share/tsbench/runs/20260301-120000-ab12cd/summary.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			runs, err := sf.loadRuns(ctx, args)
			if err != nil {
				return err
			}
			if storedMonitors && (results.AnyStored(args) || cmd.Flags().Changed("results")) {
				if err := sf.mergeStoredMonitors(runs, stderr); err != nil {
					return err
				}
			}
			for _, m := range monitors {
				samples, err := monitor.ReadFile(m)
				if err != nil {
					return exit.Usagef("--monitor: %v", err)
				}
				merged := 0
				for _, s := range runs {
					merged += monitor.Merge(s, samples)
				}
				if merged == 0 {
					fmt.Fprintf(stderr, "tsbench: warning: none of the %d samples in %s falls within the runs' measured phases (are the hosts' clocks in step?)\n", len(samples), m)
				}
			}
			var buf bytes.Buffer
			if err := htmlreport.Write(&buf, runs, htmlreport.Options{Title: title}); err != nil {
				return exit.With(exit.Failure, err)
			}
			if dir := filepath.Dir(out); dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return exit.With(exit.Failure, err)
				}
			}
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				return exit.With(exit.Failure, err)
			}
			abs, _ := filepath.Abs(out)
			fmt.Fprintf(stdout, "Report: %s (%d run(s), %d KiB; open it in any browser, no network needed)\n", abs, len(runs), buf.Len()/1024)
			return nil
		},
	}
	sf.register(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&out, "output", "o", "report.html", "the HTML file to write")
	fl.StringVar(&title, "title", "", "page title (default: the run ids)")
	fl.StringArrayVar(&monitors, "monitor", nil, "merge samples from this 'tsbench monitor --out' file (repeatable)")
	fl.BoolVar(&storedMonitors, "stored-monitors", true, "merge the samples of monitor sessions kept in the results store")
	return cmd
}

// mergeStoredMonitors merges into each run the samples of the store's
// monitor sessions taken during its measured phase, and says how many.
func (sf *storeFlags) mergeStoredMonitors(runs []*summary.Summary, stderr io.Writer) error {
	return sf.withStore(func(ctx context.Context, st *results.Store) error {
		for _, s := range runs {
			n, err := monitor.MergeWindow(s, func(from, to time.Time) ([]summary.ResourceSample, error) {
				return st.MonitorSamples(ctx, from, to)
			})
			if err != nil {
				return exit.With(exit.Failure, err)
			}
			if n > 0 {
				fmt.Fprintf(stderr, "tsbench: run %s: merged %d samples of monitor sessions in %s\n", s.RunID, n, st.Location())
			}
		}
		return nil
	})
}
