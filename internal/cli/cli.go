// Package cli is tsbench's command line: run, scenarios, targets, version.
// It turns flags and files into a configuration, hands the run to the runner
// and the result to the report writers, and maps outcomes to exit statuses.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/run"
)

// Exit statuses (package exit's). They are part of the interface: CI
// pipelines depend on them.
const (
	ExitOK          = exit.OK
	ExitFailure     = exit.Failure
	ExitUsage       = exit.Usage
	ExitVerify      = exit.Verify
	ExitThreshold   = exit.Threshold
	ExitInterrupted = exit.Interrupted
)

// Main runs the command line and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	stdout = run.GuardPipe(stdout)
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := repeatedArgs(root, args, stderr)
	if err == nil {
		err = root.Execute()
	}
	if err == nil {
		return ExitOK
	}
	var cfgErr *config.Error
	var ee *exit.Error
	switch {
	case errors.As(err, &ee):
		if ee.Err != nil {
			fmt.Fprintln(stderr, "tsbench:", ee.Err)
		}
		return ee.Code
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
		Version:       versionLine(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(flagError) // inherited by every subcommand
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRunCmd(stdout, stderr), newScenariosCmd(stdout), newTargetsCmd(stdout), newKeysCmd(stdout), newVersionCmd(stdout))
	root.AddCommand(newRunsCmd(stdout, stderr), newReportCmd(stdout, stderr), newCompareCmd(stdout), newMonitorCmd(stdout, stderr))
	root.AddCommand(newMergeCmd(stdout, stderr), newGenerateCmd(stdout, stderr), newDataCmd(stdout))
	addCompletions(root)
	return root
}

// flagError adds a did-you-mean to cobra's "unknown flag" error: the
// nearest flag of the command, the flag of a configuration key written as
// a flag (--device_number: --devices), or --set for a key no flag sets.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return err
	}
	name, _, _ = strings.Cut(name, "=")
	var flags []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	if s := config.Closest(name, flags); s != "" {
		return fmt.Errorf("%s (did you mean --%s?)", msg, s)
	}
	if k, ok := config.Lookup(name); ok && k.Flag != "" && cmd.Flags().Lookup(k.Flag) != nil {
		return fmt.Errorf("%s (did you mean --%s? it sets %s, as --set %s=VALUE does)", msg, k.Flag, k.Name, k.Name)
	}
	if k, ok := config.Lookup(name); ok && !strings.HasSuffix(k.Name, "*") {
		return fmt.Errorf("%s (%s is a configuration key: --set %s=VALUE)", msg, k.Name, k.Name)
	}
	if s := config.Suggest(name); s != "" && cmd.Flags().Lookup("set") != nil {
		return fmt.Errorf("%s (did you mean the configuration key %s? --set %s=VALUE)", msg, s, strings.ToUpper(s))
	}
	return err
}
