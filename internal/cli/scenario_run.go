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
	"github.com/tsbench/tsbench/internal/exit"
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
func runScenario(cmd *cobra.Command, f *runFlags, flags []*keyFlag, sc *scenario.Scenario, stdout, stderr io.Writer) (*scenarioResult, error) {
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

	x := &scenarioRun{sc: sc, f: f, configs: configs, measured: make([][]scenario.Measurement, len(sc.Phases)),
		stdout: stdout, stderr: stderr,
		res: scenarioResult{SchemaVersion: summary.SchemaVersion, Scenario: sc.Name, Variant: f.variant, Scale: f.scale,
			Repeat: repeat, ServerCores: cores, Target: configs[0].Target, Started: time.Now().UTC()}}
	for r := 1; r <= repeat && !x.res.Interrupted; r++ {
		for i := range sc.Phases {
			if err := x.phase(i, r); err != nil {
				return nil, err
			}
			if x.res.Interrupted {
				break
			}
		}
	}
	if err := x.finish(); err != nil {
		return nil, err
	}
	return &x.res, x.worst
}

// scenarioRun is a scenario's phases run in turn, and what they leave for
// its table.
type scenarioRun struct {
	sc             *scenario.Scenario
	f              *runFlags
	configs        []*config.Config
	res            scenarioResult
	measured       [][]scenario.Measurement // each phase's runs, by phase
	prior          scenario.Written         // what the phases so far left in the database
	runs           []*summary.Summary       // every phase's run, to carry the table
	phaseRuns      []scenario.PhaseRun
	worst          error // the exit status the runs so far call for
	stdout, stderr io.Writer
}

// phase runs phase i in repetition r; an error ends the scenario.
func (x *scenarioRun) phase(i, r int) error {
	p, cfg := x.sc.Phases[i], x.configs[i]
	label := fmt.Sprintf("%s/%s", x.sc.Name, p.Name)
	if x.res.Repeat > 1 {
		label += fmt.Sprintf(" (repetition %d of %d)", r, x.res.Repeat)
	}
	if p.Unsupported != "" {
		fmt.Fprintf(x.stdout, "\n%s: unsupported on every target: %s\n", label, p.Unsupported)
		return nil
	}
	if p.Analytics != nil {
		ar, err := runAnalyticsPhase(cfg, p, label, x.stdout)
		if err != nil {
			return inputOrFailure(err)
		}
		ar.Repetition = r
		x.res.Analytics = append(x.res.Analytics, ar)
		if ar.Failed() {
			x.worst = worse(x.worst, exit.With(ExitFailure, nil))
		}
		return nil
	}
	out := x.f.runOutputs
	out.priorRows = x.prior.PriorRows(cfg)
	s, err := runBenchmark(cfg, label, out, x.stdout, x.stderr)
	if err != nil {
		return err
	}
	x.prior = x.prior.After(cfg, s)
	if p.BreakPoint {
		bp := scenario.BreakPointOf(s, p)
		bp.Phase, bp.Repetition = p.Name, r
		bp.Print(x.stdout)
		x.res.BreakPoints = append(x.res.BreakPoints, bp)
	}
	x.runs = append(x.runs, s)
	x.phaseRuns = append(x.phaseRuns, scenario.PhaseRun{Phase: p, Summary: s})
	x.res.Phases = append(x.res.Phases, scenarioPhaseResult{Phase: p.Name, Repetition: r, RunID: s.RunID, ResultsDir: s.ResultsDir})
	if op := s.Op(p.Operation); op != nil && !s.Interrupted {
		x.measured[i] = append(x.measured[i], scenario.Measurement{Seconds: s.Elapsed, Points: op.OKPoints, Operations: op.OKOperations,
			BytesPerPoint: s.BytesPerPoint})
	}
	if e := outcome(s); e != nil {
		x.worst = worse(x.worst, e)
	}
	x.res.Interrupted = s.Interrupted
	return nil
}

// finish prints the scenario's table (published against measured), its
// extra figures and break-evens, and saves it.
func (x *scenarioRun) finish() error {
	res, f := &x.res, x.f
	res.Rows = x.sc.Table(f.variant, res.Target, f.scale, x.measured, res.ServerCores)
	where := fmt.Sprintf("target %s", res.Target)
	if err := x.sc.PrintTable(x.stdout, res.Rows, f.scale, res.ServerCores, where); err != nil {
		return err
	}
	if x.sc.Extra != nil {
		res.Sweep = x.sc.Extra(x.stdout, x.phaseRuns)
		for _, s := range x.runs {
			if s.TPCC != nil {
				s.TPCC.Sweep = res.Sweep // the report charts it from any of the runs
			}
		}
	}
	attachFigures(x.runs, x.sc.Figures(res.Rows), f.runOutputs, datadir.Or(x.configs[0].DataDir), x.stderr)
	res.BreakEvens = scenario.BreakEvens(res.Rows)
	driver, _ := targets.Lookup(res.Target)
	scenario.PrintBreakEvens(x.stdout, res.BreakEvens, driver != nil && driver.Caps.Compression)
	saveScenario(res, x.configs[0], x.stdout, x.stderr)
	return nil
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
		var ee *exit.Error
		if !errors.As(err, &ee) {
			return 0
		}
		switch ee.Code {
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
