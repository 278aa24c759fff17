package engine

import (
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// Monitor watches resources while a run measures. Start is called when the
// measured phase begins, Tick after each one-second interval snapshot (so
// resource samples line up with the interval series), and Stop when the
// measured phase ends; what Stop returns becomes Result.Resources. Tick must
// not block: the engine calls it from the loop that closes the intervals.
type Monitor interface {
	Start(at time.Time)
	Tick(at time.Time)
	Stop(at time.Time) *summary.Resources
}

// follower is a Monitor that can follow a server restarted under a new
// pid (monitor.Recorder).
type follower interface {
	Follow(*summary.ServerProcess)
}
