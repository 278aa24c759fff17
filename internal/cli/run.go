package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/run"
)

type runFlags struct {
	configFile  string
	properties  string
	scenario    string
	sets        []string
	printConfig bool
	thresholds  []string
	findMax     []string // --find-max objectives (FIND_MAX)
	scale       float64
	repeat      int
	variant     string
	serverCores int
	strict      bool // every warning is an error (exit 2)
	profiles    profiles
	tsbs        tsbsFlags // TSBS's own flag names (tsbs_flags.go)

	run.Outputs // results store, HDR log, resource monitoring (store.go)
}

// keyFlag is a flag that sets one configuration key; it is applied only when
// given, after the files, so that flags override them. Its name is also a
// name of the key in files (config's Key.Flag), which a test checks.
type keyFlag struct {
	name, key, usage string
	value            string
	// tsbsKey is the key the flag sets in a TSBS run instead, where its
	// name is TSBS's own flag of that key (--queries: TSBS_QUERIES).
	tsbsKey string
}

// newRunCmd is 'tsbench run' and its flags.
//
// long: the table of the run's flags, a line each
func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	keyFlags := []*keyFlag{
		{name: "target", key: "DB_SWITCH", usage: "database target (see 'tsbench targets'); overrides DB_SWITCH"},
		{name: "target-url", key: "TARGET_URL", usage: "the target's own connection URL, e.g. postgres://user:pass@host:5432/db?sslmode=verify-full (its password is shown as ***)"},
		{name: "write-url", key: "WRITE_URL", usage: "where writes go, when not where queries go (a PostgreSQL primary)"},
		{name: "query-url", key: "QUERY_URL", usage: "where queries and verification go (a PostgreSQL replica)"},
		{name: "duration", key: "duration", usage: "run the measured phase this long, e.g. 30s; with --loop too, whichever ends first"},
		{name: "warmup", key: "warmup", usage: "run operations this long before measuring, e.g. 5s"},
		{name: "rate", key: "rate", usage: "open model: operations per second for all clients (0 = closed loop)"},
		{name: "retries", key: "RETRIES", usage: "retry a write that failed on a connection error or timeout up to N times (exponential backoff, jitter)"},
		{name: "queries", key: "QUERY_FILE", tsbsKey: "TSBS_QUERIES", usage: "your own queries: a YAML file of named queries with weights and parameters (docs/queries.md); " +
			"in a TSBS run, TSBS's --queries: queries of each query type (TSBS_QUERIES)"},
		{name: "query-only", key: "QUERY_ONLY", usage: "with --queries: only those queries, on data already in the database (no schema, no writes, no counts)"},
		{name: "explain", key: "EXPLAIN", usage: "with --queries on an SQL target: capture each query's plan (EXPLAIN) with the run"},
		{name: "client-io", key: "CLIENT_IO", usage: "auto (default), goroutines or epoll: with --queries --query-only on postgres, serve the clients' connections from event loops, as pgbench does; auto does where they serve"},
		{name: "client-loops", key: "CLIENT_LOOPS", usage: "with --client-io epoll: the event loops (pgbench's -j); 0 = one per processor"},
		{name: "crash", key: "CRASH_AT", usage: "kill the database server this far into the measured phase, e.g. 12s, restart it (--crash-restart) and map the acknowledged points it lost"},
		{name: "crash-restart", key: "CRASH_RESTART", usage: "with --crash: the shell command that starts the server again on its data (default: scripts/services/NAME.sh resume)"},
		{name: "crash-command", key: "CRASH_COMMAND", usage: "with --crash: the shell command that makes the fault instead of tsbench's kill (kubectl delete pod db-0, systemctl kill ...), for a server tsbench did not start"},
		{name: "crash-pause", key: "CRASH_PAUSE", usage: "with --crash: stop the server (SIGSTOP) this long instead of killing it, then let it go on (SIGCONT), e.g. 2s"},
		{name: "crash-partition", key: "CRASH_PARTITION", usage: "with --crash: cut the run's connections off the server this long instead of killing it (a relay of tsbench's passes nothing either way), e.g. 2s"},
		{name: "crash-node", key: "CRASH_NODE", usage: "with --crash and several hosts: the node the fault hits, 1 for HOST's first (default), 2 for its second ..."},
		{name: "tsbs-queries", key: "TSBS_QUERY_FILE", usage: "run a query file of tsbs_generate_queries as written, on data already loaded, reported per query type as TSBS's runner does (--clients is its --workers; docs/tsbs.md)"},
		{name: "burn-in", key: "TSBS_BURN_IN", usage: "with --tsbs-queries: the file's first N queries run but are not measured (TSBS's --burn-in)"},
		{name: "max-queries", key: "TSBS_MAX_QUERIES", usage: "with --tsbs-queries: run at most N queries, burn-in included (TSBS's --max-queries; 0 = all)"},
		{name: "print-responses", key: "TSBS_PRINT_RESPONSES", usage: "with --tsbs-queries: print every answer as TSBS's runner prints it with --print-responses"},
		{name: "freshness", key: "FRESHNESS", usage: "measure how long a written point takes to become visible: a probe series written and polled beside the run"},
	}
	keyFlags = append(keyFlags, dataShapeFlags("concurrent clients", "operations per client")...)
	keyFlags = append(keyFlags, []*keyFlag{
		{name: "workload", key: "WORKLOAD", usage: "timeseries (writes and Q1..Q10), tpcc (TPC-C's five transactions on postgres or mysql), prometheus (scrape targets by remote write, then rules, alerts and dashboards checked, on prometheus, victoriametrics, mimir or thanos; PROM_* keys), or tsbs-cpu-only, tsbs-devops, tsbs-iot (TSBS's use cases, run as the scenario of that name, with TSBS's own flags --use-case, --seed, --scale, --timestamp-start, --timestamp-end, --log-interval, --queries)"},
		{name: "warehouses", key: "TPCC_WAREHOUSES", usage: "TPC-C warehouses (W) to load"},
		{name: "analytics-engine", key: "ANALYTICS_ENGINE", usage: "what runs a scenario's analytics phase: sql (the target's own) or spark (Apache Spark over JDBC)"},
		{name: "spark-master", key: "SPARK_MASTER", usage: "Spark master URL with --analytics-engine spark (default local[*]; spark://HOST:7077 for a cluster)"},
		{name: "verify", key: "verify", usage: "after writing, check stored points equal acknowledged points (true|false)"},
		{name: "query-checks", key: "QUERY_CHECKS", usage: "after a verified run, query answers checked per kind against the data written (0 = none)"},
		{name: "no-check", key: "NO_CHECK", usage: "check no query answers after the run (--query-checks 0)"},
		{name: "json", key: "json", usage: "also write the JSON summary to this file"},
		{name: "data-dir", key: "data_dir", usage: "where embedded databases and run results go"},
		{name: "quiet", key: "IS_QUIET_MODE", usage: "no progress output (true|false)"},
		{name: "data", key: "DATA", usage: "replay your own data instead of generating: a CSV, Parquet or IoT-benchmark file or directory, or a 'tsbench generate' directory"},
		{name: "data-format", key: "DATA_FORMAT", usage: "format of --data: auto, csv, parquet, iot-benchmark"},
		{name: "workers", key: "WORKERS", usage: "scale out: N tsbench processes share this run's clients and devices (with --worker-index, --group)"},
		{name: "worker-index", key: "WORKER_INDEX", usage: "this process's share, 0..N-1, with --workers N"},
		{name: "group", key: "RUN_GROUP", usage: "with --workers: the name the workers meet and are merged by ('tsbench merge --group NAME')"},
		{name: "start-at", key: "START_AT", usage: "with --workers: begin at this RFC 3339 time instead of waiting at the results store's barrier"},
		{name: "barrier-timeout", key: "BARRIER_TIMEOUT", usage: "with --workers: longest wait for the other workers, e.g. 10m"},
	}...)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a benchmark",
		Long: `Run a benchmark and print IoT-benchmark's Result and Latency matrices.

With no arguments, runs a short mixed workload (writes and Q1..Q10) against
an embedded SQLite database and verifies what it stored. Configuration comes
from, in increasing precedence: built-in defaults, --scenario, --config (YAML),
--properties (IoT-benchmark config.properties), --set KEY=VALUE, and the
flags below. One key given two values on the command line (--set twice, or
--set and its flag) is refused.

Exit status: 0 success; 1 the run failed or operations failed; 2 bad input;
3 verification mismatch; 130 interrupted (results are still printed and saved).`,
		Example: `  tsbench run
  tsbench run --properties conf/config.properties --target sqlite
  tsbench run --config bench.yaml --duration 1m --json out.json
  tsbench run --set DEVICE_NUMBER=100 --set BATCH_SIZE_PER_WRITE=500 --clients 8
  tsbench run --rate 2000 --duration 30s          # open model, latency from intended start
  tsbench run --target null --loop 100000 --quiet # the tool's own cost
  tsbench run --scenario iotdb-crrc --target iotdb,kairosdb --scale 0.01 # a study's systems side by side
  tsbench run --print-config --properties conf/config.properties`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			stop, err := f.profiles.start(stderr)
			if err != nil {
				return err
			}
			defer stop()
			if err := tsbsWorkload(cmd, &f, keyFlags); err != nil {
				return err
			}
			if f.scenario != "" {
				return executeScenario(cmd, &f, keyFlags, stdout, stderr)
			}
			if cmd.Flags().Changed("repeat") && !f.printConfig {
				return executeRepeats(cmd, &f, keyFlags, stdout, stderr)
			}
			if t := targetFlag(keyFlags); t != nil && strings.Contains(t.value, ",") && !f.printConfig {
				return executeTargets(cmd, &f, keyFlags, stdout, stderr)
			}
			cfg, err := loadConfig(cmd, &f, keyFlags, stderr)
			if err != nil {
				return err
			}
			if err := scenarioOnlyFlags(cmd, cfg); err != nil {
				return err
			}
			f.Outputs.ServerCores = f.serverCores
			if f.printConfig {
				return config.Print(cfg, stdout)
			}
			if len(cfg.FindMax) > 0 {
				return run.FindMax(cfg, f.Outputs, stdout, stderr)
			}
			return run.Execute(cfg, f.Outputs, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	addConfigFlags(fl, &f, keyFlags, "set a configuration key, KEY=VALUE (repeatable; target.KEY=VALUE for target options)",
		"treat every warning (ignored IoT-benchmark keys, keys set twice, guessed values) as an error: exit 2")
	f.tsbs.flags = tsbsOwnFlags(false) // --scale and --queries are above: their TSBS meaning is chosen per run
	addTSBSFlags(fl, &f.tsbs)
	fl.StringVar(&f.scenario, "scenario", "", "named workload (see 'tsbench scenarios')")
	fl.BoolVar(&f.printConfig, "print-config", false, "print the effective configuration as YAML and exit")
	fl.StringArrayVar(&f.findMax, "find-max", nil, "search for the highest rate that meets this objective, e.g. 'INGESTION.p99<50ms' "+
		"(repeatable: every one must hold): open-model rates doubled until a step fails, then bisected (FIND_MAX_* keys)")
	fl.StringArrayVar(&f.thresholds, "threshold", nil, "pass/fail criterion, e.g. 'INGESTION.p99<50ms', 'INGESTION.throughput>100000', 'errors==0' (repeatable; a failure exits 99)")
	fl.Float64Var(&f.scale, "scale", 1, "with --scenario: shrink (or grow) the data by this factor, keeping request shapes; "+
		"in a TSBS run, TSBS's --scale: hosts (TSBS_SCALE)")
	fl.IntVar(&f.repeat, "repeat", 0, "run N times, each from a fresh state, and report each figure's mean, 95% confidence interval and coefficient of variation "+
		"(with --scenario: its phases N times, default the study's n)")
	fl.StringVar(&f.variant, "variant", "", "with --scenario: a named variant, e.g. week or month for epics-archiver")
	fl.IntVar(&f.serverCores, "server-cores", 0, "with --scenario or --workload tpcc: cores of the database host for per-core figures (default: this machine's)")
	fl.StringVar(&f.profiles.cpu, "cpuprofile", "", "write tsbench's own CPU profile (pprof format) to this file")
	fl.StringVar(&f.profiles.mem, "memprofile", "", "write tsbench's own memory profile (pprof format, allocations since the start) to this file at the end")
	fl.Lookup("verify").NoOptDefVal = "true"
	fl.Lookup("quiet").NoOptDefVal = "true"
	fl.Lookup("no-check").NoOptDefVal = "true"
	fl.Lookup("query-only").NoOptDefVal = "true"
	fl.Lookup("explain").NoOptDefVal = "true"
	fl.Lookup("freshness").NoOptDefVal = "true"
	fl.Lookup("print-responses").NoOptDefVal = "true"
	fl.StringVar(&f.Results, "results", "", "results store for this run: an SQLite file, postgres://USER@HOST:PORT/DB, mysql://USER@HOST:PORT/DB, or off (default $"+results.Env+", else <data-dir>/results.db)")
	fl.StringVar(&f.HDRLog, "hdr-log", "", "also write the latency histograms as an HdrHistogram log, DIR/<run id>.hlog")
	fl.IntVar(&f.ServerPID, "server-pid", 0, "the database server's process id, to sample its CPU, memory and I/O (default: found from the service scripts' pid files)")
	fl.BoolVar(&f.Resources, "resources", true, "sample CPU, memory, disk and network of the tool, the host and the server once a second")
	addLiveFlags(fl, &f.Live)
	cmd.PreRunE = func(*cobra.Command, []string) error { return run.CheckOutputs(f.Outputs) }
	return cmd
}

