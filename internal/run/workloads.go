package run

import (
	"fmt"
	"io"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/summary"
)

// workloadKind is one kind of run: how a configuration asks for it, the keys
// that shape it alone, the settings it cannot take, and how it runs. The
// table below is the one place that says which keys apply to which run:
// a key a workload owns is refused on every other (derived, not listed
// again), and a workload's own refusals stand beside it. Every workload
// runs under the same engine and run layer, which give it the run's rate,
// duration, warm-up, thresholds, find-max, repetitions, crash, live
// outputs and resources; what is here is the workload's own.
type workloadKind struct {
	// name is how a refusal names a run of it.
	name string
	// asks reports whether a configuration asks for this workload; the
	// table's first match is the run's. asking is how a user asks for it.
	asks   func(cfg *config.Config) bool
	asking []string
	// owns are the keys that shape this workload only; shapes says so to
	// a run of another ("it shapes a TPC-C run: add --workload tpcc").
	owns   []string
	shapes string
	// refuses are the settings this workload cannot take.
	refuses []refusal
	// check refuses what the table's rows cannot say (nil: nothing).
	check func(cfg *config.Config) error
	run   func(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*summary.Summary, error)
}

// refusal is a setting a workload cannot take, and why: keys are the keys
// that give it, refused when changed from their defaults; or, when set is
// given, when set says the configuration has the setting (and how to show
// it).
type refusal struct {
	keys []string
	set  func(cfg *config.Config) (shown string, ok bool)
	why  string
}

// tpccKeys, promKeys and tsbsFileKeys are the keys the TPC-C, prometheus
// and TSBS query-file runs own.
var (
	tpccKeys     = []string{"TPCC_WAREHOUSES", "TPCC_THINK_TIME", "TPCC_LOAD", "TPCC_TABLES", "TPCC_TABLESPACE", "TPCC_MODE"}
	promKeys     = []string{"PROM_PROFILE", "PROM_HISTOGRAMS", "PROM_TARGETS", "PROM_SCRAPE_INTERVAL", "PROM_CHURN_SHARE", "PROM_CHURN_PERIOD", "PROM_CHURN", "PROM_SPIKE_EVERY", "PROM_SPIKE_SHARE", "PROM_SCRAPES", "PROM_READS", "PROM_TIME"}
	tsbsFileKeys = []string{"TSBS_BURN_IN", "TSBS_MAX_QUERIES", "TSBS_PRINT_RESPONSES"}
)

