package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/connect"
	"github.com/tsbench/tsbench/internal/datadir"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/replay"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/runner"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// Execute runs the benchmark and writes every output; its error carries the
// exit status.
func Execute(cfg *config.Config, out Outputs, stdout, stderr io.Writer) error {
	s, err := Benchmark(cfg, "", out, stdout, stderr)
	if err != nil {
		return err
	}
	return Outcome(s)
}

// Benchmark runs one benchmark, prints it and saves it; label names the
// scenario phase, if any. The run is in the results store from its first
// measured second on.
func Benchmark(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	if err := workloadKeys(cfg); err != nil {
		return nil, err
	}
	if err := clientIOKeys(cfg, stderr); err != nil {
		return nil, err
	}
	return kindOf(cfg).run(cfg, label, out, stdout, stderr)
}

// runTimeSeries runs the time series workload: generated or replayed
// points, with the query kinds and your own queries beside them.
func runTimeSeries(cfg *config.Config, label string, out Outputs, stdout, stderr io.Writer) (*summary.Summary, error) {
	driver, _ := targets.Lookup(cfg.Target)
	dataDir := datadir.Or(cfg.DataDir)
	runID := NewID()
	opts := connect.Options(cfg, driver, dataDir)
	relay, err := partitionRelay(cfg, driver, &opts)
	if err != nil {
		return nil, err
	}
	if relay != nil {
		defer relay.Close()
		// The failures name the relay's address: say whose it is.
		fmt.Fprintf(stderr, "tsbench: the run's connections go through a relay on %s:%d to %s, which CRASH_PARTITION cuts "+
			"%v into the measured phase for %v\n", opts.Host, opts.Port, relay.Upstream(), cfg.CrashAt, cfg.CrashPartition)
	}
	r, replay, err := newRunner(cfg, driver, opts, dataDir, stderr)
	if err != nil {
		return nil, err
	}
	if err := setQueries(r, cfg); err != nil {
		return nil, err
	}
	r.PriorRows = out.PriorRows
	if r.Hooks.Crash, err = crashPlan(cfg, driver); err != nil {
		return nil, err
	}
	if relay != nil && r.Hooks.Crash != nil {
		r.Hooks.Crash.Cut = relay.Cut
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sess, err := openSession(cfg, runID, label, driver, out, dataDir, r.Interrupt, cancel, stdout, stderr)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	if cfg.Scaled() {
		if r.Barrier, err = barrierFor(cfg, sess.store, runID); err != nil {
			sess.drop(stderr)
			return nil, err
		}
	}
	crash := r.Hooks.Crash
	r.Hooks = sess.hooks
	r.Hooks.Crash = crash
	fmt.Fprintf(stderr, "tsbench: run %s: target %s, %d clients, %d devices x %d sensors, data in %s\n",
		runID, driver.Name, cfg.Clients, cfg.Devices, cfg.Sensors, opts.DataDir)
	if note := connect.TLSNote(cfg); note != "" {
		fmt.Fprintln(stderr, "tsbench: "+note)
	}
	if note := connect.EndpointsNote(cfg, driver); note != "" {
		fmt.Fprintln(stderr, "tsbench: "+note)
	}
	if used := config.IoTBenchmarkDefaultsUsed(cfg); len(used) > 0 {
		fmt.Fprintf(stderr, "tsbench: keys the .properties file leaves out take IoT-benchmark's defaults: %s\n", strings.Join(used, ", "))
	}
	s, err := r.Run(ctx)
	sess.measured()
	if err != nil {
		sess.drop(stderr)
		return nil, connectError(err, driver)
	}
	s.Replay = replay
	results.Complete(s, cfg, runID, driver, opts.DataDir, Version)
	return s, finishRun(s, cfg, label, dataDir, sess.store, sess.live, out, stdout, stderr)
}

// newRunner prepares the run: of generated data, or replaying DATA.
func newRunner(cfg *config.Config, driver *targets.Driver, opts targets.Options, dataDir string, stderr io.Writer) (*runner.Runner, *summary.Replay, error) {
	if cfg.Data == "" {
		r, err := runner.New(cfg, driver, opts)
		if err != nil {
			return nil, nil, exit.With(exit.Usage, err)
		}
		return r, nil, nil
	}
	ds, rep, err := replay.Open(cfg, dataDir, stderr)
	if err != nil {
		return nil, nil, replayError(err, cfg.Data)
	}
	if err := replay.CheckSparse(cfg, driver, ds); err != nil {
		ds.Close()
		return nil, nil, replayError(err, cfg.Data)
	}
	return runner.NewReplay(cfg, driver, opts, ds, replay.Repeats(cfg)), rep, nil
}

// setQueries gives the run the user's own queries (QUERY_FILE), if any: a
// file that cannot run on the target is bad input, refused before anything
// runs.
func setQueries(r *runner.Runner, cfg *config.Config) error {
	if cfg.QueryFile == "" {
		if cfg.QueryOnly {
			return exit.Usagef("QUERY_ONLY = true: a query-only run runs the queries of QUERY_FILE (--queries), and none is given")
		}
		return nil
	}
	f, err := ownquery.Load(cfg.QueryFile)
	if err == nil {
		err = r.SetQueries(f)
	}
	if err != nil {
		return InputOrFailure(err)
	}
	return nil
}

// replayError is InputOrFailure for the data a run replays, with a help
// line under bad input: how to see what tsbench makes of the file, and
// where the usage is; none for a file this build cannot read at all,
// which 'tsbench data inspect' refuses too (its refusal names the build
// that reads it).
func replayError(err error, data string) error {
	if badinput.Is(err) && !errors.Is(err, dataset.ErrReaderLeftOut) {
		return exit.With(exit.Usage, fmt.Errorf("%w\nRun 'tsbench data inspect %s' to see how tsbench reads it, or 'tsbench run --help' for usage", err, data))
	}
	return InputOrFailure(err)
}

// InputOrFailure is the exit status of a package's error: bad input (2)
// when it says so (badinput), else a failure (1).
func InputOrFailure(err error) error {
	if badinput.Is(err) {
		return exit.With(exit.Usage, err)
	}
	return exit.With(exit.Failure, err)
}

// finishRun finishes a measured run: the live outputs, thresholds, the run
// directory and the results store, then the console. An error of the live
// outputs (--out) is returned when nothing worse happened.
func finishRun(s *summary.Summary, cfg *config.Config, label, dataDir string, store *results.Live, live *liveRun, out Outputs, stdout, stderr io.Writer) error {
	liveErr := live.finish(s, stderr) // --out, --dashboard (live.go)
	s.Scenario = label
	if out.Repeat != nil {
		r := *out.Repeat
		s.Repeat = &r
	}
	results.Evaluate(s, cfg)
	s.ResultsDir = filepath.Join(dataDir, "runs", s.RunID)
	// Keep the run before printing it: a reader that stops reading early
	// (tsbench run | head) must not leave it half-recorded.
	saved := results.SaveFiles(s, cfg, out.HDRLog, stderr)
	saved = append(saved, store.Finish(s))
	if label != "" {
		fmt.Fprintf(stdout, "==================== %s ====================\n", label)
	}
	if err := report.Console(stdout, s); err != nil && !errors.Is(err, syscall.EPIPE) {
		return exit.With(exit.Failure, err)
	}
	report.Footer(stdout, s)
	for _, line := range saved {
		if line != "" {
			fmt.Fprintln(stdout, line)
		}
	}
	return liveErr
}

// connectError is the exit status of a run that failed before measuring:
// bad input (2) when the server offers no TLS where TLS was asked for, or
// when the target refused a name it cannot carry before writing
// (badinput); a failed run (1) otherwise, saying what to do about a
// refused connection (refusedHint).
func connectError(err error, d *targets.Driver) error {
	if errors.Is(err, targets.ErrNoTLS) || badinput.Is(err) {
		return exit.With(exit.Usage, err)
	}
	if hint := refusedHint(err, d); hint != "" {
		err = fmt.Errorf("%w\n  %s", err, hint)
	}
	return exit.With(exit.Failure, err)
}

// exitStatus is the exit status of each outcome of a run but success.
var exitStatus = map[summary.Status]int{
	summary.StatusInterrupted:     exit.Interrupted,
	summary.StatusVerifyFailed:    exit.Verify,
	summary.StatusThresholdFailed: exit.Threshold,
	summary.StatusFailed:          exit.Failure,
	summary.StatusIncomplete:      exit.Failure,
}

// Outcome maps a finished run to its exit status.
func Outcome(s *summary.Summary) error {
	if code, ok := exitStatus[s.Status()]; ok {
		return exit.With(code, nil)
	}
	return nil
}

// runWatch is what every run has while it measures: the two-step stop on
// SIGINT/SIGTERM, the stop when standard output's reader goes away, and
// the progress line (nil with IS_QUIET_MODE).
type runWatch struct {
	progress    *report.Progress
	stopSignals func()
	pipeDone    func()
}

// startRunWatch starts watching a run that stops gracefully with interrupt
// and at once with abort.
func startRunWatch(cfg *config.Config, interrupt, abort func(), stdout, stderr io.Writer) *runWatch {
	w := &runWatch{stopSignals: onInterrupt(interrupt, abort, stderr), pipeDone: whileRunning(stdout, interrupt)}
	if !cfg.Quiet {
		w.progress = report.NewProgress(stderr, isTerminal(stderr), cfg.ProgressInterval)
	}
	return w
}

// measured ends the progress line and the pipe's hold on the run once it
// stopped measuring; signals are still caught until release, so that an
// interrupt while the run is saved does not kill the process.
func (w *runWatch) measured() {
	w.pipeDone()
	if w.progress != nil {
		w.progress.Finish()
	}
}

func (w *runWatch) release() { w.stopSignals() }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && report.IsTerminal(f)
}
