package run

import (
	"os"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/targets"
)

// resourceRecorder samples the tool, the host, and the database server
// when it runs here (--server-pid, else the process listening on the
// target's port, else the pid file its service script wrote), for a run
// that keeps its samples in store; nil with --resources=false.
func resourceRecorder(store *results.Live, cfg *config.Config, d *targets.Driver, out Outputs) *monitor.Recorder {
	if !out.Resources {
		return nil
	}
	host, port := serverAddr(cfg, d)
	server, err := monitor.FindServer(d.Service, host, port, int32(out.ServerPID))
	rec := monitor.NewRecorder(server)
	if err != nil {
		rec.AddError(err.Error())
	}
	rec.OnSample = store.Resources
	return rec
}

// serverAddr is where the run's server listens, as its connections will
// reach it (HOST, PORT, a URL's host and port; the first of several hosts,
// where the writes go when WRITE_URL differs), the target's default port
// where none is set. The port is 0 for targets without a server (embedded,
// null): a PORT set for them names no server of theirs.
func serverAddr(cfg *config.Config, d *targets.Driver) (string, int) {
	host, port := connect.Options(cfg, d, "").HostPort(d.DefaultPort)
	if d.DefaultPort == 0 {
		port = 0
	}
	return host, port
}

// CheckOutputs rejects bad --results, --server-pid and --hdr-log values
// before the run starts.
func CheckOutputs(f Outputs) error {
	if _, _, err := results.Resolve(f.Results, ""); err != nil {
		return exit.Usagef("--results: %v", err)
	}
	if f.ServerPID < 0 {
		return exit.Usagef("--server-pid %d: must be a process id", f.ServerPID)
	}
	if f.ServerPID > 0 {
		if ok, _ := process.PidExists(int32(f.ServerPID)); !ok {
			return exit.Usagef("--server-pid %d: no such process on this host", f.ServerPID)
		}
	}
	if f.HDRLog != "" {
		if st, err := os.Stat(f.HDRLog); err == nil && !st.IsDir() {
			return exit.Usagef("--hdr-log %s: not a directory", f.HDRLog)
		}
	}
	return nil
}