// workloadKinds are every workload a run drives, in the order a
// configuration is matched against them.
var workloadKinds = []workloadKind{
	{
		name:   "WORKLOAD = tpcc",
		asks:   func(cfg *config.Config) bool { return cfg.Workload == config.WorkloadTPCC },
		asking: []string{"WORKLOAD=tpcc"},
		owns:   tpccKeys, shapes: "it shapes a TPC-C run: add --workload tpcc",
		refuses: []refusal{
			{keys: []string{"FRESHNESS"}, why: "the freshness probe times a written series until a reader sees it, beside a time " +
				"series workload; a TPC-C terminal reads what it committed in its own transactions"},
			{keys: []string{"QUERY_FILE", "QUERY_ONLY"}, why: "your own queries run beside a time series workload; TPC-C runs its " +
				"five transactions"},
			{keys: []string{"TSBS_QUERY_FILE"}, why: "a TSBS query file is a workload of its own; run it apart"},
			{keys: []string{"OP_MIN_INTERVAL", "OP_MIN_INTERVAL_RANDOM"}, why: "a TPC-C terminal is paced by TPCC_THINK_TIME " +
				"(the specification's keying and think times) or all of them by RATE"},
			{keys: []string{"RETRIES"}, why: "a failed transaction is counted under the server's message, not sent again"},
			{keys: []string{"CRASH_PARTITION"}, why: "not built for this workload yet: the relay stands before a time series " +
				"run's connections"},
		},
		run: runTPCC,
	},
	{
		name:   "WORKLOAD = prometheus",
		asks:   func(cfg *config.Config) bool { return cfg.Workload == config.WorkloadPrometheus },
		asking: []string{"WORKLOAD=prometheus"},
		owns:   promKeys, shapes: "it shapes a prometheus run: add --workload prometheus",
		refuses: []refusal{
			{keys: []string{"HOST"}, why: "not built for this workload yet", set: func(cfg *config.Config) (string, bool) {
				return "HOST = " + cfg.Host + ": several hosts", strings.Contains(cfg.Host, ",")
			}},
			{keys: []string{"QUERY_FILE", "QUERY_ONLY", "TSBS_QUERY_FILE", "DATA", "QUERY_CHECKS", "OPERATION_PROPORTION"},
				why: "it shapes a time series run; the prometheus workload writes its scrapes and checks its own rules, alerts " +
					"and dashboards"},
			{keys: []string{"OP_MIN_INTERVAL", "OP_MIN_INTERVAL_RANDOM", "WRITE_URL", "QUERY_URL", "CRASH_PARTITION"},
				why: "not built for this workload yet"},
		},
		check: promKeysApply,
		run:   runPrometheus,
	},
	{
		name:   "TSBS_QUERY_FILE (--tsbs-queries)",
		asks:   func(cfg *config.Config) bool { return cfg.TSBSQueryFile != "" },
		asking: []string{"TSBS_QUERY_FILE=queries.gob"},
		owns:   tsbsFileKeys, shapes: "it applies to a TSBS query file; give one with --tsbs-queries FILE",
		// Each setting as the run takes it (a field set, not only a key
		// changed), shown as the user gave it.
		refuses: []refusal{
			{keys: []string{"TSBS_USE_CASE"}, why: "a tsbs-* workload generates its own questions",
				set: func(cfg *config.Config) (string, bool) {
					return "TSBS_USE_CASE = " + cfg.TSBSUseCase, cfg.TSBSUseCase != ""
				}},
			{keys: []string{"DATA"}, why: "the file's queries read the data already on the server",
				set: func(cfg *config.Config) (string, bool) { return "DATA = " + cfg.Data, cfg.Data != "" }},
			{keys: []string{"QUERY_FILE"}, why: "one run takes one query file",
				set: func(cfg *config.Config) (string, bool) { return "QUERY_FILE = " + cfg.QueryFile, cfg.QueryFile != "" }},
			{keys: []string{"WARMUP"}, why: "use --burn-in N, as TSBS's runners do",
				set: func(cfg *config.Config) (string, bool) { return "--warmup = " + cfg.Warmup.String(), cfg.Warmup > 0 }},
			{keys: []string{"DURATION"}, why: "the run ends with its queries; use --max-queries N",
				set: func(cfg *config.Config) (string, bool) {
					return "--duration = " + cfg.MaxTime.String(), cfg.RunFor && cfg.MaxTime > 0
				}},
			{keys: []string{"CRASH_AT"}, why: "a crash maps written points, and this run writes none",
				set: func(cfg *config.Config) (string, bool) { return "CRASH_AT = " + cfg.CrashAt.String(), cfg.CrashAt > 0 }},
			{keys: []string{"target.write_path"}, why: "the file's queries read; the run writes nothing",
				set: func(cfg *config.Config) (string, bool) {
					w := cfg.TargetOptions["write_path"]
					return "target.write_path = " + w, w != ""
				}},
			{keys: []string{"FRESHNESS"}, why: "the probe writes beside a workload that writes",
				set: func(cfg *config.Config) (string, bool) { return "FRESHNESS = true", cfg.Freshness }},
			{keys: []string{"FIND_MAX"}, why: "find-max paces an open model",
				set: func(cfg *config.Config) (string, bool) { return "FIND_MAX", len(cfg.FindMax) > 0 }},
			{keys: []string{"WORKERS"}, why: "a query file runs in one process",
				set: func(cfg *config.Config) (string, bool) {
					return fmt.Sprintf("WORKERS = %d", cfg.Workers), cfg.Workers > 1
				}},
		},
		run: runTSBSQueries,
	},
	{
		name:  "WORKLOAD = timeseries",
		asks:  func(*config.Config) bool { return true },
		check: timeSeriesWritePath,
		run:   runTimeSeries,
	},
}

