package cli

// TSBS's own flag names (issue 67). A TSBS user types tsbs_generate_data's
// --use-case, --seed, --scale, --timestamp-start, --timestamp-end and
// --log-interval, and tsbs_generate_queries' --queries: run and generate
// take them beside the TSBS_* keys, in a TSBS run only, and refuse them in
// any other, where they would do nothing.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// tsbsFlags are a command's TSBS flags.
type tsbsFlags struct {
	// flags set their key in a TSBS run and are refused in any other.
	flags []*keyFlag
	// scale is run's --scale as given, when the run is a TSBS one: there it
	// is TSBS's --scale, the hosts, not a scenario's factor.
	scale string
	// file: generate --format writes TSBS's own file, whose rows TSBS_SEED
	// seeds for cpu-only and iot alike.
	file bool
}

// tsbsElsewhere says, for each TSBS flag refused outside a TSBS run, what
// sets the same thing in tsbench's own workload.
var tsbsElsewhere = map[string]string{
	"seed":            "tsbench's own data is seeded by DATA_SEED",
	"scale":           "tsbench's own data has --devices devices",
	"timestamp-start": "tsbench's own data starts at START_TIME",
	"timestamp-end":   "tsbench's own data lasts --loop batches (or --duration)",
	"log-interval":    "tsbench's own rows are POINT_STEP apart",
}

// tsbsOwnFlags are TSBS's flags a command adds as they are; withScale adds
// --scale, which 'tsbench run' has already as a scenario's factor.
func tsbsOwnFlags(withScale bool) []*keyFlag {
	out := []*keyFlag{
		{name: "use-case", key: "TSBS_USE_CASE", usage: "TSBS's --use-case: cpu-only, devops or iot, the workload tsbs-NAME (as --workload tsbs-NAME)"},
		{name: "seed", key: "TSBS_SEED", usage: "TSBS's --seed (TSBS_SEED): the seed of TSBS's own rows (cpu-only; iot too with generate --format)"},
		{name: "timestamp-start", key: "TSBS_START", usage: "TSBS's --timestamp-start (TSBS_START, RFC 3339): the first row's time"},
		{name: "timestamp-end", key: "TSBS_END", usage: "TSBS's --timestamp-end (TSBS_END, RFC 3339, excluded): the rows end before it"},
		{name: "log-interval", key: "TSBS_LOG_INTERVAL", usage: "TSBS's --log-interval (TSBS_LOG_INTERVAL): time between a host's rows, e.g. 10s"},
	}
	if withScale {
		out = append(out, &keyFlag{name: "scale", key: "TSBS_SCALE", usage: "TSBS's --scale (TSBS_SCALE): hosts (trucks for iot)"})
	}
	return out
}

func addTSBSFlags(fl *pflag.FlagSet, t *tsbsFlags) {
	for _, k := range t.flags {
		fl.StringVar(&k.value, k.name, "", k.usage)
	}
}

func (t *tsbsFlags) flag(name string) *keyFlag {
	for _, k := range t.flags {
		if k.name == name {
			return k
		}
	}
	return nil
}

// tsbsWorkload makes a run that names a TSBS workload the scenario of
// that name: TSBS's use cases are multi-phase runs. In a TSBS run, one
// that names a TSBS workload or sets TSBS_USE_CASE itself (a single TSBS
// phase), --scale is TSBS's.
func tsbsWorkload(cmd *cobra.Command, f *runFlags, flags []*keyFlag) error {
	peek, err := peekConfig(cmd, f, flags)
	if err != nil {
		return err
	}
	uc, err := namedUseCase(cmd, f, flags, peek)
	if err != nil {
		return err
	}
	if uc != "" && f.scenario == "" {
		f.scenario = tsbs.WorkloadPrefix + uc
	}
	if cmd.Flags().Changed("scale") && (uc != "" || tsbs.Active(peek)) {
		f.tsbs.scale = cmd.Flags().Lookup("scale").Value.String()
		f.scale = 1 // the scenario's factor: TSBS's phases scale nothing
	}
	return nil
}