// dataShapeFlags are the flags of the data's shape, which run and generate
// share; clients and loop say what the two mean to the command.
func dataShapeFlags(clients, loop string) []*keyFlag {
	return []*keyFlag{
		{name: "clients", key: "CLIENT_NUMBER", usage: clients},
		{name: "devices", key: "DEVICE_NUMBER", usage: "devices"},
		{name: "sensors", key: "SENSOR_NUMBER", usage: "sensors per device"},
		{name: "loop", key: "LOOP", usage: loop},
		{name: "batch-size", key: "BATCH_SIZE_PER_WRITE", usage: "rows per device per write"},
	}
}

// addConfigFlags adds the flags loadConfig reads, which run and generate
// share: the files, --set, --strict and the key flags.
func addConfigFlags(fl *pflag.FlagSet, f *runFlags, keyFlags []*keyFlag, setUsage, strictUsage string) {
	fl.StringVar(&f.configFile, "config", "", "YAML configuration file")
	fl.StringVar(&f.properties, "properties", "", "IoT-benchmark config.properties file")
	fl.StringArrayVar(&f.sets, "set", nil, setUsage)
	fl.BoolVar(&f.strict, "strict", false, strictUsage)
	for _, k := range keyFlags {
		fl.StringVar(&k.value, k.name, "", k.usage)
	}
}