// promKeysApply refuses, on a prometheus run, a time series run's shape
// and reads while writing split between worker processes.
func promKeysApply(cfg *config.Config) error {
	if err := timeSeriesShapeKeys(cfg); err != nil {
		return err
	}
	if cfg.PromTime == "now" {
		// The scrape interval paces a real-time run; another pace would
		// stamp samples at times other than their sending.
		switch {
		case cfg.Rate > 0:
			return exit.Usagef("RATE = %v: not with PROM_TIME = now: the scrapes are written at their times, one "+
				"PROM_SCRAPE_INTERVAL apart (PROM_TARGETS and the interval set the rate); use PROM_TIME = past for a rate of your own", cfg.Rate)
		case len(cfg.FindMax) > 0:
			return exit.Usagef("FIND_MAX: not with PROM_TIME = now: a real-time run's pace is its scrape interval; " +
				"find-max searches rates with PROM_TIME = past")
		}
	}
	if cfg.PromReads == "while" && cfg.Workers > 1 {
		return exit.Usagef("PROM_READS = while: not with WORKERS = %d: a query waits for the scrapes up to its time, "+
			"which no worker process knows of the others; use PROM_READS = after, or one process", cfg.Workers)
	}
	return nil
}

// timeSeriesWritePath refuses OTLP (target.write_path=otlp), which only
// the prometheus workload writes.
func timeSeriesWritePath(cfg *config.Config) error {
	if cfg.TargetOptions["write_path"] == "otlp" {
		return exit.Usagef("target.write_path = otlp: not with WORKLOAD = %s: OTLP is written by the prometheus workload "+
			"(--workload prometheus); a time series run writes by the target's other write paths", cfg.Workload)
	}
	return nil
}

// kindOf is the workload cfg asks for.
func kindOf(cfg *config.Config) *workloadKind {
	for i := range workloadKinds {
		if workloadKinds[i].asks(cfg) {
			return &workloadKinds[i]
		}
	}
	return &workloadKinds[len(workloadKinds)-1] // (unreached: the time series row matches every configuration)
}

// workloadKeys refuses a setting the run's workload cannot take: a key of
// another workload's, one of its own refusals, or a key saying how DATA is
// read on a run that replays none.
func workloadKeys(cfg *config.Config) error {
	if err := dataReadingKeys(cfg); err != nil {
		return err
	}
	w := kindOf(cfg)
	run := w.name
	if len(w.asking) == 0 { // the time series row: WORKLOAD = tsbs-iot is one too
		run = "WORKLOAD = " + cfg.Workload
	}
	for _, o := range workloadKinds {
		if o.name == w.name {
			continue
		}
		for _, key := range o.owns {
			if v, ok := cfg.Changed(key); ok {
				return exit.Usagef("%s = %s: not with %s: %s", key, v, run, o.shapes)
			}
		}
	}
	for _, r := range w.refuses {
		if shown, ok := r.has(cfg); ok {
			return exit.Usagef("%s: not with %s: %s", shown, run, r.why)
		}
	}
	if w.check != nil {
		return w.check(cfg)
	}
	return nil
}

// has says whether cfg has the refused setting, and how to show it.
func (r refusal) has(cfg *config.Config) (string, bool) {
	if r.set != nil {
		return r.set(cfg)
	}
	for _, key := range r.keys {
		if v, ok := cfg.Changed(key); ok {
			return fmt.Sprintf("%s = %s", key, v), true
		}
	}
	return "", false
}
