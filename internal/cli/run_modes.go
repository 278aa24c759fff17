package cli

// The run's modes besides a single run: a scenario's phases, repetitions
// and several targets. Each reads every configuration it needs before the
// first run starts, then hands them to the run layer.

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/run"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/targets"
)

// executeScenario runs every phase of a scenario (--repeat times), each as
// its own run with its own matrices, then prints the published figures
// beside the measured ones. With several targets (--target a,b) it runs the
// whole scenario on each in turn and then prints the systems side by side.
func executeScenario(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stdout, stderr io.Writer) error {
	sc, err := scenario.Lookup(f.scenario)
	if err != nil {
		return exit.Usagef("--scenario: %v", err)
	}
	tf := targetFlag(flags)
	if tf == nil || !strings.Contains(tf.value, ",") {
		_, err := runScenario(cmd, f, flags, sc, stdout, stderr)
		return err
	}
	names, err := scenarioTargets(tf.value)
	if err != nil {
		return err
	}
	var all []scenario.SystemRows
	var worst error
	for _, name := range names {
		tf.value = name
		res, err := runScenario(cmd, f, flags, sc, stdout, stderr)
		if res == nil {
			return err
		}
		worst = run.Worse(worst, err)
		all = append(all, scenario.SystemRows{Target: name, Rows: res.Rows})
		if res.Interrupted {
			break
		}
	}
	if err := sc.PrintSystems(stdout, scenario.CompareSystems(all)); err != nil {
		return err
	}
	return worst
}

func targetFlag(flags []*keyFlag) *keyFlag {
	for _, k := range flags {
		if k.name == "target" {
			return k
		}
	}
	return nil
}

// scenarioTargets splits --target a,b and checks every name before the
// first run starts.
func scenarioTargets(list string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		d, err := targets.Lookup(n)
		if err != nil {
			return nil, exit.Usagef("--target = %q: %v", list, err)
		}
		if seen[d.Name] {
			return nil, exit.Usagef("--target = %q: %s is named twice", list, d.Name)
		}
		seen[d.Name] = true
		names = append(names, d.Name)
	}
	return names, nil
}

// runScenario runs the scenario against one target. It returns the result
// (nil when nothing ran) and the run's exit error.
func runScenario(cmd *cobra.Command, f *runFlags, flags []*keyFlag, sc *scenario.Scenario, stdout, stderr io.Writer) (*run.ScenarioResult, error) {
	if err := sc.CheckVariant(f.variant); err != nil {
		return nil, exit.Usagef("--variant: %v", err)
	}
	if f.scale <= 0 {
		return nil, exit.Usagef("--scale = %v: must be a number > 0 (e.g. 0.01)", f.scale)
	}
	repeat := f.repeat
	if repeat == 0 {
		repeat = max(1, sc.Repeat)
	}
	if repeat < 0 {
		return nil, exit.Usagef("--repeat = %d: must be >= 1", repeat)
	}
	cores := f.serverCores
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	f.Outputs.ServerCores = cores
	configs, err := phaseConfigs(cmd, f, flags, sc, stderr)
	if err != nil {
		return nil, err
	}
	if f.printConfig {
		for i, c := range configs {
			fmt.Fprintf(stdout, "# phase %s\n", sc.Phases[i].Name)
			if err := config.Print(c, stdout); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	return run.Scenario(run.ScenarioPlan{Scenario: sc, Variant: f.variant, Scale: f.scale, Repeat: repeat, Configs: configs,
		Outputs: f.Outputs}, stdout, stderr)
}

// phaseConfigs builds and validates every phase's configuration before the
// first phase runs, so a bad flag cannot fail a run half-way.
func phaseConfigs(cmd *cobra.Command, f *runFlags, flags []*keyFlag, sc *scenario.Scenario, stderr io.Writer) ([]*config.Config, error) {
	var out []*config.Config
	for i, p := range sc.Phases {
		settings, err := sc.PhaseSettings(i, f.variant, f.scale)
		if err != nil {
			return nil, err
		}
		quiet := io.Discard // warnings once, for the first phase
		if i == 0 {
			quiet = stderr
		}
		c, err := loadConfig(cmd, f, flags, quiet, settings...)
		if err != nil {
			return nil, fmt.Errorf("phase %s: %w", p.Name, err)
		}
		if c.Data != "" {
			return nil, exit.Usagef("--data (DATA) replays your data in a run of its own, not in a scenario's phases: drop --scenario, or --data")
		}
		if c.Scaled() {
			// Each phase would need its own group and barrier.
			return nil, exit.Usagef("--workers/--group (WORKERS, RUN_GROUP) split single runs, not a scenario's phases: " +
				"print a phase's configuration with --print-config and run it as workers")
		}
		out = append(out, c)
	}
	return out, nil
}

// executeRepeats runs one configuration f.repeat times, each repetition
// from a fresh state where the target gives one (IS_DELETE_DATA: its
// schema dropped and made anew), as runs of one group in the results
// store, then prints each figure's mean, 95 % confidence interval and
// coefficient of variation over them.
func executeRepeats(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stdout, stderr io.Writer) error {
	if f.repeat < 1 {
		return exit.Usagef("--repeat = %d: must be >= 1", f.repeat)
	}
	if t := targetFlag(flags); t != nil && strings.Contains(t.value, ",") {
		return exit.Usagef("--repeat %d with --target %s: repeat one target at a time (a run of several targets "+
			"compares them once; repeat each and compare the groups with 'tsbench compare')", f.repeat, t.value)
	}
	cfg, err := loadConfig(cmd, f, flags, stderr)
	if err != nil {
		return err
	}
	if err := scenarioOnlyFlags(cmd, cfg, "repeat"); err != nil {
		return err
	}
	if len(cfg.FindMax) > 0 {
		return exit.Usagef("--repeat %d with FIND_MAX (--find-max): a search already runs many steps; repeat the search by running it again", f.repeat)
	}
	out := f.Outputs
	out.ServerCores = f.serverCores
	return run.Repeats(cfg, f.repeat, out, stdout, stderr)
}

// executeTargets runs one workload (generated, replayed or the user's own
// queries) on each target of --target a,b,c in turn, each from a fresh
// state (IS_DELETE_DATA: its schema dropped and created anew), then prints
// them side by side, compares the answers of the own queries with the
// first target's, and writes one HTML report of all the runs.
func executeTargets(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stdout, stderr io.Writer) error {
	tf := targetFlag(flags)
	names, err := scenarioTargets(tf.value)
	if err != nil {
		return err
	}
	// Every configuration is read before the first run: a mistake in the
	// last target's settings must not cost the first one's run.
	var cfgs []*config.Config
	combinedJSON := "" // --json's own path: the comparison; each run's summary goes beside it
	for _, name := range names {
		tf.value = name
		cfg, err := loadConfig(cmd, f, flags, stderr)
		if err != nil {
			return err
		}
		if err := scenarioOnlyFlags(cmd, cfg); err != nil {
			return err
		}
		if len(cfg.FindMax) > 0 {
			return exit.Usagef("FIND_MAX (--find-max) with --target %s: search one target at a time", strings.Join(names, ","))
		}
		combinedJSON = cfg.JSONPath
		cfg.JSONPath = run.PerTarget(cfg.JSONPath, name)
		cfgs = append(cfgs, cfg)
	}
	out := f.Outputs
	out.ServerCores = f.serverCores
	return run.Targets(names, cfgs, combinedJSON, out, stdout, stderr)
}
