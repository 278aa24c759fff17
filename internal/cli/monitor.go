package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/target"
)

// watch attaches the run's observers: resource sampling (the tool, the
// host, and the database server when it runs here: --server-pid, or the pid
// file its service script wrote) and the live results store, which gets
// every second and every resource sample as they close.
func watch(r *runner.Runner, store *liveStore, cfg *config.Config, d *target.Driver, out runOutputs) {
	r.OnInterval = store.interval
	if !out.resources {
		return
	}
	server, err := monitor.FindServer(d.Name, cfg.Host, int32(out.serverPID))
	rec := monitor.NewRecorder(server)
	if err != nil {
		rec.AddError(err.Error())
	}
	rec.OnSample = store.resources
	r.Monitor = rec
}

// checkRunOutputs rejects bad --results, --server-pid and --hdr-log values
// before the run starts.
func checkRunOutputs(f runOutputs) error {
	if spec, def, off := resultsSpec(f.results, ""); !off {
		if _, err := results.ParseLocation(spec, def); err != nil {
			return usageError("--results: %v", err)
		}
	}
	if f.serverPID < 0 {
		return usageError("--server-pid %d: must be a process id", f.serverPID)
	}
	if f.serverPID > 0 {
		if ok, _ := process.PidExists(int32(f.serverPID)); !ok {
			return usageError("--server-pid %d: no such process on this host", f.serverPID)
		}
	}
	if f.hdrLog != "" {
		if st, err := os.Stat(f.hdrLog); err == nil && !st.IsDir() {
			return usageError("--hdr-log %s: not a directory", f.hdrLog)
		}
	}
	return nil
}

func newMonitorCmd(stdout, stderr io.Writer) *cobra.Command {
	var out, service string
	var pid int
	var interval, duration time.Duration
	cmd := &cobra.Command{
		Use:   "monitor --out FILE",
		Short: "Sample this host's resources to a file (run it on the database host)",
		Long: `Sample this host's CPU, memory, disk and network I/O — and a database
server process with its descendants, given by --pid or --service — once a
second, appending one JSON object per line to --out, until interrupted
(Ctrl-C, SIGTERM) or --duration passes. Run it on the database host while
tsbench runs elsewhere, then merge the samples into the run's report by time:

  db-host$     tsbench monitor --out db.jsonl --service postgres
  client-host$ tsbench run --target postgres --set HOST=db-host
  client-host$ tsbench report latest --monitor db.jsonl -o report.html

Clocks of both hosts should agree (NTP): samples are matched by wall-clock
time.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usageError("--out FILE is required")
			}
			if interval < 100*time.Millisecond {
				return usageError("--interval %v: must be at least 100ms", interval)
			}
			opts := monitor.Options{Host: true}
			switch {
			case pid > 0:
				if ok, _ := process.PidExists(int32(pid)); !ok {
					return usageError("--pid %d: no such process", pid)
				}
				opts.Server = int32(pid)
			case service != "":
				sp, _ := monitor.FindServer(service, "", 0)
				if sp == nil {
					return usageError("--service %s: no running server recorded in %s/%s/pid", service, monitor.ServicesDir(), service)
				}
				opts.Server = sp.PID
			}
			fh, err := os.OpenFile(out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				return usageError("--out: %v", err)
			}
			defer fh.Close()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if duration > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, duration)
				defer cancel()
			}
			host, _ := os.Hostname()
			what := "host"
			if opts.Server > 0 {
				what = fmt.Sprintf("host and process %d", opts.Server)
			}
			fmt.Fprintf(stderr, "tsbench monitor: sampling %s on %s every %v into %s (Ctrl-C to stop)\n", what, host, interval, out)
			n, err := monitor.Run(ctx, fh, opts, interval)
			if err != nil {
				return &exitError{ExitFailure, fmt.Errorf("writing %s: %w", out, err)}
			}
			fmt.Fprintf(stdout, "Wrote %d samples to %s\n", n, out)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "append samples (JSON lines) to this file")
	fl.IntVar(&pid, "pid", 0, "also sample this process and its descendants (the database server)")
	fl.StringVar(&service, "service", "", "also sample the server started by scripts/services/NAME.sh (its pid file)")
	fl.DurationVar(&interval, "interval", time.Second, "time between samples")
	fl.DurationVar(&duration, "duration", 0, "stop after this long (0 = until interrupted)")
	return cmd
}
