package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/replay"
)

// newDataCmd is 'tsbench data': the user's own data, before any run.
func newDataCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "data",
		Short: "Look at your own data before replaying it",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newDataInspectCmd(stdout))
	return cmd
}

func newDataInspectCmd(stdout io.Writer) *cobra.Command {
	var sets []string
	var format string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect FILE|DIR",
		Short: "Say how tsbench reads a file and what it holds, before any run",
		Long: `Read FILE (or a directory of files of one format, or a dataset directory) as
'tsbench run --data' would import it, and say what was found: the format, the
time column and its format, the device and sensor columns and the sensors'
types, rows, devices, points present and missing, the time span, the median
step and duplicate rows. Missing points (sparse data: an empty cell, null or
NaN, a time a series lacks) are counted, and the targets that replay them
named.
The DATA_* keys (--set) change how the file is read, as for a run.`,
		Example: `  tsbench data inspect weather.csv
  tsbench data inspect export.lp --json
  tsbench data inspect places.csv --set 'DATA_TIME_FORMAT=%b %d %Y'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg := config.Default()
			cfg.Data = args[0]
			for _, s := range sets {
				if err := config.SetArg(cfg, s); err != nil {
					return err
				}
			}
			if cmd.Flags().Changed("data-format") {
				if err := config.Set(cfg, "DATA_FORMAT", format); err != nil {
					return err
				}
			}
			in, err := dataset.Inspect(args[0], replay.ImportOptions(cfg))
			if err != nil {
				if dataset.IsInputError(err) {
					return exit.Usagef("%v", err)
				}
				return exit.With(exit.Failure, err)
			}
			if in.Missing > 0 {
				in.SparseTargets = replay.SparseTargets()
			}
			in.Clients = replay.Clients(cfg, in.Devices)
			if err := replay.CheckDuplicates(cfg, in.DuplicateRows, in.Rows, in.DuplicateExample); err != nil && in.Replayable {
				in.Replayable, in.Problem = false, err.Error()
			}
			if asJSON {
				b, err := json.MarshalIndent(in, "", "  ")
				if err != nil {
					return exit.With(exit.Failure, err)
				}
				fmt.Fprintln(stdout, string(b))
				return nil
			}
			fmt.Fprint(stdout, in.Table())
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&asJSON, "json", false, "print the findings as JSON")
	fl.StringArrayVar(&sets, "set", nil, "set a DATA_* key, KEY=VALUE (repeatable)")
	fl.StringVar(&format, "data-format", "", "DATA_FORMAT: auto, csv, parquet, iot-benchmark, influx, prometheus")
	return cmd
}
