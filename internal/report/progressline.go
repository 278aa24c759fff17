package report

// The progress line: a Snapshot of a time-series run's tick or of a TPC-C
// run's second.

import (
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
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

// ProgressFromTPCC is the progress line of a TPC-C run measuring for limit: its
// transactions so far, the last second's rate and its highest p99 of any
// transaction type, and the time left. A transaction counts as one point.
func ProgressFromTPCC(elapsed time.Duration, iv summary.Interval, tot metrics.Totals, limit time.Duration) Snapshot {
	s := Snapshot{Phase: "measure", Elapsed: elapsed, Done: float64(tot.OKOps + tot.FailOps), Errors: tot.FailOps,
		TimeLeft: max(0, limit-elapsed)}
	var ops int64
	for _, o := range iv.Ops {
		ops += o.OKOps
		s.P99MS = max(s.P99MS, o.P99MS)
	}
	if iv.Seconds > 0 {
		s.OpsPerSec = float64(ops) / iv.Seconds
		s.PointsPerSec = s.OpsPerSec
	}
	return s
}
