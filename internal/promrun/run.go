// Package promrun runs the prometheus workload (internal/promshape's
// shape) on the engine: its workers write the scrapes by remote write,
// each its own slots in time order, then evaluate the read load (every
// recording rule and alert at scrape times, every dashboard as a range
// query) and compare each answer with the one the model computes.
package promrun

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// The operations, as engine.Config.Names: metrics.Kind i is Names[i].
const (
	opWrite metrics.Kind = iota
	opRule
	opAlert
	opDashboard
)

// Names are the run's operations: the writes under the name every
// workload's writes have, the queries under their promshape kind.
var Names = []string{"INGESTION", "RULE", "ALERT", "DASHBOARD"}

// Margin is how far before the run's start the last scrape lies, at
// least: VictoriaMetrics hides samples newer than its -search.latencyOffset
// (30 s by default) from queries.
const Margin = time.Minute

// Config is a run's shape and how its operations are bounded.
type Config struct {
	Shape        promshape.Config // Start and Job are set by Plan
	Scrapes      int64
	WriteTimeout time.Duration
	ReadTimeout  time.Duration
	// Engine is the store's PromQL engine (targets.Language.Engine), whose
	// answers to the rate queries the model computes.
	Engine string

	// A run split between worker processes (WORKERS): each writes the
	// targets of its clients; worker 0 alone asks the read load, whose
	// answers hold every worker's samples, once AllWritten says every
	// worker has written; the others are WriteOnly.
	AllWritten func(context.Context) error
	WriteOnly  bool

	// ReadWhileWriting asks each rule and alert at a scrape's time as soon
	// as every worker has written that scrape and those before it (the
	// store settled to them), beside the writes still going; the
	// dashboards, over the whole written range, once all is written. The
	// answers are the same: one at time t reads samples up to t only.
	ReadWhileWriting bool
	// NoReads leaves the read load out: the run writes, and counts what it
	// wrote, only.
	NoReads bool
	// RealTime stamps the samples with the wall clock: scrape k is
	// written at its time, Start + k intervals, as a Prometheus server
	// sends what it scrapes, and the run lasts its scrapes' span.
	RealTime bool
}

// Plan sets the shape's start: the scrapes end at least Margin before now
// (with RealTime the first is the first after now), Start a multiple of a
// dashboard's step (so that range queries start on scrape times,
// promshape.RangeStart, and at the same scrapes in every run: runs on two
// stores then answer alike), and the job label, unique to the run.
func Plan(c Config, now time.Time, job string) Config {
	iv := c.Shape.Interval.Milliseconds()
	grid := promshape.WindowScrapes * iv
	if c.RealTime {
		// The first scrape on the grid's next line: its time is still to
		// come when the writing starts.
		c.Shape.Start = (now.UnixMilli()/grid + 1) * grid
	} else {
		c.Shape.Start = (now.UnixMilli() - Margin.Milliseconds() - (c.Scrapes-1)*iv) / grid * grid
	}
	c.Shape.Job = job
	return c
}

// Run is one run of the workload.
type Run struct {
	cfg     Config
	m       *promshape.Model
	metrics map[string]bool // the metric names, for Scope
	jobs    []job
	lo, hi  int // the slots this process writes (OpenShare)

	writing atomic.Int64 // workers still writing
	// progress is each worker's scrapes done (acknowledged or given up),
	// which ReadWhileWriting's queries wait for; settledTo the scrapes the
	// store was last settled after.
	progress  []atomic.Int64
	settleMu  sync.Mutex
	settledTo atomic.Int64
	next      atomic.Int64 // the next query job
	settle    sync.Once
	settled   error
	acked     atomic.Int64 // samples acknowledged, staleness markers left out
	sent      sent         // the acknowledged requests
	failedWr  atomic.Int64 // requests given up
	resent    atomic.Int64 // writes sent again

	// Report receives the first mismatch or failure of each query, as it
	// happens (the console).
	Report func(string)

	mu      sync.Mutex
	checks  map[string]*check
	order   []string
	digests []uint64 // each job's answer's, when answered
	ok      []bool   // each job answered (right or wrong), not failed
}

// check is what the answers to one query came to.
type check struct {
	answers, mismatches, errors int64
	first                       string // the first mismatch or error
	perEngine                   string // the query's text when its answers depend on the engine
	latency                     timing // of the answers, right or wrong
}

// timing gathers a query's latencies: its histogram and the exact
// extremes and sum that metrics.Percentiles reads with it.
type timing struct {
	hist                *hdrhistogram.Histogram
	n, sum, least, most int64 // ns
}

func (t *timing) add(d time.Duration) {
	if d <= 0 { // not measured: a warm-up's
		return
	}
	if t.hist == nil {
		t.hist = metrics.NewHistogram()
	}
	ns := d.Nanoseconds()
	_ = t.hist.RecordValue(max(1, d.Microseconds()))
	if t.n == 0 || ns < t.least {
		t.least = ns
	}
	t.most = max(t.most, ns)
	t.n++
	t.sum += ns
}

// summary is the latencies' row, nil without one.
func (t *timing) summary() *summary.Latency {
	if t.n == 0 {
		return nil
	}
	l := metrics.Percentiles(t.hist, t.n, t.sum, t.least, t.most)
	return &l
}

