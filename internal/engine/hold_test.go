package engine

import (
	"context"
	"testing"
	"time"
)

// holdWorker asks ops operations at once, waits (held or not) for wait,
// then asks ops more: under --rate the second ones' latency holds the
// wait unless the worker held it.
type holdWorker struct {
	ops  int
	wait time.Duration
	held bool
	step int
}

func (w *holdWorker) Step(_ context.Context, h *Handle, warm bool) bool {
	if w.step == w.ops {
		pause := func() bool { return h.Pause(w.wait) }
		if w.held {
			h.Hold(pause)
		} else {
			pause()
		}
	}
	if w.step == 2*w.ops {
		return false
	}
	w.step++
	done, _ := h.Do(Op{Kind: 0}, warm, func(context.Context) (int64, error) { return 1, nil })
	return done
}

// In the open model a wait of the tool's own that the worker holds
// (Handle.Hold) is in no operation's latency, and the operations after it
// are due from its end; one it does not hold is, as the open model must
// count a stall of the server's.
func TestHoldKeepsTheToolsWaitOutOfLatency(t *testing.T) {
	const wait = 300 * time.Millisecond
	for _, held := range []bool{true, false} {
		e := New(Config{Names: []string{"QUERY"}, Rate: 200, Workers: 1}, Hooks{})
		w := &holdWorker{ops: 20, wait: wait, held: held}
		res := e.Run(context.Background(), []Worker{w}, e.Handles(1))
		op := res.Operations[0]
		if op.OKOperations != 40 {
			t.Fatalf("held %v: %d operations, want 40", held, op.OKOperations)
		}
		maxMS := op.LatencyMS.Max
		switch {
		case held && maxMS >= float64(wait/time.Millisecond)/2:
			t.Errorf("held: the slowest operation took %.1f ms: it holds the %v wait", maxMS, wait)
		case !held && maxMS < float64(wait/time.Millisecond)*3/4:
			t.Errorf("not held: the slowest operation took %.1f ms, less than the %v the schedule ran on", maxMS, wait)
		}
	}
}

// resume moves the schedule only forward, and only in the open model.
func TestPacerResume(t *testing.T) {
	base := time.Unix(1000, 0)
	for _, c := range []struct {
		name     string
		interval time.Duration
		issued   int64
		now      time.Time
		want     time.Time
	}{
		{"behind: due now", 10 * time.Millisecond, 5, base.Add(time.Second), base.Add(time.Second)},
		{"ahead: unchanged", 10 * time.Millisecond, 5, base, base.Add(50 * time.Millisecond)},
		{"closed model", 0, 5, base.Add(time.Second), time.Time{}},
	} {
		p := pacer{interval: c.interval, origin: base, issued: c.issued}
		p.resume(c.now)
		if got := p.next(); !got.Equal(c.want) {
			t.Errorf("%s: next due %v, want %v", c.name, got, c.want)
		}
	}
}
