package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/run"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/threshold"
	"github.com/tsbench/tsbench/internal/tsbs"
	"github.com/tsbench/tsbench/internal/workload"
)

// passwordEnv gives the database password (PASSWORD) when no file or flag
// does.
const passwordEnv = "TSBENCH_PASSWORD"

// loadConfig applies defaults, scenario, files, --set and flags in order.
// A scenario run calls it once per phase with that phase's settings.
func loadConfig(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stderr io.Writer, layers ...scenario.Setting) (*config.Config, error) {
	propsFile := f.propertiesFile()
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
	ws, line, err := applyInputs(cmd, f, flags, cfg, propsFile)
	if err != nil {
		return nil, err
	}
	warn(ws)
	if err := applyTSBSFlags(cmd, f, flags, cfg, line); err != nil {
		return nil, err
	}
	// --threshold adds to THRESHOLDS from the files.
	for _, e := range f.thresholds {
		if _, err := threshold.Syntax(e); err != nil {
			return nil, exit.Usagef("--threshold: %v", err)
		}
		cfg.Thresholds = append(cfg.Thresholds, e)
	}
	// --find-max adds to FIND_MAX from the files.
	for _, e := range f.findMax {
		if _, err := threshold.Syntax(e); err != nil {
			return nil, exit.Usagef("--find-max: %v", err)
		}
		cfg.FindMax = append(cfg.FindMax, e)
	}
	if err := applyOuts(cfg, f.Live.Outs); err != nil {
		return nil, err
	}
	if err := tsbs.Apply(cfg); err != nil {
		return nil, exit.Usagef("%v", err)
	}
	if err := tsbsFlagsApply(cmd, f, cfg); err != nil {
		return nil, err
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
	if err := checkForTarget(cfg, layers, stderr); err != nil {
		return nil, err
	}
	if err := run.ReadQueryFile(cfg); err != nil {
		return nil, err
	}
	if f.scenario == "" {
		// A scenario's phases differ in their mix; one threshold may apply
		// to some of them only.
		if err := workload.CheckThresholdOperations(cfg); err != nil {
			return nil, exit.Usagef("%v", err)
		}
	}
	if len(warnings) > 0 && f.strict {
		return nil, exit.Usagef("--strict: %d warning(s) refused:\n  %s", len(warnings), strings.Join(warnings, "\n  "))
	}
	run.PrintConfigWarnings(stderr, warnings)
	return cfg, nil
}

// checkForTarget checks the configuration against its target, and fits
// it where the target asks (URLs, TLS, default types); notes go to
// stderr. layers are a scenario phase's settings.
func checkForTarget(cfg *config.Config, layers []scenario.Setting, stderr io.Writer) error {
	d, err := targets.Lookup(cfg.Target)
	if err != nil {
		return exit.Usagef("DB_SWITCH = %q (or --target): %v", cfg.Target, err)
	}
	if err := tsbsSparse(cfg, d); err != nil {
		return err
	}
	if note := run.TSBSTargetOptions(cfg, d); note != "" {
		fmt.Fprintln(stderr, "tsbench: note: "+note)
	}
	keys := make([]string, len(layers))
	for i, l := range layers {
		keys[i] = l.Key
	}
	if err := connect.CheckTargetOptions(d, cfg.TargetOptions, connect.ScenarioTargetOptions(keys)); err != nil {
		return err
	}
	if err := connect.ApplyURLs(cfg, d); err != nil {
		return exit.Usagef("%v", err)
	}
	if err := connect.CheckTLS(cfg, d); err != nil {
		return exit.Usagef("%v", err)
	}
	if cfg.Workload == config.WorkloadPrometheus {
		return nil // its samples are float64 scrapes: INSERT_DATATYPE_PROPORTION means nothing to it
	}
	note, err := runner.FitDefaultTypes(cfg, d)
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintln(stderr, "tsbench: note: "+note)
	}
	return nil
}

