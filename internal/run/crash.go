package run

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/targets"
)

// crashRestartTimeout bounds the restart command and the wait for the port.
const crashRestartTimeout = 3 * time.Minute

// crashPlan is the run's crash (CRASH_AT), nil without one. It is refused
// where tsbench cannot do it: no server of the target's own, a server on
// another host without a fault command (CRASH_COMMAND), several workers
// (each would kill it), a find-max search, a server it could not start
// again.
func crashPlan(cfg *config.Config, d *targets.Driver) (*crash.Plan, error) {
	if cfg.CrashAt <= 0 {
		return nil, nil
	}
	node, err := faultNode(cfg, d)
	if err != nil {
		return nil, err
	}
	host, port := node.opts.HostPort(d.DefaultPort)
	if d.DefaultPort == 0 {
		port = 0
	}
	switch {
	case port == 0:
		return nil, exit.Usagef("CRASH_AT = %v: the %s target has no server of its own to kill", cfg.CrashAt, d.Name)
	case !localHost(host) && cfg.CrashCommand == "" && cfg.CrashPartition == 0:
		return nil, exit.Usagef("CRASH_AT = %v: the server is on %s; tsbench kills only a server on this machine (127.0.0.1): "+
			"give the fault as a command of your own (CRASH_COMMAND, --crash-command)", cfg.CrashAt, host)
	case cfg.Scaled():
		return nil, exit.Usagef("CRASH_AT = %v with WORKERS = %d: one process must kill the server; run the crash without workers", cfg.CrashAt, cfg.Workers)
	case cfg.QueryOnly:
		return nil, exit.Usagef("CRASH_AT = %v with QUERY_ONLY: a crash counts what the server lost of what the run wrote, "+
			"and a query-only run writes nothing", cfg.CrashAt)
	case len(cfg.FindMax) > 0:
		return nil, exit.Usagef("CRASH_AT = %v with FIND_MAX: every step would crash the server; run them apart", cfg.CrashAt)
	case cfg.MaxTime > 0 && cfg.CrashAt >= cfg.MaxTime:
		return nil, exit.Usagef("CRASH_AT = %v: the measured phase lasts %v; the crash must come before its end", cfg.CrashAt, cfg.MaxTime)
	}
	if err := faultKeys(cfg); err != nil {
		return nil, err
	}
	plan := &crash.Plan{At: cfg.CrashAt, Restart: cfg.CrashRestart, Service: d.Service, Host: host, Port: port, Node: node.name,
		Failover: failoverAddrs(cfg, d), Down: cfg.CrashDown, Timeout: crashRestartTimeout, Ready: serverReady(d, node.opts)}
	if cfg.CrashCommand != "" {
		plan.Command = cfg.CrashCommand // the fault and any restart are the user's
		return plan, nil
	}
	if cfg.CrashPause > 0 || cfg.CrashPartition > 0 {
		plan.Pause, plan.Partition = cfg.CrashPause, cfg.CrashPartition // nothing to restart
		return plan, nil
	}
	if script := serviceScript(d.Service); d.Service != "" && script != "" {
		plan.Fallback = "bash " + script + " resume"
	}
	if err := plan.CanRestart(); err != nil {
		return nil, exit.Usagef("CRASH_AT = %v: %v", cfg.CrashAt, err)
	}
	return plan, nil
}

// faultKeys refuses, beside a pause or a partition, the keys of a kill and
// the other fault: the server goes on where it stopped, or never stopped.
func faultKeys(cfg *config.Config) error {
	fault, d := "CRASH_PAUSE", cfg.CrashPause
	if cfg.CrashPartition > 0 {
		fault, d = "CRASH_PARTITION", cfg.CrashPartition
	}
	if d <= 0 {
		return nil
	}
	for _, key := range []string{"CRASH_RESTART", "CRASH_DOWN", "CRASH_COMMAND", "CRASH_PAUSE"} {
		if v, ok := cfg.Changed(key); ok && key != fault {
			return exit.Usagef("%s = %s: not with %s = %v: a paused server goes on where it stopped, a partitioned one never "+
				"stops; nothing kills or restarts it, and a run makes one fault", key, v, fault, d)
		}
	}
	return nil
}

// failoverAddrs are the "host:port" of the nodes a run follows its
// server to (target_session_attrs=read-write), the target's port where a
// node names none.
func failoverAddrs(cfg *config.Config, d *targets.Driver) []string {
	var out []string
	for _, h := range connect.Options(cfg, d, "").Failover {
		host, port := targets.SplitHostPort(h)
		if port == 0 {
			port = d.DefaultPort
		}
		out = append(out, net.JoinHostPort(host, strconv.Itoa(port)))
	}
	return out
}

// faulted is the server a fault hits: its connection options and, when
// it is one of several hosts, which ("3 of 3").
type faulted struct {
	opts targets.Options
	name string
}

// faultNode is the server the run's fault hits: the target's, or with
// several hosts (HOST lists a cluster's nodes) the one CRASH_NODE names,
// HOST's first by default. CRASH_NODE with one server is refused: it
// would name a node the run does not have.
func faultNode(cfg *config.Config, d *targets.Driver) (faulted, error) {
	opts := connect.Options(cfg, d, "")
	nodes := opts.PerHost()
	if len(nodes) < 2 {
		if v, ok := cfg.Changed("CRASH_NODE"); ok {
			return faulted{}, exit.Usagef("CRASH_NODE = %s: the run has one server; CRASH_NODE picks one of several hosts "+
				"(HOST=node1,node2,node3)", v)
		}
		return faulted{opts: opts}, nil
	}
	n := max(cfg.CrashNode, 1)
	if n > len(nodes) {
		return faulted{}, exit.Usagef("CRASH_NODE = %d: HOST names %d nodes (1 to %d)", n, len(nodes), len(nodes))
	}
	return faulted{opts: nodes[n-1], name: fmt.Sprintf("%d of %d", n, len(nodes))}, nil
}

// serverReady says whether the server (opts) takes a connection of the
// run's again and, where the target can ask its version, whether it
// answers a statement on it without a failure that passes: the crash
// waits for that, not only for the port. A node may take connections and
// turn every statement away for a while (a Galera node not yet back in
// its cluster's primary component); a refusal of the version's question
// itself (a user without the right) does not make the server unready.
func serverReady(d *targets.Driver, opts targets.Options) func(context.Context) error {
	return func(ctx context.Context) error {
		t, err := d.Open(ctx, opts)
		if err != nil {
			return err
		}
		defer t.Close()
		if v, ok := t.(targets.Versioner); ok {
			if _, err := v.ServerVersion(ctx); err != nil && metrics.Transient(err) {
				return err
			}
		}
		return nil
	}
}

// serviceScript finds scripts/services/NAME.sh with a resume action in
// the working directory or a directory above it (a checkout of tsbench),
// or "" when there is none.
func serviceScript(name string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "scripts", "services", name+".sh")
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "resume)") {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// localHost reports whether host is this machine's loopback.
func localHost(h string) bool {
	switch strings.ToLower(strings.Trim(h, "[]")) {
	case "", "localhost", "::1":
		return true
	}
	return strings.HasPrefix(h, "127.")
}
