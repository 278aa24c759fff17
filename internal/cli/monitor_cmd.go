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

	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/run"
	"github.com/tsbench/tsbench/internal/summary"
)

// newMonitorCmd is 'tsbench monitor': a process's CPU and memory sampled to a file or the results store.
//
// long: the command's flags and its run, as cobra declares them together
func newMonitorCmd(stdout, stderr io.Writer) *cobra.Command {
	var sf storeFlags
	var out, service string
	var toStore bool
	var pid int
	var interval, duration time.Duration
	cmd := &cobra.Command{
		Use:   "monitor {--out FILE | --store}",
		Short: "Sample this host's resources into a file or the results store (run it on the database host)",
		Long: `Sample this host's CPU, memory, disk and network I/O — and a database
server process with its descendants, given by --pid or --service — once a
second, until interrupted (Ctrl-C, SIGTERM) or --duration passes. Run it on
the database host while tsbench runs elsewhere; the samples go

  --out FILE  one JSON object per line, appended to FILE; merge them into a
              report with 'tsbench report ID --monitor FILE'
  --store     into the results store (--results, $TSBENCH_RESULTS, else
              <data-dir>/results.db) as a monitor session; 'tsbench report'
              merges the samples of any session that overlaps a run by itself

or both. A store shared by both hosts (a PostgreSQL or MySQL database) needs
no file to be carried over. 'tsbench monitor ls' lists the stored sessions,
'tsbench monitor rm ID' removes one.

Samples are matched to runs by wall-clock time: the clocks of both hosts
should agree (NTP).`,
		Example: `  db-host$     tsbench monitor --out db.jsonl --service postgres
  client-host$ tsbench run --target postgres --set HOST=db-host
  client-host$ tsbench report latest --monitor db.jsonl -o report.html

  db-host$     tsbench monitor --store --results postgres://bench@store-host/results --pid 4242
  client-host$ tsbench run --target postgres --set HOST=db-host --results postgres://bench@store-host/results
  client-host$ tsbench report latest --results postgres://bench@store-host/results -o report.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			toStore = toStore || cmd.Flags().Changed("results")
			if out == "" && !toStore {
				return exit.Usagef("--out FILE or --store is required: where should the samples go?")
			}
			if interval < 100*time.Millisecond {
				return exit.Usagef("--interval %v: must be at least 100ms", interval)
			}
			if duration < 0 {
				return exit.Usagef("--duration %v: must be >= 0 (0 = until interrupted)", duration)
			}
			opts, server, err := monitorTarget(pid, service)
			if err != nil {
				return err
			}
			m := &results.MonitorSinks{Stderr: stderr}
			defer m.Close()
			if out != "" {
				if err := m.OpenFile(out); err != nil {
					return exit.Usagef("--out: %v", err)
				}
			}
			if toStore {
				if err := beginMonitorSession(m, &sf, opts, server, interval); err != nil {
					return err
				}
			}
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
			fmt.Fprintf(stderr, "tsbench monitor: sampling %s on %s every %v into %s (Ctrl-C to stop)\n", what, host, interval, m.Where())
			n, err := monitor.Run(ctx, opts, interval, m.Emit)
			if err != nil {
				return exit.With(exit.Failure, fmt.Errorf("writing %s: %w", out, err))
			}
			if err := m.Finish(stdout, n); err != nil {
				return exit.With(exit.Failure, err)
			}
			return nil
		},
	}
	sf.register(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "append samples (JSON lines) to this file")
	fl.BoolVar(&toStore, "store", false, "record the samples in the results store as a monitor session")
	fl.IntVar(&pid, "pid", 0, "also sample this process and its descendants (the database server)")
	fl.StringVar(&service, "service", "", "also sample the server started by scripts/services/NAME.sh (its pid file)")
	fl.DurationVar(&interval, "interval", time.Second, "time between samples")
	fl.DurationVar(&duration, "duration", 0, "stop after this long (0 = until interrupted)")
	cmd.AddCommand(newMonitorLsCmd(&sf, stdout), newMonitorRmCmd(&sf, stdout))
	return cmd
}

// monitorTarget resolves --pid or --service to the server process to
// sample along with the host.
func monitorTarget(pid int, service string) (monitor.Options, *summary.ServerProcess, error) {
	opts := monitor.Options{Host: true}
	switch {
	case pid < 0:
		return opts, nil, exit.Usagef("--pid %d: must be a process id", pid)
	case pid > 0:
		if ok, _ := process.PidExists(int32(pid)); !ok {
			return opts, nil, exit.Usagef("--pid %d: no such process", pid)
		}
		opts.Server = int32(pid)
		sp, _ := monitor.FindServer("", "", 0, int32(pid))
		return opts, sp, nil
	case service != "":
		// No port: --service names a service script, not a target, and
		// asks for the process its pid file records.
		sp, _ := monitor.FindServer(service, "", 0, 0)
		if sp == nil {
			return opts, nil, exit.Usagef("--service %s: no running server recorded in %s/%s/pid", service, monitor.ServicesDir(), service)
		}
		opts.Server = sp.PID
		return opts, sp, nil
	}
	return opts, nil, nil
}

// beginMonitorSession records the samples in the results store the flags
// name, from a session begun at once: a store that cannot be reached stops
// the monitor before it samples anything.
func beginMonitorSession(m *results.MonitorSinks, sf *storeFlags, opts monitor.Options, server *summary.ServerProcess, interval time.Duration) error {
	loc, err := sf.location("this command")
	if err != nil {
		return err
	}
	st, err := sf.openOrCreate(context.Background(), loc)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	session := results.MonitorSession{ID: "mon-" + run.NewID(), Hostname: host, Started: time.Now().UTC(),
		ServerPID: opts.Server, IntervalS: interval.Seconds()}
	if server != nil {
		session.ServerName = server.Name
	}
	if err := m.Begin(st, session); err != nil {
		return exit.With(exit.Failure, err)
	}
	return nil
}

func newMonitorLsCmd(sf *storeFlags, stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "List the monitor sessions kept in the results store",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return listStored(sf, stdout, asJSON, func(ctx context.Context, st *results.Store) ([]results.MonitorSession, error) {
				return st.Monitors(ctx)
			}, results.PrintMonitorSessions)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func newMonitorRmCmd(sf *storeFlags, stdout io.Writer) *cobra.Command {
	return newRemoveCmd(sf, stdout, "rm SESSION [SESSION...]", "Remove monitor sessions and their samples from the results store", "monitor session",
		func(ctx context.Context, st *results.Store, id string) (string, error) {
			return id, st.DeleteMonitor(ctx, id)
		})
}
