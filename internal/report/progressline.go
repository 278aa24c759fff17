package report

// The progress line: a Snapshot of the engine's tick, whatever the
// workload (a TPC-C transaction counts as one point).

import (
	"time"

	"github.com/tsbench/tsbench/internal/engine"
)

// ProgressFromTick is the progress line's view of a tick: the share of LOOP done
// when LOOP ends the run, the time left when the duration does (with both,
// whichever is projected to end it first), and the last second's p99.
func ProgressFromTick(t engine.Tick) Snapshot {
	s := Snapshot{Elapsed: t.Elapsed, Done: float64(t.DoneOps), Total: float64(t.TotalOps),
		OpsPerSec: t.OpsPerSec, PointsPerSec: t.PointsPerSec, Errors: t.Errors, Phase: t.Phase, P99MS: t.P99MS}
	if t.Deadline > 0 {
		s.TimeLeft = max(0, t.Deadline-t.Elapsed)
	}
	if !t.LoopBound {
		s.Total = 0
	}
	if s.Total > 0 && s.TimeLeft > 0 && s.Done > 0 {
		loopLeft := time.Duration(float64(t.Elapsed) * (s.Total - s.Done) / s.Done)
		if s.TimeLeft < loopLeft {
			s.Total = 0 // the duration ends the run first: show the time left
		}
	}
	return s
}