// New prepares a run of the planned config.
func New(c Config) (*Run, error) {
	m, err := promshape.New(c.Shape)
	if err != nil {
		return nil, err
	}
	if c.Scrapes < 1 {
		return nil, fmt.Errorf("promrun: scrapes %d must be at least 1", c.Scrapes)
	}
	r := &Run{cfg: c, m: m, metrics: map[string]bool{}, checks: map[string]*check{}, hi: c.Shape.Targets}
	series, err := m.Series(0, 0)
	if err != nil {
		return nil, err
	}
	for _, ls := range series {
		for _, l := range ls {
			if l.Name == remotewrite.MetricName {
				r.metrics[l.Value] = true
			}
		}
	}
	if r.jobs, err = r.plan(); err != nil {
		return nil, err
	}
	if c.WriteOnly || c.NoReads {
		r.jobs = nil
	}
	r.digests, r.ok = make([]uint64, len(r.jobs)), make([]bool, len(r.jobs))
	for _, q := range m.Queries() {
		r.checks[q.Name] = &check{}
		if q.PerEngine {
			r.checks[q.Name].perEngine = q.PromQL
		}
		r.order = append(r.order, q.Name)
	}
	return r, nil
}

// Config is the run's config, as planned.
func (r *Run) Config() Config { return r.cfg }

// Model is the run's model.
func (r *Run) Model() *promshape.Model { return r.m }

// Operations is how many operations the plan holds for clients first,
// first+1, ... first+n-1 of total (OpenShare's): each client's requests
// per scrape for every scrape, and the queries (the progress line's
// total).
func (r *Run) Operations(first, n, total int) int64 {
	ops := int64(len(r.jobs))
	for c := first; c < first+n; c++ {
		lo, hi := r.slots(c, total)
		ops += r.cfg.Scrapes * int64(r.requests(lo, hi).n)
	}
	return ops
}

// MaxRequestSamples bounds the samples of a remote write request: a
// client's scrape of more targets goes in several requests, as
// Prometheus' queue (max_samples_per_send, 2,000) and vmagent (10,000
// rows a block) split theirs; a request of a quarter of a million
// samples is past VictoriaMetrics' request size, which refuses it.
const MaxRequestSamples = 10_000

// split is how a client's slots go into a scrape's requests: n requests
// of per slots each (the last fewer).
type split struct{ n, per int }

// requests splits the slots [lo, hi) into requests of at most
// MaxRequestSamples live samples, as even as they can be.
func (r *Run) requests(lo, hi int) split {
	slots := hi - lo
	if slots == 0 {
		return split{}
	}
	most := max(1, MaxRequestSamples/r.m.SeriesPerTarget())
	n := (slots + most - 1) / most
	return split{n: n, per: (slots + n - 1) / n}
}

// slots is client c of total's share of the targets: [lo, hi).
func (r *Run) slots(c, total int) (lo, hi int) {
	targets := r.cfg.Shape.Targets
	return c * targets / total, (c + 1) * targets / total
}

// Queries is how many query operations the read load holds.
func (r *Run) Queries() int { return len(r.jobs) }

// Open gives a worker per store, each writing its share of the slots.
func (r *Run) Open(stores []targets.PromStore) []engine.Worker {
	return r.OpenShare(stores, 0, len(stores))
}

// OpenShare gives a worker per store, the stores being clients first,
// first+1, ... of total (a worker process's share, WORKERS): client c
// writes slots [c x targets / total, (c+1) x targets / total).
func (r *Run) OpenShare(stores []targets.PromStore, first, total int) []engine.Worker {
	workers := make([]engine.Worker, len(stores))
	for i, s := range stores {
		lo, hi := r.slots(first+i, total)
		workers[i] = &worker{r: r, i: i, store: s, sc: r.m.NewScraper(), lo: lo, hi: hi, split: r.requests(lo, hi)}
	}
	r.progress = make([]atomic.Int64, len(stores))
	r.lo, _ = r.slots(first, total)
	r.hi, _ = r.slots(first+len(stores), total)
	r.writing.Store(int64(len(stores)))
	return workers
}

// Acked is the samples acknowledged, staleness markers left out: what
// count_over_time over the written range must find.
func (r *Run) Acked() int64 { return r.acked.Load() }

// sent counts the acknowledged requests, their samples (staleness
// markers included) and compressed bytes.
type sent struct{ requests, samples, bytes atomic.Int64 }

// RemoteWrite is what the run's acknowledged requests sent, in the
// stores' version.
func (r *Run) RemoteWrite(v remotewrite.Version) *summary.RemoteWrite {
	rw := &summary.RemoteWrite{Version: v.String(), Requests: r.sent.requests.Load(), Samples: r.sent.samples.Load(),
		Bytes: r.sent.bytes.Load()}
	if rw.Samples > 0 {
		rw.BytesPerSample = float64(rw.Bytes) / float64(rw.Samples)
	}
	rw.ActiveSeries = int64(r.hi-r.lo) * int64(r.m.SeriesPerTarget())
	last := r.cfg.Scrapes - 1
	if minutes := float64(r.cfg.Scrapes) * r.cfg.Shape.Interval.Minutes(); minutes > 0 {
		rw.NewSeriesPerMinute = float64(r.m.SeriesWritten(r.lo, r.hi, last)-rw.ActiveSeries) / minutes
	}
	return rw
}

// FailedWrites is how many requests were given up: never acknowledged.
func (r *Run) FailedWrites() int64 { return r.failedWr.Load() }

// Resent is how many writes were sent again after a recoverable failure.
func (r *Run) Resent() int64 { return r.resent.Load() }
