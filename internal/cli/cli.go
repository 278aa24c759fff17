// Package cli is tsbench's command line: run, scenarios, targets, version.
// It turns flags and files into a configuration, hands the run to the runner
// and the result to the report writers, and maps outcomes to exit statuses.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tsbench/tsbench/internal/config"
)

// Exit statuses. They are part of the interface: CI pipelines depend on them.
const (
	ExitOK          = 0
	ExitFailure     = 1   // the run could not complete, or operations failed
	ExitUsage       = 2   // bad input: flag, key or value
	ExitVerify      = 3   // stored points differ from acknowledged points
	ExitThreshold   = 99  // a --threshold failed (k6's status for the same)
	ExitInterrupted = 130 // stopped by SIGINT/SIGTERM; results were still saved
)

// Version is set at build time with -ldflags "-X .../cli.Version=...".
var Version = "0.1.0-dev"

// exitError carries an exit status through cobra; err is printed unless nil
// (when the report already said why).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &exitError{ExitUsage, fmt.Errorf(format, args...)}
}

// Main runs the command line and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var cfgErr *config.Error
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		if ee.err != nil {
			fmt.Fprintln(stderr, "tsbench:", ee.err)
		}
		return ee.code
	case errors.As(err, &cfgErr):
		fmt.Fprintln(stderr, "tsbench:", err)
		return ExitUsage
	default:
		// cobra's own errors (unknown flag, bad flag value, unknown command)
		// are usage errors too.
		fmt.Fprintln(stderr, "tsbench:", err)
		fmt.Fprintln(stderr, "Run 'tsbench --help' for usage.")
		return ExitUsage
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "tsbench",
		Short: "Benchmark time-series and event databases with numbers you can check",
		Long: `tsbench generates IoT, monitoring and event workloads, drives them against
real databases with many clients (closed loop or at a fixed rate), and
measures throughput and latency with HDR histograms. It reads IoT-benchmark's
config.properties and prints the same Result and Latency matrices, and it
verifies what the database stored.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		CompletionOptions: cobra.CompletionOptions{
			DisableDefaultCmd: true,
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRunCmd(stdout, stderr), newScenariosCmd(stdout), newTargetsCmd(stdout), newKeysCmd(stdout), newVersionCmd(stdout))
	root.AddCommand(newRunsCmd(stdout, stderr), newReportCmd(stdout, stderr), newCompareCmd(stdout), newMonitorCmd(stdout, stderr))
	return root
}
