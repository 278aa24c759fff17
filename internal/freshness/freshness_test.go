package freshness

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/null"
	"github.com/tsbench/tsbench/internal/ts"
)

// probeOn opens a writer and a reader on the null target with opts.
func probeOn(t *testing.T, db string, extra map[string]string, rate float64, wait time.Duration) *Probe {
	t.Helper()
	ctx := context.Background()
	o := targets.Options{Database: db, Extra: extra}
	w, err := null.Driver.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := null.Driver.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	s := Schema(db, "g_", "d_", "s_", time.Now(), rate)
	if err := w.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	return &Probe{Writer: w, Reader: r, Schema: s, Rate: rate, Poll: time.Millisecond, Wait: wait, Timeout: 5 * time.Second}
}

func runFor(p *Probe, d time.Duration) *summary.Freshness {
	stop := make(chan struct{})
	time.AfterFunc(d, func() { close(stop) })
	return p.Run(context.Background(), stop)
}

// TestKnownDelay: a server that shows a point 500 ms after acknowledging
// it is measured at 500 ms: never less, its median within 10 %, and its
// p99 within 10 % or 50 ms, whichever is more (the poll loop's own
// scheduling delays on a loaded machine reach the tail: 114 ms for a
// 100 ms delay in a CI run).
func TestKnownDelay(t *testing.T) {
	for _, delay := range []time.Duration{100 * time.Millisecond, 500 * time.Millisecond} {
		t.Run(delay.String(), func(t *testing.T) {
			p := probeOn(t, "known-"+delay.String(), map[string]string{"visible_after": delay.String()}, 40, 5*time.Second)
			f := runFor(p, 2*time.Second)
			if f.Written < 60 || f.Visible != f.Written || f.Unseen != 0 || f.FailedWrites != 0 {
				t.Fatalf("written %d, visible %d, unseen %d, failed %d", f.Written, f.Visible, f.Unseen, f.FailedWrites)
			}
			want := float64(delay.Milliseconds())
			for _, c := range []struct {
				name  string
				ms    float64
				slack float64
			}{
				{"p50", f.AfterAck.P50MS, want * 0.1}, {"send p50", f.AfterSend.P50MS, want * 0.1},
				{"p99", f.AfterAck.P99MS, max(want*0.1, 50)},
			} {
				if c.ms < want || c.ms > want+c.slack {
					t.Errorf("%s after acknowledgment %.1f ms, want %v to %v", c.name, c.ms, want, want+c.slack)
				}
			}
			if f.PollCount == 0 || f.Polls.Count == 0 || f.AfterAck.Histogram == "" {
				t.Errorf("polls %d, poll histogram %d, ack histogram %q", f.PollCount, f.Polls.Count, f.AfterAck.Histogram)
			}
		})
	}
}

// TestNeverVisible: points no poll returns are counted unseen once the
// wait is over, and the run does not wait longer than Wait for them.
func TestNeverVisible(t *testing.T) {
	p := probeOn(t, "never", nil, 20, 300*time.Millisecond)
	t0 := time.Now()
	f := runFor(p, 500*time.Millisecond)
	if took := time.Since(t0); took > 3*time.Second {
		t.Errorf("the probe took %v, want about 0.8 s", took)
	}
	if f.Written == 0 || f.Unseen != f.Written || f.Visible != 0 || f.AfterAck.Count != 0 {
		t.Fatalf("written %d, unseen %d, visible %d, ack histogram %d", f.Written, f.Unseen, f.Visible, f.AfterAck.Count)
	}
}

// TestBatchCarriesItsSequence: a probe point's value is its sequence
// number, which is how a poll's one answer tells every point up to it.
func TestBatchCarriesItsSequence(t *testing.T) {
	p := &Probe{Schema: Schema("db", "g_", "d_", "s_", time.Unix(100, 0), 10)}
	b := p.batch(123456, 7)
	if b.Len() != 1 || b.Times[0] != 123456 || b.Columns[0].Type != ts.Double || b.Columns[0].Doubles[0] != 7 || b.Points() != 1 {
		t.Fatalf("batch %+v", b)
	}
	if p.Schema.PointStep != 100 || len(p.Schema.Devices) != 1 || len(p.Schema.Sensors) != 1 {
		t.Fatalf("schema %+v", p.Schema)
	}
}
