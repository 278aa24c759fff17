package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/results"

	"github.com/spf13/cobra"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// scenarioResult is what a scenario run saves beside its phases' runs.
type scenarioResult struct {
	SchemaVersion int                         `json:"schema_version"`
	Scenario      string                      `json:"scenario"`
	Variant       string                      `json:"variant,omitempty"`
	Scale         float64                     `json:"scale"`
	Repeat        int                         `json:"repeat"`
	ServerCores   int                         `json:"server_cores"`
	Target        string                      `json:"target"`
	Started       time.Time                   `json:"started"`
	Interrupted   bool                        `json:"interrupted"`
	Rows          []scenario.Row              `json:"published_vs_measured"`
	BreakEvens    []scenario.BreakEven        `json:"compression_break_even,omitempty"`
	BreakPoints   []scenario.BreakPointResult `json:"break_points,omitempty"`
	Analytics     []analyticsResult           `json:"analytics,omitempty"`
	Sweep         []summary.SweepPoint        `json:"sweep,omitempty"`
	Phases        []scenarioPhaseResult       `json:"phases"`
}

type scenarioPhaseResult struct {
	Phase      string `json:"phase"`
	Repetition int    `json:"repetition"`
	RunID      string `json:"run_id"`
	ResultsDir string `json:"results_dir"`
}

// executeScenario runs every phase of a scenario (--repeat times), each as
// its own run with its own matrices, then prints the published figures
// beside the measured ones. With several targets (--target a,b) it runs the
// whole scenario on each in turn and then prints the systems side by side.
func executeScenario(cmd *cobra.Command, f *runFlags, flags []*keyFlag, stdout, stderr io.Writer) error {
	sc, err := scenario.Lookup(f.scenario)
	if err != nil {
		return usageError("--scenario: %v", err)
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
		worst = worse(worst, err)
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
			return nil, usageError("--target = %q: %v", list, err)
		}
		if seen[d.Name] {
			return nil, usageError("--target = %q: %s is named twice", list, d.Name)
		}
		seen[d.Name] = true
		names = append(names, d.Name)
	}
	return names, nil
}

