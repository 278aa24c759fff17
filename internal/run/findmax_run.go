package run

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/findmax"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// errStepInterrupted ends a search whose step was interrupted.
var errStepInterrupted = errors.New("interrupted")

// FindMax searches for the highest open-model rate that meets the
// objectives of FIND_MAX (internal/findmax): every step is a run of its
// own, held FIND_MAX_SETTLE and measured FIND_MAX_MEASURE, printed as one
// line; the run of the best step is then printed whole with the search,
// and kept with it (--json, the results store, the report).
func FindMax(cfg *config.Config, out Outputs, stdout, stderr io.Writer) error {
	switch {
	case cfg.TSBSQueryFile != "":
		return exit.Usagef("FIND_MAX with TSBS_QUERY_FILE: a search holds rates for set times, and a query file's queries run " +
			"once each; offer a rate with --rate")
	case cfg.Workload == config.WorkloadTPCC && cfg.TPCCThink:
		return exit.Usagef("FIND_MAX with TPCC_THINK_TIME = true: a search steps a rate, and keying and think times pace each " +
			"terminal as the specification does; drop one")
	case cfg.Scaled():
		return exit.Usagef("FIND_MAX with WORKERS = %d: each worker would search on its own; run the search from one process", cfg.Workers)
	}
	if cfg.Workload == config.WorkloadPrometheus {
		if err := promFindMaxKeys(cfg); err != nil {
			return err
		}
	}
	search, err := newSearch(cfg, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Find max: %d objective(s), steps held %v and measured %v, precision %.0f %%%s\n",
		len(search.Objectives), cfg.FindMaxSettle, cfg.FindMaxMeasure, cfg.FindMaxPrecision*100, promStepNote(cfg))
	fm, best, err := search.Run(func(rate float64, measure time.Duration) (*summary.Summary, error) {
		c := stepConfig(cfg, rate, measure)
		if c.Workload == config.WorkloadPrometheus {
			if err := promStepScrapes(c, rate, measure); err != nil {
				return nil, err
			}
		}
		s, err := Benchmark(c, "", out, io.Discard, stderr)
		switch {
		case s == nil:
			return nil, err
		case s.Interrupted:
			return s, errStepInterrupted
		}
		return s, nil
	})
	if fm != nil {
		fm.SettleS, fm.MeasureS = cfg.FindMaxSettle.Seconds(), cfg.FindMaxMeasure.Seconds()
	}
	if best == nil {
		return err
	}
	return finishFindMax(cfg, out, fm, best, err, stdout, stderr)
}

// newSearch reads the objectives (checked when the configuration was
// read) and the FIND_MAX_* keys; each step is printed as it ends.
func newSearch(cfg *config.Config, stdout io.Writer) (findmax.Search, error) {
	s := findmax.Search{Start: cfg.FindMaxStart, Precision: cfg.FindMaxPrecision, MaxSteps: int(cfg.FindMaxSteps),
		Measure: cfg.FindMaxMeasure, MaxMeasure: cfg.FindMaxMaxMeasure, MinOps: cfg.FindMaxMinOps}
	for _, e := range cfg.FindMax {
		th, err := threshold.Syntax(e)
		if err != nil {
			return s, exit.Usagef("FIND_MAX: %v", err)
		}
		s.Objectives = append(s.Objectives, th)
	}
	s.OnStep = func(n int, st summary.FindMaxStep) {
		offered := findmax.Offered(st.Offered)
		if st.Offered > 0 {
			offered += " ops/s"
		}
		verdict := "pass"
		switch {
		case st.TooFew != "":
			verdict = "too few operations to tell: " + st.TooFew
		case !st.Passed:
			verdict = "fail"
		}
		fmt.Fprintf(stdout, "step %d: offered %s, achieved %s ops/s in %.1f s, %d %s operations, p99 %.2f ms: %s\n", n, offered,
			findmax.Rate(st.Achieved), st.MeasuredS, st.Operations, st.Operation, st.P99MS, verdict)
	}
	return s, nil
}

// stepConfig is the configuration of one step: an open model at rate
// (closed loop at 0), its warm-up the settle time, then measured for
// measure (the search lengthens it at low rates) whatever LOOP says; no
// summary file of its own and no progress lines (the search prints one
// line a step).
func stepConfig(cfg *config.Config, rate float64, measure time.Duration) *config.Config {
	c := *cfg
	c.Rate = rate
	c.Warmup = cfg.FindMaxSettle
	c.MaxTime, c.RunFor, c.LoopUnbounded = measure, true, true
	c.JSONPath = ""
	c.Thresholds = nil // judged on the best step, below
	c.Quiet = true
	return &c
}

// finishFindMax prints the best step's run with the search, keeps the
// search with that run (--json, the results store), and returns the exit
// status: the search's error, 99 when no step met the objectives, else the
// thresholds' verdict on the best step.
func finishFindMax(cfg *config.Config, out Outputs, fm *summary.FindMax, best *summary.Summary, searchErr error, stdout, stderr io.Writer) error {
	best.FindMax = fm
	results.Evaluate(best, cfg)
	dataDir := datadir.Or(cfg.DataDir)
	best.ResultsDir = filepath.Join(dataDir, "runs", best.RunID)
	results.SaveFiles(best, cfg, "", stderr) // the run directory and --json get the search too
	results.SaveAgain(out.Results, dataDir, best, stderr)
	if fm.Found {
		fmt.Fprintf(stdout, "\nThe highest sustainable step (run %s):\n", best.RunID)
	} else {
		fmt.Fprintf(stdout, "\nNo step met the objectives; the last step (run %s):\n", best.RunID)
	}
	if err := report.Console(stdout, best); err != nil {
		return exit.With(exit.Failure, err)
	}
	fmt.Fprintln(stdout)
	if err := findmax.Write(stdout, fm); err != nil {
		return exit.With(exit.Failure, err)
	}
	switch {
	case errors.Is(searchErr, errStepInterrupted):
		return exit.With(exit.Interrupted, nil)
	case searchErr != nil:
		return searchErr
	case !fm.Found:
		return exit.With(exit.Threshold, fmt.Errorf("find-max: no step met %v", fm.Objectives))
	}
	return Outcome(best)
}
