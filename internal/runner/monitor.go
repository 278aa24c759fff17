package runner

import (
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// Monitor watches resources while a run measures. Start is called when the
// measured phase begins, Tick after each one-second interval snapshot (so
// resource samples line up with the interval series), and Stop when the
// measured phase ends; what Stop returns becomes Summary.Resources. Tick must
// not block: the runner calls it from the loop that closes the intervals.
type Monitor interface {
	Start(at time.Time)
	Tick(at time.Time)
	Stop(at time.Time) *summary.Resources
}

func (r *Runner) monitorStart(at time.Time) {
	if r.Monitor != nil {
		r.Monitor.Start(at)
	}
}

func (r *Runner) monitorTick(at time.Time) {
	if r.Monitor != nil {
		r.Monitor.Tick(at)
	}
}

// monitorStop ends the monitoring and records it, with the measured phase's
// start, in the summary.
func (r *Runner) monitorStop(s *summary.Summary, start, at time.Time) {
	s.MeasureStarted = start.UTC()
	if r.Monitor != nil {
		s.Resources = r.Monitor.Stop(at)
	}
}