// runScenario runs the scenario against one target. It returns the result
// (nil when nothing ran) and the run's exit error.
func runScenario(cmd *cobra.Command, f *runFlags, flags []*keyFlag, sc *scenario.Scenario, stdout, stderr io.Writer) (*scenarioResult, error) {
	if err := sc.CheckVariant(f.variant); err != nil {
		return nil, usageError("--variant: %v", err)
	}
	if f.scale <= 0 {
		return nil, usageError("--scale = %v: must be a number > 0 (e.g. 0.01)", f.scale)
	}
	repeat := f.repeat
	if repeat == 0 {
		repeat = max(1, sc.Repeat)
	}
	if repeat < 0 {
		return nil, usageError("--repeat = %d: must be >= 1", repeat)
	}
	cores := f.serverCores
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	f.runOutputs.serverCores = cores
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

	res := scenarioResult{SchemaVersion: summary.SchemaVersion, Scenario: sc.Name, Variant: f.variant, Scale: f.scale,
		Repeat: repeat, ServerCores: cores, Target: configs[0].Target, Started: time.Now().UTC()}
	measured := make([][]scenario.Measurement, len(sc.Phases))
	var prior scenario.Written  // what the phases so far left in the database
	var runs []*summary.Summary // every phase's run, to carry the table
	var phaseRuns []scenario.PhaseRun
	var worst error
	for r := 1; r <= repeat && !res.Interrupted; r++ {
		for i, p := range sc.Phases {
			label := fmt.Sprintf("%s/%s", sc.Name, p.Name)
			if repeat > 1 {
				label += fmt.Sprintf(" (repetition %d of %d)", r, repeat)
			}
			if p.Unsupported != "" {
				fmt.Fprintf(stdout, "\n%s: unsupported on every target: %s\n", label, p.Unsupported)
				continue
			}
			if p.Analytics != nil {
				ar, err := runAnalyticsPhase(configs[i], p, label, stdout)
				if err != nil {
					return nil, inputOrFailure(err)
				}
				ar.Repetition = r
				res.Analytics = append(res.Analytics, ar)
				if ar.Failed() {
					worst = worse(worst, &exitError{code: ExitFailure})
				}
				continue
			}
			out := f.runOutputs
			out.priorRows = prior.PriorRows(configs[i])
			s, err := runBenchmark(configs[i], label, out, stdout, stderr)
			if err != nil {
				return nil, err
			}
			prior = prior.After(configs[i], s)
			if p.BreakPoint {
				bp := scenario.BreakPointOf(s, p)
				bp.Phase, bp.Repetition = p.Name, r
				bp.Print(stdout)
				res.BreakPoints = append(res.BreakPoints, bp)
			}
			runs = append(runs, s)
			phaseRuns = append(phaseRuns, scenario.PhaseRun{Phase: p, Summary: s})
			res.Phases = append(res.Phases, scenarioPhaseResult{Phase: p.Name, Repetition: r, RunID: s.RunID, ResultsDir: s.ResultsDir})
			if op := s.Op(p.Operation); op != nil && !s.Interrupted {
				measured[i] = append(measured[i], scenario.Measurement{Seconds: s.Elapsed, Points: op.OKPoints, Operations: op.OKOperations,
					BytesPerPoint: s.BytesPerPoint})
			}
			if e := outcome(s); e != nil {
				worst = worse(worst, e)
			}
			if s.Interrupted {
				res.Interrupted = true
				break
			}
		}
	}
	res.Rows = sc.Table(f.variant, res.Target, f.scale, measured, cores)
	where := fmt.Sprintf("target %s", res.Target)
	if err := sc.PrintTable(stdout, res.Rows, f.scale, cores, where); err != nil {
		return nil, err
	}
	if sc.Extra != nil {
		res.Sweep = sc.Extra(stdout, phaseRuns)
		for _, s := range runs {
			if s.TPCC != nil {
				s.TPCC.Sweep = res.Sweep // the report charts it from any of the runs
			}
		}
	}
	attachFigures(runs, sc.Figures(res.Rows), f.runOutputs, datadir.Or(configs[0].DataDir), stderr)
	res.BreakEvens = scenario.BreakEvens(res.Rows)
	driver, _ := targets.Lookup(res.Target)
	scenario.PrintBreakEvens(stdout, res.BreakEvens, driver != nil && driver.Caps.Compression)
	saveScenario(&res, configs[0], stdout, stderr)
	return &res, worst
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
			return nil, usageError("--data (DATA) replays your data in a run of its own, not in a scenario's phases: drop --scenario, or --data")
		}
		if c.Scaled() {
			// Each phase would need its own group and barrier.
			return nil, usageError("--workers/--group (WORKERS, RUN_GROUP) split single runs, not a scenario's phases: " +
				"print a phase's configuration with --print-config and run it as workers")
		}
		out = append(out, c)
	}
	return out, nil
}

// attachFigures gives every phase's run the scenario's published-vs-measured
// table, known only once all phases ran, and saves those runs again (run
// directory and results store), so that a report of any of them shows it.
func attachFigures(runs []*summary.Summary, figures []summary.PublishedFigure, out runOutputs, dataDir string, stderr io.Writer) {
	if len(figures) == 0 {
		return
	}
	for _, s := range runs {
		s.Published = figures
		if err := report.WriteJSON(filepath.Join(s.ResultsDir, "summary.json"), s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not save the run in %s: %v\n", s.ResultsDir, err)
		}
		results.SaveAgain(out.results, dataDir, s, stderr)
	}
}

func saveScenario(res *scenarioResult, cfg *config.Config, stdout, stderr io.Writer) {
	path := filepath.Join(datadir.Or(cfg.DataDir), "scenarios", newRunID()+"-"+res.Scenario+".json")
	if err := report.WriteJSONValue(path, res); err != nil {
		fmt.Fprintf(stderr, "tsbench: could not save the scenario result %s: %v\n", path, err)
		return
	}
	fmt.Fprintf(stdout, "Scenario result: %s\n", path)
}

// worse keeps the more serious of two exit statuses: interrupted, then
// verification, then failures.
func worse(a, b error) error {
	rank := func(err error) int {
		var ee *exitError
		if !errors.As(err, &ee) {
			return 0
		}
		switch ee.code {
		case ExitInterrupted:
			return 3
		case ExitVerify:
			return 2
		}
		return 1
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
