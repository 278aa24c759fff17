package run

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/targets"
)

// timeSeriesShapeGroups are the key groups that shape a time series run's
// data and queries, which a prometheus run does not have (DATA_SEED, its
// seed too, aside).
var timeSeriesShapeGroups = []string{"Schema", "Data generation", "Queries"}

// timeSeriesShapeKeys refuses, on a prometheus run, a key of those groups
// changed from its default.
func timeSeriesShapeKeys(cfg *config.Config) error {
	for _, k := range config.Keys() {
		if k.Name == "DATA_SEED" || !slices.Contains(timeSeriesShapeGroups, k.Group) {
			continue
		}
		if v, ok := cfg.Changed(k.Name); ok {
			return exit.Usagef("%s = %s: not with WORKLOAD = prometheus: it shapes a time series run's data or queries; "+
				"the prometheus workload's shape is its PROM_* keys", k.Name, v)
		}
	}
	return nil
}

// clientIOKeys settles CLIENT_IO = auto on the client I/O that serves the
// run best: the event loops (epoll) where they serve it, as pgbench serves
// its connections, else a goroutine for each client; a note says when the
// loops were chosen. It refuses CLIENT_IO=epoll where the loops do not
// serve the run, and CLIENT_LOOPS without them or beyond one for each
// client.
func clientIOKeys(cfg *config.Config, stderr io.Writer) error {
	unfit := epollUnfit(cfg)
	auto := cfg.ClientIO == "auto"
	if auto {
		cfg.ClientIO = "goroutines"
		if unfit == "" {
			cfg.ClientIO = "epoll"
		}
	}
	if cfg.ClientIO != "epoll" {
		if v, ok := cfg.Changed("CLIENT_LOOPS"); ok {
			chosen := ""
			if auto {
				chosen = " (CLIENT_IO = auto chose it: " + unfit + ")"
			}
			return exit.Usagef("CLIENT_LOOPS = %s: not with CLIENT_IO = %s%s: the loops are CLIENT_IO = epoll's", v, cfg.ClientIO, chosen)
		}
		return nil
	}
	switch {
	case cfg.ClientLoops > cfg.Clients:
		return exit.Usagef("CLIENT_LOOPS = %d: more event loops than clients (CLIENT_NUMBER = %d); allowed: 0 (one per processor) to %d",
			cfg.ClientLoops, cfg.Clients, cfg.Clients)
	case unfit != "":
		return exit.Usagef("CLIENT_IO = epoll: %s; CLIENT_IO = goroutines serves every run", unfit)
	}
	if auto {
		fmt.Fprintln(stderr, "tsbench: note: CLIENT_IO = auto: event loops serve the clients' connections (epoll), "+
			"as pgbench serves its own; --client-io goroutines asks for the other way")
	}
	return nil
}

// epollUnfit says why the event loops of CLIENT_IO=epoll do not serve the
// run, "" when they do: they run the user's own queries alone (QUERY_ONLY
// with QUERY_FILE) on one postgres server, over a plain socket, on Linux.
func epollUnfit(cfg *config.Config) string {
	switch {
	case cfg.Workload != config.WorkloadTimeSeries || cfg.TSBSQueryFile != "" || !cfg.QueryOnly || cfg.QueryFile == "":
		return "the event loop serves a query-only run of your own queries (--queries FILE --query-only)"
	case strings.Contains(cfg.Host, ",") || cfg.WriteURL != "" || cfg.QueryURL != "":
		return "the event loops connect every client to one server: not with several hosts, WRITE_URL or QUERY_URL"
	case !isPostgres(cfg.Target):
		return fmt.Sprintf("DB_SWITCH = %s: the event loop speaks PostgreSQL's protocol itself, and serves postgres alone", cfg.Target)
	case cfg.TLS != "" && cfg.TLS != "off":
		return fmt.Sprintf("TLS = %s: the event loop reads and writes its sockets itself, in plain text", cfg.TLS)
	case runtime.GOOS != "linux":
		return "the event loop waits on its sockets through epoll, which only Linux has"
	}
	return ""
}

func isPostgres(target string) bool {
	d, err := targets.Lookup(target)
	return err == nil && d.Name == "postgres"
}

// dataGroup is the key group that says how a replayed file (DATA) is read.
const dataGroup = "Your own data (replayed instead of generated)"

// dataReadingKeys refuses, on a run that replays no file, a key of
// dataGroup changed from its default: DATA_DELIMITER=semicolon on a
// generated run reads nothing, and a user who set it meant a file.
func dataReadingKeys(cfg *config.Config) error {
	if cfg.Data != "" {
		return nil
	}
	for _, k := range config.Keys() {
		if k.Group != dataGroup || k.Name == "DATA" {
			continue
		}
		if v, ok := cfg.Changed(k.Name); ok {
			return exit.Usagef("%s = %s: not without DATA: it says how a replayed file is read, and this run replays none "+
				"(add --data FILE, or drop %s)", k.Name, v, k.Name)
		}
	}
	return nil
}