// propertiesFile is the IoT-benchmark config.properties file the command
// reads, "" when none: --properties, or --config naming a .properties
// file, whichever flag named it.
func (f *runFlags) propertiesFile() string {
	if strings.HasSuffix(f.configFile, ".properties") {
		return f.configFile
	}
	return f.properties
}

// peekConfig is the configuration the user's inputs give on the defaults
// alone, before any scenario: what the command line names decides which
// runs (a TSBS workload is a scenario), so it is read before them.
func peekConfig(cmd *cobra.Command, f *runFlags, flags []*keyFlag) (*config.Config, error) {
	propsFile := f.propertiesFile()
	cfg := config.Default()
	if propsFile != "" {
		cfg = config.IoTBenchmarkDefault()
	}
	if _, _, err := applyInputs(cmd, f, flags, cfg, propsFile); err != nil {
		return nil, err
	}
	return cfg, nil
}

// applyInputs applies the user's inputs to cfg in order of precedence: the
// YAML file, the .properties file, --set, then the key flags; one setting
// given twice on the command line (by --set, or by --set and its key flag)
// with two values is refused (config.CommandLine). A key flag
// that TSBS's vocabulary gives another key in a TSBS run (--queries) is
// left to applyTSBSFlags, which knows by then whether the run is one; it
// applies them on the command line returned, so that they too are checked
// against --set.
func applyInputs(cmd *cobra.Command, f *runFlags, flags []*keyFlag, cfg *config.Config, propsFile string) ([]string, *config.CommandLine, error) {
	var warnings []string
	if f.configFile != "" && f.configFile != propsFile {
		ws, err := loadFile(f.configFile, func(r io.Reader) ([]string, error) { return config.LoadYAML(cfg, r, f.configFile) })
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, ws...)
	}
	if propsFile != "" {
		ws, err := loadFile(propsFile, func(r io.Reader) ([]string, error) { return config.LoadProperties(cfg, r, propsFile) })
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, ws...)
	}
	// The command line overrides the files, but gives each setting once:
	// --set K=a --set K=b, or --set CLIENT_NUMBER=4 --clients 8, is refused.
	line := config.NewCommandLine(cfg)
	for _, s := range f.sets {
		w, err := line.SetArg(s)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, nonEmpty(w)...)
	}
	for _, k := range flags {
		if cmd.Flags().Changed(k.name) && k.tsbsKey == "" {
			w, err := line.SetFlag(k.name, k.key, k.value)
			if err != nil {
				return nil, nil, err
			}
			warnings = append(warnings, nonEmpty(w)...)
		}
	}
	return warnings, line, nil
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// scenarioOnlyFlags refuses the flags that shape a scenario when there is
// none, except those allowed: they would do nothing. A TPC-C run reports
// tpmC per server core, so it takes --server-cores; in a TSBS run --scale
// is TSBS's (the hosts), which applyTSBSFlags applied.
func scenarioOnlyFlags(cmd *cobra.Command, cfg *config.Config, allowed ...string) error {
	tpcc := cfg.Workload == config.WorkloadTPCC
	for _, name := range []string{"scale", "repeat", "variant", "server-cores"} {
		if (name == "server-cores" && tpcc) || (name == "scale" && tsbs.Active(cfg)) || slices.Contains(allowed, name) {
			continue
		}
		if cmd.Flags().Changed(name) {
			hint := ""
			if name == "scale" {
				hint = " (or, as TSBS's --scale, the hosts of a TSBS workload: --workload tsbs-cpu-only ...)"
			}
			return exit.Usagef("--%s applies only to a scenario run%s: add --scenario NAME (see 'tsbench scenarios') or drop --%s", name, hint, name)
		}
	}
	return nil
}

func loadFile(path string, load func(io.Reader) ([]string, error)) ([]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, exit.Usagef("%v", err)
	}
	defer fh.Close()
	return load(fh)
}
