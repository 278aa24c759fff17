package run

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/results"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// ScenarioResult is what a scenario run saves beside its phases' runs.
type ScenarioResult struct {
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
	Analytics     []AnalyticsResult           `json:"analytics,omitempty"`
	Sweep         []summary.SweepPoint        `json:"sweep,omitempty"`
	Phases        []scenarioPhaseResult       `json:"phases"`
}

type scenarioPhaseResult struct {
	Phase      string `json:"phase"`
	Repetition int    `json:"repetition"`
	RunID      string `json:"run_id"`
	ResultsDir string `json:"results_dir"`
}

// scenarioRun is a scenario's phases run in turn, and what they leave for
// its table.
type scenarioRun struct {
	sc             *scenario.Scenario
	plan           ScenarioPlan
	configs        []*config.Config
	res            ScenarioResult
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
		ar, err := AnalyticsPhase(cfg, p, label, x.stdout)
		if err != nil {
			return InputOrFailure(err)
		}
		ar.Repetition = r
		x.res.Analytics = append(x.res.Analytics, ar)
		if ar.Failed() {
			x.worst = Worse(x.worst, exit.With(exit.Failure, nil))
		}
		return nil
	}
	out := x.plan.Outputs
	out.PriorRows = x.prior.PriorRows(cfg)
	s, err := Benchmark(cfg, label, out, x.stdout, x.stderr)
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
	if e := Outcome(s); e != nil {
		x.worst = Worse(x.worst, e)
	}
	x.res.Interrupted = s.Interrupted
	return nil
}

// finish prints the scenario's table (published against measured), its
// extra figures and break-evens, and saves it.
func (x *scenarioRun) finish() error {
	res, p := &x.res, x.plan
	res.Rows = x.sc.Table(p.Variant, res.Target, p.Scale, x.measured, res.ServerCores)
	where := fmt.Sprintf("target %s", res.Target)
	if err := x.sc.PrintTable(x.stdout, res.Rows, p.Scale, res.ServerCores, where); err != nil {
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
	attachFigures(x.runs, x.sc.Figures(res.Rows), p.Outputs, datadir.Or(x.configs[0].DataDir), x.stderr)
	res.BreakEvens = scenario.BreakEvens(res.Rows)
	driver, _ := targets.Lookup(res.Target)
	scenario.PrintBreakEvens(x.stdout, res.BreakEvens, driver != nil && driver.Caps.Compression)
	saveScenario(res, x.configs[0], x.stdout, x.stderr)
	return nil
}

// attachFigures gives every phase's run the scenario's published-vs-measured
// table, known only once all phases ran, and saves those runs again (run
// directory and results store), so that a report of any of them shows it.
func attachFigures(runs []*summary.Summary, figures []summary.PublishedFigure, out Outputs, dataDir string, stderr io.Writer) {
	if len(figures) == 0 {
		return
	}
	for _, s := range runs {
		s.Published = figures
		if err := report.WriteJSON(filepath.Join(s.ResultsDir, "summary.json"), s); err != nil {
			fmt.Fprintf(stderr, "tsbench: could not save the run in %s: %v\n", s.ResultsDir, err)
		}
		results.SaveAgain(out.Results, dataDir, s, stderr)
	}
}

func saveScenario(res *ScenarioResult, cfg *config.Config, stdout, stderr io.Writer) {
	path := filepath.Join(datadir.Or(cfg.DataDir), "scenarios", NewID()+"-"+res.Scenario+".json")
	if err := report.WriteJSONValue(path, res); err != nil {
		fmt.Fprintf(stderr, "tsbench: could not save the scenario result %s: %v\n", path, err)
		return
	}
	fmt.Fprintf(stdout, "Scenario result: %s\n", path)
}

// Worse keeps the more serious of two exit statuses: interrupted, then
// verification, then failures.
func Worse(a, b error) error {
	rank := func(err error) int {
		var ee *exit.Error
		if !errors.As(err, &ee) {
			return 0
		}
		switch ee.Code {
		case exit.Interrupted:
			return 3
		case exit.Verify:
			return 2
		}
		return 1
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// ScenarioPlan is a scenario on one target as the command line set it up.
type ScenarioPlan struct {
	Scenario *scenario.Scenario
	Variant  string
	Scale    float64
	Repeat   int              // how many times every phase runs, in turn
	Configs  []*config.Config // each phase's, in the scenario's order
	Outputs  Outputs          // ServerCores set: the published figures are per core
}

// Scenario runs every phase of p's scenario p.Repeat times, each as its own
// run with its own matrices, then prints the published figures beside the
// measured ones. It returns the result (nil when nothing ran) and the
// worst exit status of the runs.
func Scenario(p ScenarioPlan, stdout, stderr io.Writer) (*ScenarioResult, error) {
	sc, configs := p.Scenario, p.Configs
	x := &scenarioRun{sc: sc, plan: p, configs: configs, measured: make([][]scenario.Measurement, len(sc.Phases)),
		stdout: stdout, stderr: stderr,
		res: ScenarioResult{SchemaVersion: summary.SchemaVersion, Scenario: sc.Name, Variant: p.Variant, Scale: p.Scale,
			Repeat: p.Repeat, ServerCores: p.Outputs.ServerCores, Target: configs[0].Target, Started: time.Now().UTC()}}
	for r := 1; r <= p.Repeat && !x.res.Interrupted; r++ {
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
