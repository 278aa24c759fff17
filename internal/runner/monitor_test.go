package runner

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
)

type fakeMonitor struct {
	mu           sync.Mutex
	start, stop  time.Time
	ticks        []time.Time
	startedTwice bool
}

func (f *fakeMonitor) Start(at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.startedTwice = !f.start.IsZero()
	f.start = at
}

func (f *fakeMonitor) Tick(at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ticks = append(f.ticks, at)
}

func (f *fakeMonitor) Stop(at time.Time) *summary.Resources {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stop = at
	return &summary.Resources{IntervalSeconds: 1, Samples: []summary.ResourceSample{{T: 1}}}
}

// The Monitor hook sees the measured phase: started when it begins, ticked
// with every interval, stopped at its end; its result lands in the summary
// with the phase's start time.
func TestMonitorHook(t *testing.T) {
	c, err := config.FromArgs("DB_SWITCH=sqlite", "DEVICE_NUMBER=2", "SENSOR_NUMBER=2", "CLIENT_NUMBER=1",
		"LOOP=1000000000", "OPERATION_PROPORTION=1", "duration=2200ms", "warmup=300ms")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := targets.Lookup(c.Target)
	r, err := New(c, d, targets.Options{Database: "test", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeMonitor{}
	r.Hooks.Monitor = m
	var live []summary.Interval
	r.Hooks.OnInterval = testenv.InSequence(t, "interval", &live)
	before := time.Now()
	s, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if m.start.IsZero() || m.startedTwice || m.stop.Before(m.start) || len(m.ticks) < 2 {
		t.Fatalf("hook calls: start %v, stop %v, %d ticks", m.start, m.stop, len(m.ticks))
	}
	if m.start.Sub(before) < 300*time.Millisecond {
		t.Errorf("monitor started %v after the run began: before the warm-up ended", m.start.Sub(before))
	}
	if !s.MeasureStarted.Equal(m.start.UTC()) || s.Resources == nil || len(s.Resources.Samples) != 1 {
		t.Errorf("summary: measure started %v (monitor %v), resources %+v", s.MeasureStarted, m.start, s.Resources)
	}
	// One tick per one-second interval; the last, partial one ends with Stop.
	if n := len(s.Intervals); len(m.ticks) != n && len(m.ticks) != n-1 {
		t.Errorf("%d intervals but %d ticks", n, len(m.ticks))
	}
	// OnInterval saw every closed interval as the summary holds it; only the
	// last, closed after the clients stopped, comes with the summary alone.
	if len(live) < 2 || len(live) > len(s.Intervals) {
		t.Fatalf("%d intervals handed over live, %d in the summary", len(live), len(s.Intervals))
	}
	for i, iv := range live {
		if !reflect.DeepEqual(iv, s.Intervals[i]) {
			t.Errorf("interval %d: live %+v, summary %+v", i, iv, s.Intervals[i])
		}
	}
}
