package runner

import (
	"context"
	"fmt"

	"time"

	"github.com/tsbench/tsbench/internal/freshness"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// freshnessRun is the run's freshness probe (FRESHNESS): it writes and
// polls its own series in a database of its own through two connections of
// its own, during the measured phase.
type freshnessRun struct {
	probe  *freshness.Probe
	stop   chan struct{}
	result chan *summary.Freshness
}

// prepareFreshness opens the probe's connections and creates its series;
// nil when the run has no probe. Only the first worker of a scaled-out run
// probes: one probe is enough, and more would write one series together.
func (r *Runner) prepareFreshness(ctx context.Context) (*freshnessRun, error) {
	cfg := r.cfg
	if !cfg.Freshness || r.Barrier != nil && cfg.WorkerIndex != 0 {
		return nil, nil
	}
	o := probeOptions(r.hostList().opts[0])
	w, err := r.open(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("%s: freshness probe: connect: %w", r.driver.Name, err)
	}
	rd, err := r.open(ctx, o)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: freshness probe: connect: %w", r.driver.Name, err)
	}
	s := freshness.Schema(o.Database, cfg.GroupPrefix, cfg.DevicePrefix, cfg.SensorPrefix, time.Now(), cfg.FreshnessRate)
	err = w.Setup(ctx, s, true)
	if b, ok := rd.(targets.Binder); ok && err == nil {
		err = b.Bind(ctx, s)
	}
	if err != nil {
		w.Close()
		rd.Close()
		return nil, fmt.Errorf("%s: freshness probe: create %s: %w", r.driver.Name, o.Database, err)
	}
	timeout := max(cfg.WriteTimeout, cfg.ReadTimeout, 10*time.Second)
	return &freshnessRun{
		probe: &freshness.Probe{Writer: w, Reader: rd, Schema: s, Rate: cfg.FreshnessRate,
			Poll: cfg.FreshnessPoll, Wait: cfg.FreshnessWait, Timeout: timeout},
		stop: make(chan struct{}), result: make(chan *summary.Freshness, 1)}, nil
}

// probeOptions are o with the probe's database (and the query endpoint's).
func probeOptions(o targets.Options) targets.Options {
	o.Database = freshness.Database(o.Database)
	if o.Query != nil {
		q := *o.Query
		q.Database = freshness.Database(q.Database)
		o.Query = &q
	}
	return o
}

// start begins writing and polling.
func (f *freshnessRun) start(ctx context.Context) {
	if f == nil {
		return
	}
	go func() { f.result <- f.probe.Run(ctx, f.stop) }()
}

// end stops writing, waits for the probe's last polls and records them.
func (f *freshnessRun) end(s *summary.Summary) {
	if f == nil {
		return
	}
	close(f.stop)
	s.Freshness = <-f.result
}

// close releases the probe's connections.
func (f *freshnessRun) close() {
	if f != nil {
		f.probe.Writer.Close()
		f.probe.Reader.Close()
	}
}
