// Package resultstest makes run summaries for tests of the results store,
// the comparison and the HTML report: recorded through the real metrics
// recorder, so their histograms, intervals and percentiles are what a run
// produces, from a latency distribution and a rate the test chooses.
package resultstest

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// Op describes one operation kind of a synthetic run.
type Op struct {
	Op          workload.Op
	OpsPerSec   int           // operations recorded per second
	Points      int64         // points per operation
	Latency     time.Duration // median latency
	Spread      float64       // log-normal sigma of latency (0.3 is a typical run)
	RateNoise   float64       // relative noise of the per-second count (0.05 = ±5 %)
	FailPerSec  int           // failed operations per second
	ExtraPoints float64       // multiply Points by this in the second half (a trend), 0 = none
}

// Run describes a synthetic run.
type Run struct {
	ID      string
	Target  string
	Started time.Time
	Seconds int
	Seed    uint64
	Ops     []Op
}

// Summary records the run through metrics.Run and returns its summary,
// with resource samples, environment and configuration filled in.
func Summary(r Run) *summary.Summary {
	if r.Started.IsZero() {
		r.Started = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	}
	if r.Target == "" {
		r.Target = "sqlite"
	}
	rng := rand.New(rand.NewPCG(r.Seed, 7))
	start := r.Started.Add(2 * time.Second)
	run := metrics.NewRun(1, false, start)
	c := run.Client(0)
	res := &summary.Resources{IntervalSeconds: 1}
	for sec := 0; sec < r.Seconds; sec++ {
		for _, o := range r.Ops {
			n := o.OpsPerSec
			if o.RateNoise > 0 {
				n = int(math.Round(float64(n) * (1 + o.RateNoise*rng.NormFloat64())))
			}
			pts := o.Points
			if o.ExtraPoints > 0 && sec >= r.Seconds/2 {
				pts = int64(float64(pts) * o.ExtraPoints)
			}
			for i := 0; i < max(n, 0); i++ {
				spread := o.Spread
				if spread == 0 {
					spread = 0.3
				}
				d := time.Duration(float64(o.Latency) * math.Exp(spread*rng.NormFloat64()))
				c.Record(metrics.Kind(o.Op), pts, d, d)
			}
			for i := 0; i < o.FailPerSec; i++ {
				c.Fail(metrics.Kind(o.Op), pts, errTimeout)
			}
		}
		at := start.Add(time.Duration(sec+1) * time.Second)
		run.Snapshot(at)
		res.Samples = append(res.Samples, summary.ResourceSample{Time: at, T: float64(sec + 1),
			Tool:   &summary.ProcessUsage{PID: 100, CPUPercent: 40 + 5*rng.Float64(), RSSBytes: 80 << 20},
			Server: &summary.ProcessUsage{PID: 200, Processes: 3, CPUPercent: 120 + 10*rng.Float64(), RSSBytes: 300 << 20, WriteBytesPerS: 5e6},
			Host: &summary.HostUsage{CPUPercent: 70 + 5*rng.Float64(), Cores: 2, MemUsedBytes: 4 << 30, MemTotalBytes: 24 << 30,
				DiskWriteBytesPerS: 6e6, NetRecvBytesPerS: 2e6, NetSentBytesPerS: 2e6}})
	}
	elapsed := time.Duration(r.Seconds) * time.Second
	s := &summary.Summary{
		SchemaVersion: summary.SchemaVersion, RunID: r.ID, Target: r.Target, Started: r.Started,
		StopReason: "duration", SchemaSeconds: 0.5, Elapsed: elapsed.Seconds(),
		Phases:     []summary.Phase{{Name: "schema", Seconds: 0.5}},
		Operations: run.Operations(elapsed), Intervals: run.Intervals(),
		Tool:           summary.Tool{Version: "test", CPUSeconds: 1.5, PeakRSSBytes: 90 << 20},
		Environment:    summary.Environment{Hostname: "testhost", OS: "linux/amd64", CPUModel: "Test CPU", Cores: 2, MemoryBytes: 24 << 30, GoVersion: "go1.26"},
		Config:         map[string]any{"db_switch": r.Target, "client_number": 1, "loop": 100},
		MeasureStarted: start, Resources: res,
	}
	var pts int64
	for _, o := range s.Operations {
		pts += o.OKPoints
	}
	s.Verify = &summary.Verify{ExpectedPoints: pts, StoredPoints: pts, OK: true}
	return s
}

type timeoutError struct{}

func (timeoutError) Error() string { return "context deadline exceeded" }

var errTimeout = timeoutError{}