// generateLayers are the settings 'tsbench generate' of a TSBS workload
// starts from: the load phase of the workload's scenario, so that TSBS's
// defaults (docs/tsbs.md) fill what the command line leaves out. None for
// tsbench's own workload; TPC-C, which generates no time series, and the
// prometheus workload, whose generator is not built, are refused.
func generateLayers(cmd *cobra.Command, f *runFlags, flags []*keyFlag) ([]scenario.Setting, error) {
	peek, err := peekConfig(cmd, f, flags)
	if err != nil {
		return nil, err
	}
	if peek.Workload == config.WorkloadTPCC {
		return nil, exit.Usagef("generate: WORKLOAD = tpcc: TPC-C loads its own tables when it runs ('tsbench run --workload tpcc'); "+
			"generate writes time series: allowed: timeseries, %s", strings.Join(config.WorkloadsTSBS, ", "))
	}
	if peek.Workload == config.WorkloadPrometheus {
		return nil, exit.Usagef("generate: WORKLOAD = prometheus: not built for this workload yet: its scrapes are written by "+
			"'tsbench run --workload prometheus'; allowed: timeseries, %s", strings.Join(config.WorkloadsTSBS, ", "))
	}
	uc, err := namedUseCase(cmd, f, flags, peek)
	if err != nil {
		return nil, err
	}
	if uc == "" && slices.Contains(tsbs.Names(), peek.TSBSUseCase) {
		uc = peek.TSBSUseCase // TSBS_USE_CASE set as a key
	}
	if uc == "" {
		return nil, nil
	}
	sc, err := scenario.Lookup(tsbs.WorkloadPrefix + uc)
	if err != nil {
		return nil, fmt.Errorf("generate: the scenario of TSBS's %s: %w", uc, err)
	}
	if sc.Phases[0].Name != tsbs.PhaseLoad {
		return nil, fmt.Errorf("generate: the scenario of TSBS's %s has no load phase first", uc)
	}
	return sc.PhaseSettings(0, "", 1)
}

// namedUseCase is the TSBS use case the command line names, "" for none,
// by any of its names: --workload tsbs-NAME, else WORKLOAD = tsbs-NAME in a
// file or --set (a flag overrides them); TSBS's --use-case NAME; --scenario
// tsbs-NAME. Names of two workloads, or a TSBS one beside a scenario or
// workload of tsbench's, are refused naming both.
func namedUseCase(cmd *cobra.Command, f *runFlags, flags []*keyFlag, peek *config.Config) (string, error) {
	type naming struct{ by, useCase string }
	var tsbsNames []naming
	other := "" // a workload or scenario named that is not TSBS's
	if k := flagNamed(flags, "workload"); k != nil && cmd.Flags().Changed(k.name) {
		if uc, ok := tsbs.WorkloadUseCase(k.value); ok {
			tsbsNames = append(tsbsNames, naming{"--workload " + k.value, uc})
		} else {
			other = "--workload " + k.value
		}
	} else if uc, ok := tsbs.WorkloadUseCase(peek.Workload); ok {
		tsbsNames = append(tsbsNames, naming{"WORKLOAD = " + peek.Workload, uc})
	}
	if k := f.tsbs.flag("use-case"); k != nil && cmd.Flags().Changed(k.name) {
		tsbsNames = append(tsbsNames, naming{"--use-case " + k.value, strings.ToLower(strings.TrimSpace(k.value))})
	}
	if uc, ok := tsbs.WorkloadUseCase(f.scenario); ok {
		tsbsNames = append(tsbsNames, naming{"--scenario " + f.scenario, uc})
	} else if f.scenario != "" {
		other = "--scenario " + f.scenario
	}
	for _, n := range tsbsNames {
		if !slices.Contains(tsbs.Names(), n.useCase) {
			return "", exit.Usagef("%s: TSBS has no use case %q here: allowed: %s (the workloads %s)", n.by, n.useCase,
				strings.Join(tsbs.Names(), ", "), strings.Join(config.WorkloadsTSBS, ", "))
		}
	}
	switch {
	case len(tsbsNames) == 0:
		return "", nil
	case other != "":
		return "", exit.Usagef("%s names TSBS's workload %s%s, and %s another: give one", tsbsNames[0].by, tsbs.WorkloadPrefix,
			tsbsNames[0].useCase, other)
	}
	for _, n := range tsbsNames[1:] {
		if n.useCase != tsbsNames[0].useCase {
			return "", exit.Usagef("%s and %s name two TSBS workloads: give one", tsbsNames[0].by, n.by)
		}
	}
	return tsbsNames[0].useCase, nil
}

func flagNamed(flags []*keyFlag, name string) *keyFlag {
	for _, k := range flags {
		if k.name == name {
			return k
		}
	}
	return nil
}

// tsbsRun reports whether cfg, as the inputs left it, is a TSBS run: its
// workload is TSBS's, or it sets TSBS_USE_CASE itself.
func tsbsRun(cfg *config.Config) bool {
	_, named := tsbs.WorkloadUseCase(cfg.Workload)
	return named || tsbs.Active(cfg)
}

