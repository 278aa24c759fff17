package freshness

import (
	"context"
	"fmt"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
)

// Session is a run's probe (FRESHNESS): it writes and polls its own
// series, in a database of its own, through two connections of its own,
// during the measured phase, beside whichever workload runs. A nil
// Session is a run without a probe: its methods do nothing.
type Session struct {
	probe  *Probe
	stop   chan struct{}
	result chan *summary.Freshness
}

// Settings are the probe's: its rate, polls and wait (the FRESHNESS_*
// keys), each write's and poll's timeout, and the names its series takes.
type Settings struct {
	Rate                                    float64
	Poll, Wait, Timeout                     time.Duration
	GroupPrefix, DevicePrefix, SensorPrefix string
}

// Opener opens a connection with the options given (a driver's Open, or
// one that splits writes and queries between endpoints).
type Opener func(context.Context, targets.Options) (targets.Target, error)

// Open opens the probe's two connections to o's probe database (Options)
// and creates its series; target names the target in errors.
func Open(ctx context.Context, target string, open Opener, o targets.Options, st Settings) (*Session, error) {
	o = Options(o)
	w, err := open(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("%s: freshness probe: connect: %w", target, err)
	}
	rd, err := open(ctx, o)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: freshness probe: connect: %w", target, err)
	}
	s := Schema(o.Database, st.GroupPrefix, st.DevicePrefix, st.SensorPrefix, time.Now(), st.Rate)
	err = w.Setup(ctx, s, true)
	if b, ok := rd.(targets.Binder); ok && err == nil {
		err = b.Bind(ctx, s)
	}
	if err != nil {
		w.Close()
		rd.Close()
		return nil, fmt.Errorf("%s: freshness probe: create %s: %w", target, o.Database, err)
	}
	return &Session{
		probe: &Probe{Writer: w, Reader: rd, Schema: s, Rate: st.Rate, Poll: st.Poll, Wait: st.Wait, Timeout: st.Timeout},
		stop:  make(chan struct{}), result: make(chan *summary.Freshness, 1)}, nil
}

// Options are o with the probe's database (and the query endpoint's).
func Options(o targets.Options) targets.Options {
	o.Database = Database(o.Database)
	if o.Query != nil {
		q := *o.Query
		q.Database = Database(q.Database)
		o.Query = &q
	}
	return o
}

// Start begins writing and polling (the measured phase begins).
func (f *Session) Start(ctx context.Context) {
	if f == nil {
		return
	}
	go func() { f.result <- f.probe.Run(ctx, f.stop) }()
}

// End stops writing, waits for the probe's last polls and returns its
// account; nil without a probe.
func (f *Session) End() *summary.Freshness {
	if f == nil {
		return nil
	}
	close(f.stop)
	return <-f.result
}

// Close releases the probe's connections.
func (f *Session) Close() {
	if f != nil {
		f.probe.Writer.Close()
		f.probe.Reader.Close()
	}
}

// Around returns h with the probe started as the measured phase begins
// and ended as it ends, its account handed to done, around h's own
// OnMeasure and OnMeasured.
func (f *Session) Around(ctx context.Context, h engine.Hooks, done func(*summary.Freshness)) engine.Hooks {
	if f == nil {
		return h
	}
	onMeasure, onMeasured := h.OnMeasure, h.OnMeasured
	h.OnMeasure = func(start time.Time) {
		f.Start(ctx)
		if onMeasure != nil {
			onMeasure(start)
		}
	}
	h.OnMeasured = func() {
		done(f.End())
		if onMeasured != nil {
			onMeasured()
		}
	}
	return h
}
