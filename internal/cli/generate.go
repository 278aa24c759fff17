package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/replay"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
)

func newGenerateCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	var out, format string
	keyFlags := append(dataShapeFlags("concurrent clients (decides the device split only at replay)",
		"operations per client: its write steps are the batches generated per device"),
		&keyFlag{name: "workload", key: "WORKLOAD", usage: "timeseries (tsbench's own data), or tsbs-cpu-only, tsbs-devops, tsbs-iot: " +
			"the load of TSBS's use case, with TSBS's own flags --seed, --scale, --timestamp-start, --timestamp-end, --log-interval (docs/tsbs.md)"})
	cmd := &cobra.Command{
		Use:   "generate --out DIR",
		Short: "Write the generated workload once, as files every database then receives unchanged",
		Long: `Generate the data a run of the configuration writes — every device's batches
of the write steps of LOOP, the same values, times and out-of-order delivery
— into DIR, in tsbench's compact dataset format. 'tsbench run --data DIR'
replays it through any target, so that every database of a comparison
receives identical bytes, and the load is not slowed by generation.

Configuration comes from --config, --properties, --set and the flags below,
as for 'tsbench run'.

With a TSBS workload (--workload tsbs-cpu-only, tsbs-devops, tsbs-iot, or
TSBS's --use-case), generate writes the workload's load, with TSBS's flags
--seed, --scale, --timestamp-start, --timestamp-end and --log-interval and
TSBS's defaults for those not given; --format influx|timescaledb writes it
as TSBS's file, for cpu-only and iot the bytes tsbs_generate_data writes
with the same flags.`,
		Example: `  tsbench generate --out /data/crrc --properties conf/config.properties
  tsbench run --data /data/crrc --target influxdb
  tsbench generate --workload tsbs-cpu-only --format timescaledb --seed 321 --scale 8 \
    --timestamp-start 2016-01-01T00:00:00Z --timestamp-end 2016-01-03T00:00:00Z --log-interval 10s --out cpu.tsdb`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return exit.Usagef("generate: --out DIR is required: the directory the dataset goes to")
			}
			layers, err := generateLayers(cmd, &f, keyFlags)
			if err != nil {
				return err
			}
			f.tsbs.file = format != ""
			cfg, err := loadConfig(cmd, &f, keyFlags, stderr, layers...)
			if err != nil {
				return err
			}
			if cfg.LoopUnbounded {
				return exit.Usagef("generate: DURATION sets no number of batches; give LOOP (--loop)")
			}
			if cfg.Data != "" {
				return exit.Usagef("generate: DATA = %q: generate writes generated data; a file is already data", cfg.Data)
			}
			schema := workload.Schema(cfg)
			g, err := gen.New(schema, workload.GenOptions(cfg))
			if err != nil {
				return exit.Usagef("%v", err)
			}
			if format != "" {
				return generateTSBS(cfg, g, format, out, stdout)
			}
			cur := gen.NewCursor()
			src := replay.Generated{Schema: schema, Batch: g.NewBatch(),
				Fill: func(b *ts.Batch, dev *ts.Device, n int64) { g.Fill(b, dev, n, cur) }}
			t0 := time.Now()
			m, err := replay.WriteGenerated(cfg, out, src)
			if err != nil {
				return exit.With(exit.Failure, err)
			}
			fmt.Fprintf(stdout, "Generated %d rows of %d devices x %d sensors (%d points) into %s in %.2f s\n",
				m.Rows, len(m.Devices), len(m.Sensors), m.Points(), out, time.Since(t0).Seconds())
			fmt.Fprintf(stdout, "Replay it with: tsbench run --data %s --target NAME\n", out)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&out, "out", "", "directory to write the dataset to (replaced if it holds one); with --format, the file")
	fl.StringVar(&format, "format", "", "with a TSBS workload (--workload tsbs-...): write a TSBS data file, influx or timescaledb, for TSBS's loaders (cpu-only, iot: the bytes tsbs_generate_data writes with the same flags)")
	addConfigFlags(fl, &f, keyFlags, "set a configuration key, KEY=VALUE (repeatable)", "treat every warning as an error: exit 2")
	f.tsbs.flags = tsbsOwnFlags(true)
	addTSBSFlags(fl, &f.tsbs)
	return cmd
}