// applyTSBSFlags sets the keys of the TSBS flags given, after the other
// inputs (a flag overrides a file): in a TSBS run their TSBS keys, --scale
// and --queries included; elsewhere --queries is the own query file and
// every other TSBS flag is refused, naming what sets the same there.
func applyTSBSFlags(cmd *cobra.Command, f *runFlags, flags []*keyFlag, cfg *config.Config, line *config.CommandLine) error {
	active := tsbsRun(cfg)
	for _, k := range f.tsbs.flags {
		if !cmd.Flags().Changed(k.name) {
			continue
		}
		if !active {
			return exit.Usagef("--%s is TSBS's --%s (%s): it applies to a TSBS workload only: give --workload %s "+
				"(or --use-case NAME); %s", k.name, k.name, k.key, strings.Join(config.WorkloadsTSBS, ", "), tsbsElsewhere[k.name])
		}
		v := k.value
		if k.key == "TSBS_USE_CASE" {
			v = strings.ToLower(strings.TrimSpace(v)) // as namedUseCase read it: TSBS's names are lower case
		}
		if err := setByFlag(line, k.name, k.key, v, ""); err != nil {
			return err
		}
	}
	if f.tsbs.scale != "" {
		n, err := strconv.ParseFloat(f.tsbs.scale, 64)
		if err != nil || n < 1 || n != float64(int64(n)) {
			return exit.Usagef("--scale = %s: in a TSBS run it is TSBS's --scale (TSBS_SCALE), the hosts: a whole number >= 1", f.tsbs.scale)
		}
		if err := setByFlag(line, "scale", "TSBS_SCALE", strconv.FormatInt(int64(n), 10), ""); err != nil {
			return err
		}
	}
	for _, k := range flags {
		if k.tsbsKey == "" || !cmd.Flags().Changed(k.name) {
			continue
		}
		if !active {
			if err := setByFlag(line, k.name, k.key, k.value, ""); err != nil {
				return err
			}
			continue
		}
		hint := fmt.Sprintf("in a TSBS run --%s is TSBS's (%s); for its other meaning set %s itself (--set %s=...)", k.name, k.tsbsKey, k.key, k.key)
		if err := setByFlag(line, k.name, k.tsbsKey, k.value, hint); err != nil {
			return err
		}
	}
	return nil
}

// setByFlag sets key from flag --name on the command line, where --set
// may have given it another value (refused, naming both); a refused value
// names the flag, the key and what is allowed, and the hint when there is
// one.
func setByFlag(line *config.CommandLine, name, key, value, hint string) error {
	if _, err := line.SetFlag(name, key, value); err != nil {
		var ce *config.Error
		if errors.As(err, &ce) && ce.Key != "" {
			ce.Source = "--" + name
		}
		if hint != "" {
			return exit.Usagef("%v (%s)", err, hint)
		}
		return exit.Usagef("%v", err)
	}
	return nil
}

// tsbsFlagsApply refuses, once the TSBS keys are applied, a TSBS flag the
// run at hand does not use: --seed where no row is TSBS's own (devops, and
// iot but in generate --format's file), --queries in a single load or
// mixed phase, which asks no query type.
func tsbsFlagsApply(cmd *cobra.Command, f *runFlags, cfg *config.Config) error {
	if !tsbs.Active(cfg) {
		return nil
	}
	if k := f.tsbs.flag("seed"); k != nil && cmd.Flags().Changed(k.name) {
		own, _ := tsbs.OwnValues(cfg)
		if !own && !(f.tsbs.file && slices.Contains(tsbs.ExactUseCases, cfg.TSBSUseCase)) {
			return exit.Usagef("--seed %s: TSBS's seed makes TSBS's own rows, and this %s run writes tsbench's (TSBS_VALUES = %s; "+
				"its values are seeded by DATA_SEED): drop --seed; TSBS's own rows are written for cpu-only, and by generate --format for %s",
				k.value, cfg.TSBSUseCase, cfg.TSBSValues, strings.Join(tsbs.ExactUseCases, " and "))
		}
	}
	if f.scenario == "" && cmd.Flags().Lookup("queries") != nil && cmd.Flags().Changed("queries") &&
		(cfg.TSBSPhase == tsbs.PhaseLoad || cfg.TSBSPhase == tsbs.PhaseMixed) {
		return exit.Usagef("--queries: TSBS's --queries counts the queries of each query type, and a TSBS_PHASE = %s run asks none: "+
			"drop it, or run the workload whole (--workload %s%s)", cfg.TSBSPhase, tsbs.WorkloadPrefix, cfg.TSBSUseCase)
	}
	return nil
}
