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

// dueWorker asks its operations each due (Op.Due) gap after the one before,
// from start; the third one's call takes slow.
type dueWorker struct {
	start     time.Time
	gap, slow time.Duration
	n, step   int
	early     []int // operations called before they were due
}

func (w *dueWorker) Step(_ context.Context, h *Handle, warm bool) bool {
	if w.step == w.n {
		return false
	}
	i := w.step
	w.step++
	due := w.start.Add(time.Duration(i) * w.gap)
	done, _ := h.Do(Op{Kind: 0, Due: due}, warm, func(context.Context) (int64, error) {
		if time.Now().Before(due) {
			w.early = append(w.early, i)
		}
		if i == 2 {
			time.Sleep(w.slow)
		}
		return 1, nil
	})
	return done
}

// An operation with its own due time (Op.Due) waits for it, in no
// latency, and one sent late behind a slow answer counts from its due
// time: the closed loop's coordinated omission does not hide the wait.
func TestDueTimeIsTheIntendedStart(t *testing.T) {
	const gap, slow = 50 * time.Millisecond, 200 * time.Millisecond
	e := New(Config{Names: []string{"WRITE"}, Workers: 1}, Hooks{})
	w := &dueWorker{start: time.Now().Add(gap), gap: gap, slow: slow, n: 8}
	res := e.Run(context.Background(), []Worker{w}, e.Handles(1))
	op := res.Operations[0]
	if op.OKOperations != 8 || len(w.early) > 0 {
		t.Fatalf("%d operations, called early: %v", op.OKOperations, w.early)
	}
	// The third took 200 ms; the three due in it were sent late and count
	// from their due times (150, 100 and 50 ms); the others' latency is
	// near 0: 8 operations averaging 62.5 ms. Counted from their sends the
	// late three would be near 0 too, the mean 25 ms.
	if op.LatencyMS.Max < 0.9*float64(slow.Milliseconds()) || op.LatencyMS.P50 >= float64(gap.Milliseconds())/2 ||
		op.LatencyMS.Avg < 45 {
		t.Errorf("latency p50 %.1f, mean %.1f, max %.1f ms: want the waits for the due times out, the slow one's and the "+
			"late ones' in", op.LatencyMS.P50, op.LatencyMS.Avg, op.LatencyMS.Max)
	}
}
