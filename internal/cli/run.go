package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/runid"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/signals"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/threshold"
	"github.com/tsbench/tsbench/internal/tsbs"
	"github.com/tsbench/tsbench/internal/workload"
)

type runFlags struct {
	configFile  string
	properties  string
	scenario    string
	sets        []string
	printConfig bool
	thresholds  []string
	scale       float64
	repeat      int
	variant     string
	serverCores int
	strict      bool // every warning is an error (exit 2)
	profiles    profiles

	runOutputs // results store, HDR log, resource monitoring (store.go)
}

// keyFlag is a flag that sets one configuration key; it is applied only when
// given, after the files, so that flags override them.
type keyFlag struct {
	name, key, usage string
	value            string
}

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
		{name: "clients", key: "CLIENT_NUMBER", usage: "concurrent clients"},
		{name: "devices", key: "DEVICE_NUMBER", usage: "devices"},
		{name: "sensors", key: "SENSOR_NUMBER", usage: "sensors per device"},
		{name: "loop", key: "LOOP", usage: "operations per client"},
		{name: "batch-size", key: "BATCH_SIZE_PER_WRITE", usage: "rows per device per write"},
		{name: "workload", key: "WORKLOAD", usage: "timeseries (writes and Q1..Q10), tpcc (TPC-C's five transactions on postgres or mysql), or tsbs-cpu-only, tsbs-devops, tsbs-iot (TSBS's use cases, run as the scenario of that name)"},
		{name: "warehouses", key: "TPCC_WAREHOUSES", usage: "TPC-C warehouses (W) to load"},
		{name: "analytics-engine", key: "ANALYTICS_ENGINE", usage: "what runs a scenario's analytics phase: sql (the target's own) or spark (Apache Spark over JDBC)"},
		{name: "spark-master", key: "SPARK_MASTER", usage: "Spark master URL with --analytics-engine spark (default local[*]; spark://HOST:7077 for a cluster)"},
		{name: "verify", key: "verify", usage: "after writing, check stored points equal acknowledged points (true|false)"},
		{name: "query-checks", key: "QUERY_CHECKS", usage: "after a verified run, query answers checked per kind against the data written (0 = none)"},
		{name: "no-check", key: "QUERY_CHECKS", usage: "check no query answers after the run (--query-checks 0)"},
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
	}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a benchmark",
		Long: `Run a benchmark and print IoT-benchmark's Result and Latency matrices.

With no arguments, runs a short mixed workload (writes and Q1..Q10) against
an embedded SQLite database and verifies what it stored. Configuration comes
from, in increasing precedence: built-in defaults, --scenario, --config (YAML),
--properties (IoT-benchmark config.properties), --set KEY=VALUE, and the
flags below.

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
			tsbsWorkload(&f, keyFlags)
			if f.scenario != "" {
				return executeScenario(cmd, &f, keyFlags, stdout, stderr)
			}
			if t := targetFlag(keyFlags); t != nil && strings.Contains(t.value, ",") {
				return usageError("--target = %q: several targets run only with --scenario (one after another, compared at the end)", t.value)
			}
			cfg, err := loadConfig(cmd, &f, keyFlags, stderr)
			if err != nil {
				return err
			}
			if err := scenarioOnlyFlags(cmd, cfg.Workload == config.WorkloadTPCC); err != nil {
				return err
			}
			f.runOutputs.serverCores = f.serverCores
			if f.printConfig {
				return config.Print(cfg, stdout)
			}
			return execute(cfg, f.runOutputs, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.configFile, "config", "", "YAML configuration file")
	fl.StringVar(&f.properties, "properties", "", "IoT-benchmark config.properties file")
	fl.StringVar(&f.scenario, "scenario", "", "named workload (see 'tsbench scenarios')")
	fl.StringArrayVar(&f.sets, "set", nil, "set a configuration key, KEY=VALUE (repeatable; targets.KEY=VALUE for target options)")
	fl.BoolVar(&f.printConfig, "print-config", false, "print the effective configuration as YAML and exit")
	fl.StringArrayVar(&f.thresholds, "threshold", nil, "pass/fail criterion, e.g. 'INGESTION.p99<50ms', 'INGESTION.throughput>100000', 'errors==0' (repeatable; a failure exits 99)")
	fl.Float64Var(&f.scale, "scale", 1, "with --scenario: shrink (or grow) the data by this factor, keeping request shapes")
	fl.IntVar(&f.repeat, "repeat", 0, "with --scenario: run the phases N times and report mean, std, min, max (default: the study's n)")
	fl.StringVar(&f.variant, "variant", "", "with --scenario: a named variant, e.g. week or month for epics-archiver")
	fl.IntVar(&f.serverCores, "server-cores", 0, "with --scenario or --workload tpcc: cores of the database host for per-core figures (default: this machine's)")
	fl.StringVar(&f.profiles.cpu, "cpuprofile", "", "write tsbench's own CPU profile (pprof format) to this file")
	fl.StringVar(&f.profiles.mem, "memprofile", "", "write tsbench's own memory profile (pprof format, allocations since the start) to this file at the end")
	fl.BoolVar(&f.strict, "strict", false, "treat every warning (ignored IoT-benchmark keys, keys set twice, guessed values) as an error: exit 2")
	for _, k := range keyFlags {
		fl.StringVar(&k.value, k.name, "", k.usage)
	}
	fl.Lookup("verify").NoOptDefVal = "true"
	fl.Lookup("quiet").NoOptDefVal = "true"
	fl.Lookup("no-check").NoOptDefVal = "0"
	fl.StringVar(&f.results, "results", "", "results store for this run: an SQLite file, postgres://USER@HOST:PORT/DB, mysql://USER@HOST:PORT/DB, or off (default $"+results.Env+", else <data-dir>/results.db)")
	fl.StringVar(&f.hdrLog, "hdr-log", "", "also write the latency histograms as an HdrHistogram log, DIR/<run id>.hlog")
	fl.IntVar(&f.serverPID, "server-pid", 0, "the database server's process id, to sample its CPU, memory and I/O (default: found from the service scripts' pid files)")
	fl.BoolVar(&f.resources, "resources", true, "sample CPU, memory, disk and network of the tool, the host and the server once a second")
	addLiveFlags(fl, &f.live)
	cmd.PreRunE = func(*cobra.Command, []string) error { return checkRunOutputs(f.runOutputs) }
	return cmd
}

// passwordEnv gives the database password (PASSWORD) when no file or flag
// does.
const passwordEnv = "TSBENCH_PASSWORD"

// loadConfig applies defaults, scenario, files, --set and flags in order.
// A scenario run calls it once per phase with that phase's settings.
func loadConfig(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stderr io.Writer, layers ...scenario.Setting) (*config.Config, error) {
	propsFile := f.properties
	if strings.HasSuffix(f.configFile, ".properties") {
		propsFile = f.configFile // IoT-benchmark's format, whichever flag named it
	}
	cfg := config.Default()
	if propsFile != "" {
		cfg = config.IoTBenchmarkDefault()
	}
	var warnings []string
	warn := func(ws []string) { warnings = append(warnings, ws...) }
	for _, l := range layers {
		if err := config.Set(cfg, l.Key, l.Value); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", f.scenario, err)
		}
	}
	// A password from the environment keeps it off command lines and out
	// of configuration files; a file or --set may still override it.
	if pw := os.Getenv(passwordEnv); pw != "" {
		cfg.Password = pw
	}
	if f.configFile != "" && f.configFile != propsFile {
		ws, err := loadFile(f.configFile, func(r io.Reader) ([]string, error) { return config.LoadYAML(cfg, r, f.configFile) })
		if err != nil {
			return nil, err
		}
		warn(ws)
	}
	if propsFile != "" {
		ws, err := loadFile(propsFile, func(r io.Reader) ([]string, error) { return config.LoadProperties(cfg, r, propsFile) })
		if err != nil {
			return nil, err
		}
		warn(ws)
	}
	for _, s := range f.sets {
		w, err := config.SetArgWarn(cfg, s)
		if err != nil {
			return nil, err
		}
		warn(nonEmpty(w))
	}
	for _, k := range flags {
		if cmd.Flags().Changed(k.name) {
			w, err := config.SetWarn(cfg, k.key, k.value)
			if err != nil {
				return nil, err
			}
			warn(nonEmpty(w))
		}
	}
	// --threshold adds to THRESHOLDS from the files.
	for _, e := range f.thresholds {
		if _, err := threshold.Parse(e); err != nil {
			return nil, usageError("--threshold: %v", err)
		}
		cfg.Thresholds = append(cfg.Thresholds, e)
	}
	if err := applyOuts(cfg, f.live.outs); err != nil {
		return nil, err
	}
	if err := tsbs.Apply(cfg); err != nil {
		return nil, usageError("%v", err)
	}
	if err := config.Resolve(cfg); err != nil {
		return nil, err
	}
	if propsFile != "" {
		notes, err := config.IoTBenchmarkRules(cfg, time.Local)
		if err != nil {
			return nil, err
		}
		warn(notes)
	}
	d, err := targets.Lookup(cfg.Target)
	if err != nil {
		return nil, usageError("DB_SWITCH = %q (or --target): %v", cfg.Target, err)
	}
	if err := tsbsSparse(cfg, d); err != nil {
		return nil, err
	}
	keys := make([]string, len(layers))
	for i, l := range layers {
		keys[i] = l.Key
	}
	if err := connect.CheckTargetOptions(d, cfg.TargetOptions, connect.ScenarioTargetOptions(keys)); err != nil {
		return nil, err
	}
	if err := connect.ApplyURLs(cfg, d); err != nil {
		return nil, usageError("%v", err)
	}
	if err := connect.CheckTLS(cfg, d); err != nil {
		return nil, usageError("%v", err)
	}
	if err := fitDefaultTypes(cfg, d, stderr); err != nil {
		return nil, err
	}
	if f.scenario == "" {
		// A scenario's phases differ in their mix; one threshold may apply
		// to some of them only.
		if err := checkThresholdOperations(cfg); err != nil {
			return nil, err
		}
	}
	if err := printWarnings(stderr, warnings, f.strict); err != nil {
		return nil, err
	}
	return cfg, nil
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// ignoredMarker is how config words the warning for an IoT-benchmark key
// tsbench accepts and does not use.
const ignoredMarker = " accepted, ignored: "

// printWarnings shows the warnings once, before anything runs: first, as
// one list, the IoT-benchmark keys tsbench accepts but does not use (an
// IoT-benchmark file has many, all harmless), then each other warning. With
// --strict any warning is an error instead.
func printWarnings(stderr io.Writer, warnings []string, strict bool) error {
	if len(warnings) == 0 {
		return nil
	}
	if strict {
		return usageError("--strict: %d warning(s) refused:\n  %s", len(warnings), strings.Join(warnings, "\n  "))
	}
	var ignored, other []string
	for _, w := range warnings {
		if strings.Contains(w, ignoredMarker) {
			ignored = append(ignored, w)
		} else {
			other = append(other, w)
		}
	}
	if len(ignored) > 0 {
		fmt.Fprintf(stderr, "tsbench: warning: %d IoT-benchmark key(s) accepted but not used by tsbench (--strict refuses them):\n", len(ignored))
		for _, w := range ignored {
			where, why, _ := strings.Cut(w, ignoredMarker)
			fmt.Fprintf(stderr, "  %s: %s\n", where, why)
		}
	}
	for _, w := range other {
		fmt.Fprintln(stderr, "tsbench: warning:", w)
	}
	return nil
}

// scenarioOnlyFlags refuses the flags that shape a scenario when there is
// none: they would do nothing. A TPC-C run reports tpmC per server core, so
// it takes --server-cores.
func scenarioOnlyFlags(cmd *cobra.Command, tpcc bool) error {
	for _, name := range []string{"scale", "repeat", "variant", "server-cores"} {
		if name == "server-cores" && tpcc {
			continue
		}
		if cmd.Flags().Changed(name) {
			return usageError("--%s applies only to a scenario run: add --scenario NAME (see 'tsbench scenarios') or drop --%s", name, name)
		}
	}
	return nil
}

// checkThresholdOperations refuses a threshold on an operation the mix never
// runs: it could only fail, and only after the whole run.
func checkThresholdOperations(cfg *config.Config) error {
	for _, e := range cfg.Thresholds {
		th, err := threshold.Parse(e)
		if err != nil || th.Operation == "" {
			continue
		}
		for i := 0; i < workload.NumOps; i++ {
			if workload.Op(i).String() == th.Operation && cfg.Proportion[i] == 0 {
				return usageError("threshold %q: OPERATION_PROPORTION = %s gives %s weight 0, so the run has none to check",
					e, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(cfg.Proportion)), ":"), "[]"), th.Operation)
			}
		}
	}
	return nil
}

func loadFile(path string, load func(io.Reader) ([]string, error)) ([]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, usageError("%v", err)
	}
	defer fh.Close()
	return load(fh)
}

// execute runs the benchmark and writes every output; its error carries the
// exit status.
func execute(cfg *config.Config, out runOutputs, stdout, stderr io.Writer) error {
	s, err := runBenchmark(cfg, "", out, stdout, stderr)
	if err != nil {
		return err
	}
	return outcome(s)
}

// runBenchmark runs one benchmark, prints it and saves it; label names the
// scenario phase, if any. The run is in the results store from its first
// measured second on.
func runBenchmark(cfg *config.Config, label string, out runOutputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	if cfg.Workload == config.WorkloadTPCC {
		return runTPCC(cfg, label, out, stdout, stderr)
	}
	driver, _ := targets.Lookup(cfg.Target)
	dataDir := datadir.Or(cfg.DataDir)
	runID := runid.New()
	opts := connect.Options(cfg, driver, dataDir)
	r, replay, err := newRunner(cfg, driver, opts, dataDir, stderr)
	if err != nil {
		return nil, err
	}
	r.PriorRows = out.priorRows
	store := openLiveStore(out, dataDir, stderr)
	if cfg.Scaled() {
		if r.Barrier, err = barrierFor(cfg, store, runID); err != nil {
			store.abandon(runID)
			return nil, err
		}
	}
	watch(r, store, cfg, driver, out)
	live, err := startLive(r, cfg, runID, label, driver, out.live, stderr)
	if err != nil {
		store.abandon(runID)
		return nil, err
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopSignals := signals.OnInterrupt(r.Interrupt, cancel, stderr)
	defer stopSignals()
	pipeDone := whileRunning(stdout, r.Interrupt)

	var progress *report.Progress
	if !cfg.Quiet {
		progress = report.NewProgress(stderr, isTerminal(stderr), cfg.ProgressInterval)
		r.Progress = func(t runner.Tick) { progress.Update(snapshot(t)) }
	}
	fmt.Fprintf(stderr, "tsbench: run %s: target %s, %d clients, %d devices x %d sensors, data in %s\n",
		runID, driver.Name, cfg.Clients, cfg.Devices, cfg.Sensors, opts.DataDir)
	if note := connect.TLSNote(cfg); note != "" {
		fmt.Fprintln(stderr, "tsbench: "+note)
	}
	if note := connect.EndpointsNote(cfg); note != "" {
		fmt.Fprintln(stderr, "tsbench: "+note)
	}
	if used := config.IoTBenchmarkDefaultsUsed(cfg); len(used) > 0 {
		fmt.Fprintf(stderr, "tsbench: keys the .properties file leaves out take IoT-benchmark's defaults: %s\n", strings.Join(used, ", "))
	}
	partial := partialRun(cfg, runID, label, driver)
	r.OnMeasure = func(start time.Time) {
		partial.MeasureStarted = start.UTC()
		store.begin(partial)
	}
	s, err := r.Run(ctx)
	pipeDone()
	if progress != nil {
		progress.Finish()
	}
	if err != nil {
		_ = live.finish(nil, stderr)
		store.abandon(runID)
		return nil, connectError(err)
	}
	complete(s, cfg, runID, driver, opts.DataDir)
	s.Replay = replay
	liveErr := live.finish(s, stderr)
	if err := finishRun(s, cfg, label, dataDir, store, out, stdout, stderr); err != nil {
		return s, err
	}
	return s, liveErr
}

// newRunner prepares the run: of generated data, or replaying DATA.
func newRunner(cfg *config.Config, driver *targets.Driver, opts targets.Options, dataDir string, stderr io.Writer) (*runner.Runner, *summary.Replay, error) {
	if cfg.Data == "" {
		r, err := runner.New(cfg, driver, opts)
		if err != nil {
			return nil, nil, &exitError{ExitUsage, err}
		}
		return r, nil, nil
	}
	ds, replay, err := replayData(cfg, dataDir, stderr)
	if err != nil {
		return nil, nil, err
	}
	if err := checkSparse(cfg, driver, ds); err != nil {
		ds.Close()
		return nil, nil, err
	}
	return runner.NewReplay(cfg, driver, opts, ds, repeats(cfg)), replay, nil
}

// finishRun finishes a measured run: thresholds, the run directory and the
// results store, then the console.
func finishRun(s *summary.Summary, cfg *config.Config, label, dataDir string, store *liveStore, out runOutputs, stdout, stderr io.Writer) error {
	runID := s.RunID
	s.Scenario = label
	for _, e := range cfg.Thresholds {
		th, _ := threshold.Parse(e) // checked when the configuration was read
		s.Thresholds = append(s.Thresholds, th.Evaluate(s))
	}
	s.ResultsDir = filepath.Join(dataDir, "runs", runID)
	// Keep the run before printing it: a reader that stops reading early
	// (tsbench run | head) must not leave it half-recorded.
	saved := saveOutputs(s, cfg, out, stderr)
	saved = append(saved, store.finish(s))
	if label != "" {
		fmt.Fprintf(stdout, "==================== %s ====================\n", label)
	}
	if err := report.Console(stdout, s); err != nil && !errors.Is(err, syscall.EPIPE) {
		return &exitError{ExitFailure, err}
	}
	report.Footer(stdout, s)
	for _, line := range saved {
		if line != "" {
			fmt.Fprintln(stdout, line)
		}
	}
	return nil
}

// fitDefaultTypes leaves out of a default INSERT_DATATYPE_PROPORTION the
// types the target cannot store (TEXT on VictoriaMetrics and OpenTSDB), and
// says so: the default is tsbench's choice, not the user's. A proportion
// the user set is kept, and refused before the run if it does not fit.
func fitDefaultTypes(cfg *config.Config, d *targets.Driver, stderr io.Writer) error {
	if cfg.Origin("INSERT_DATATYPE_PROPORTION") != "" || cfg.Data != "" {
		return nil
	}
	fit := runner.FitTypes(d, cfg.TypeProportion)
	if fit == cfg.TypeProportion {
		return nil
	}
	was := runner.ProportionText(cfg.TypeProportion)
	cfg.TypeProportion = fit
	if err := config.Resolve(cfg); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "tsbench: note: the %s target cannot store every type of the default INSERT_DATATYPE_PROPORTION %s: "+
		"it runs with %s (set INSERT_DATATYPE_PROPORTION to choose)\n", d.Name, was, runner.ProportionText(fit))
	return nil
}

// connectError is the exit status of a failed connection: bad input (2)
// when the server offers no TLS where TLS was asked for, a failed run (1)
// otherwise.
func connectError(err error) error {
	if errors.Is(err, targets.ErrNoTLS) {
		return &exitError{ExitUsage, err}
	}
	return &exitError{ExitFailure, err}
}

// partialRun is what is known of a run before it starts: what the results
// store keeps until the run finishes. It is made before the run, so that
// reading the environment never delays the measured phase.
func partialRun(cfg *config.Config, runID, label string, d *targets.Driver) *summary.Summary {
	return &summary.Summary{SchemaVersion: summary.SchemaVersion, RunID: runID, Target: d.Name, Scenario: label,
		Started: time.Now().UTC(), StopReason: "running", OpenModel: cfg.Rate > 0,
		RatePerSecond: cfg.Rate, Config: config.Map(cfg), Environment: sysinfo.Environment(context.Background()),
		Tool: summary.Tool{Version: Version}, Worker: workerOf(cfg)}
}

// complete adds what only the command knows: identity, configuration,
// environment and the tool's own cost.
func complete(s *summary.Summary, cfg *config.Config, runID string, d *targets.Driver, dataPath string) {
	s.RunID = runID
	s.Target = d.Name
	s.Config = config.Map(cfg)
	s.DataPath = dataPath
	serverVersion := s.Environment.ServerVersion
	s.Environment = sysinfo.Environment(context.Background())
	s.Environment.ServerVersion = serverVersion
	u := sysinfo.SelfUsage()
	s.Tool = summary.Tool{Version: Version, CPUSeconds: u.CPUSeconds, PeakRSSBytes: u.PeakRSSBytes,
		MeasuredCPUSeconds: s.Tool.MeasuredCPUSeconds} // the runner's
	if d.Server == "embedded" {
		s.Tool.EmbeddedEngine = d.Name
	}
	s.Tool.CPUSecondsPerMillionPoints = sysinfo.CPUPerMillionPoints(s.Tool.OperationsCPU(), s.OKPoints())
}

// saveOutputs writes the run directory (JSON, CSV), --json and --hdr-log,
// and returns the lines that say where they went; a failure to save is
// reported but does not hide the printed result.
func saveOutputs(s *summary.Summary, cfg *config.Config, out runOutputs, stderr io.Writer) []string {
	if err := report.WriteJSON(filepath.Join(s.ResultsDir, "summary.json"), s); err != nil {
		fmt.Fprintf(stderr, "tsbench: could not save the run in %s: %v\n", s.ResultsDir, err)
	}
	if cfg.CSVOutput {
		if err := report.WriteCSV(s.ResultsDir, s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write CSV files in %s: %v\n", s.ResultsDir, err)
		}
	}
	if cfg.JSONPath != "" {
		if err := report.WriteJSON(cfg.JSONPath, s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write %s: %v\n", cfg.JSONPath, err)
		}
	}
	var lines []string
	if out.hdrLog != "" {
		if path, err := results.WriteHDRLogFile(out.hdrLog, s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not write the HDR log in %s: %v\n", out.hdrLog, err)
		} else {
			lines = append(lines, "HDR log: "+path)
		}
	}
	return append(lines, "Data: "+s.DataPath, "Results: "+s.ResultsDir)
}

// outcome maps a finished run to its exit status.
func outcome(s *summary.Summary) error {
	switch s.Status() {
	case "interrupted":
		return &exitError{code: ExitInterrupted}
	case "verify-failed":
		return &exitError{code: ExitVerify}
	case "threshold-failed":
		return &exitError{code: ExitThreshold}
	case "failed", "incomplete":
		return &exitError{code: ExitFailure}
	}
	return nil
}

// snapshot is the progress line's view of a tick: the share of LOOP done
// when LOOP ends the run, the time left when the duration does (with both,
// whichever is projected to end it first), and the last second's p99.
func snapshot(t runner.Tick) report.Snapshot {
	s := report.Snapshot{Elapsed: t.Elapsed, Done: float64(t.DoneOps), Total: float64(t.TotalOps),
		OpsPerSec: t.OpsPerSec, PointsPerSec: t.PointsPerSec, Errors: t.Errors, Phase: t.Phase, P99MS: t.P99MS}
	if t.Deadline > 0 {
		s.TimeLeft = max(0, t.Deadline-t.Elapsed)
	}
	if !t.LoopBound {
		s.Total = 0
	}
	if s.Total > 0 && s.TimeLeft > 0 && s.Done > 0 {
		loopLeft := time.Duration(float64(t.Elapsed) * (s.Total - s.Done) / s.Done)
		if s.TimeLeft < loopLeft {
			s.Total = 0 // the duration ends the run first: show the time left
		}
	}
	return s
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && report.IsTerminal(f)
}
