package run

import (
	"fmt"
	"io"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// session is what a run has around its engine, whatever its workload: the
// results store that keeps it from its first measured second, the
// resources sampler, the live outputs, the progress line and the two-step
// stop. Its hooks go to the engine.
type session struct {
	runID   string
	store   *results.Live
	live    *liveRun
	watch   *runWatch
	partial *summary.Summary
	hooks   engine.Hooks
}

// openSession prepares run runID's session; interrupt stops the run
// gracefully, abort at once. Close it once the run is saved.
func openSession(cfg *config.Config, runID, label string, d *targets.Driver, out Outputs, dataDir string,
	interrupt, abort func(), stdout, stderr io.Writer) (*session, error) {
	s := &session{runID: runID, store: results.OpenLive(out.Results, dataDir, stderr)}
	s.hooks.OnInterval = s.store.Interval
	rec := resourceRecorder(s.store, cfg, d, out)
	if rec != nil {
		s.hooks.Monitor = rec
	}
	live, err := startLiveHooks(&s.hooks.OnInterval, rec, cfg, runID, label, d, out.Live, stderr)
	if err != nil {
		s.store.Abandon(runID)
		return nil, err
	}
	s.live = live
	s.partial = results.Partial(cfg, runID, label, d, Version)
	s.hooks.OnMeasure = func(start time.Time) {
		s.partial.MeasureStarted = start.UTC()
		s.store.Begin(s.partial)
	}
	s.watch = startRunWatch(cfg, interrupt, abort, stdout, stderr)
	if p := s.watch.progress; p != nil {
		s.hooks.Progress = func(t engine.Tick) { p.Update(report.ProgressFromTick(t)) }
	}
	return s, nil
}

// measured ends the progress line once the run stopped measuring.
func (s *session) measured() { s.watch.measured() }

// close stops catching signals: the run is saved.
func (s *session) close() { s.watch.release() }

// abandon ends a session whose run failed before it had a result: its
// live outputs closed, its record taken out of the store, the failure
// (exit 1) returned.
func (s *session) abandon(d *targets.Driver, err error, stderr io.Writer) error {
	s.drop(stderr)
	return exit.With(exit.Failure, fmt.Errorf("%s: %w", d.Name, err))
}

// drop closes the live outputs and takes the run out of the store: it will
// have no result.
func (s *session) drop(stderr io.Writer) {
	_ = s.live.finish(nil, stderr)
	s.store.Abandon(s.runID)
}
