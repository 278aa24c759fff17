// Package freshness measures how long a written point takes to become
// visible to a query. Several servers acknowledge a write before a query can
// see it (a buffer flushed every second or so, a write-ahead log applied
// later, asynchronous inserts): a benchmark of writes alone cannot tell.
//
// The probe writes one series, one point per write at a fixed rate, through
// one connection, and polls that series' newest point through another. Each
// point's value is its sequence number, so one answer of the newest point
// says which points are visible: every point up to it, since a series'
// points are written in order. A point's freshness is the time from its
// write's acknowledgment (and, separately, from its send) until the first
// poll that returned it completed. That includes a poll's own latency, which
// is reported beside it as the measurement's resolution.
package freshness

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/crash"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Probe is one freshness measurement.
type Probe struct {
	// Writer and Reader are two connections to the server; Writer has set
	// up Schema.
	Writer, Reader targets.Target
	Schema         *ts.Schema // one device with one DOUBLE sensor
	Rate           float64    // writes per second
	// Poll is the pause between the reader's polls: 0 polls back to back.
	Poll time.Duration
	// Wait bounds how long after the run the reader keeps polling for
	// acknowledged points it has not seen.
	Wait time.Duration
	// Timeout bounds each write and each poll.
	Timeout time.Duration
}

// point is one write of the probe.
type point struct {
	sent, acked, visible time.Time
	failed               bool
}

// state is what the writer and the reader share.
type state struct {
	mu       sync.Mutex
	points   []point // points[i] has value i+1
	written  int     // writes finished (acknowledged or failed)
	lastAck  int     // highest acknowledged sequence number
	seen     int     // highest sequence number a poll returned
	failures int64
}

// Run writes until stop closes, then waits for what is still unseen (at
// most Wait), and returns the account. ctx ends it early (interrupted).
func (p *Probe) Run(ctx context.Context, stop <-chan struct{}) *summary.Freshness {
	st := &state{}
	readerDone := make(chan struct{})
	writing := make(chan struct{})
	polls := metrics.NewHistogram()
	var pollCount, pollErrors int64
	var firstErr error
	go func() {
		defer close(readerDone)
		pollCount, pollErrors, firstErr = p.read(ctx, st, writing, polls)
	}()
	p.write(ctx, st, stop)
	close(writing)
	<-readerDone

	out := &summary.Freshness{Database: p.Schema.Database, Rate: p.Rate, PollMS: ms(p.Poll), WaitS: p.Wait.Seconds(),
		PollCount: pollCount, PollErrors: pollErrors, Polls: distribution(polls), Interrupted: ctx.Err() != nil}
	if firstErr != nil {
		out.FirstError = firstErr.Error()
	}
	st.account(out)
	return out
}

// write writes one point every 1/Rate until stop closes or ctx ends.
func (p *Probe) write(ctx context.Context, st *state, stop <-chan struct{}) {
	interval := time.Duration(float64(time.Second) / p.Rate)
	next := time.Now()
	var lastTime int64
	for seq := 1; ; seq++ {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		next = next.Add(interval)
		sent := time.Now()
		// Times are the wall clock's, strictly increasing: freshness is a
		// question about data arriving now, and some servers treat recent
		// points apart from old ones.
		t := max(sent.UnixMilli(), lastTime+1)
		lastTime = t
		st.mu.Lock()
		st.points = append(st.points, point{sent: sent})
		st.mu.Unlock()
		wctx, cancel := context.WithTimeout(ctx, p.Timeout)
		err := p.Writer.Write(wctx, p.batch(t, seq))
		cancel()
		acked := time.Now()
		st.mu.Lock()
		st.written = seq
		if err != nil {
			st.points[seq-1].failed = true
			st.failures++
		} else {
			st.points[seq-1].acked = acked
			st.lastAck = seq
		}
		st.mu.Unlock()
	}
}

// batch is the probe's write of point seq at time t: its value is seq.
func (p *Probe) batch(t int64, seq int) *ts.Batch {
	return &ts.Batch{
		Device:   &p.Schema.Devices[0],
		Times:    []int64{t},
		Rows:     []int64{int64(seq - 1)},
		Decimals: 0,
		Columns: []ts.Column{{Type: ts.Double, Doubles: []float64{float64(seq)},
			Fixed: []int64{int64(seq)}}},
	}
}

// read polls the newest point until the writer has stopped and every
// acknowledged point has been seen, or Wait has passed since it stopped.
func (p *Probe) read(ctx context.Context, st *state, writing <-chan struct{}, polls *hdrhistogram.Histogram) (n, errs int64, first error) {
	q := &ts.Query{Kind: ts.LatestPoint, Devices: []*ts.Device{&p.Schema.Devices[0]}, Sensors: []int{0}}
	var deadline time.Time
	for ctx.Err() == nil {
		if deadline.IsZero() {
			select {
			case <-writing:
				deadline = time.Now().Add(p.Wait)
			default:
			}
		}
		if !deadline.IsZero() && (st.allSeen() || time.Now().After(deadline)) {
			return n, errs, first
		}
		seq, took, err := p.poll(ctx, q)
		n++
		if err != nil {
			errs++
			if first == nil && !errors.Is(err, context.Canceled) {
				first = err
			}
			crash.Sleep(ctx, max(p.Poll, 10*time.Millisecond)) // a failing server is not hammered
			continue
		}
		polls.RecordValue(max(took.Microseconds(), 1)) //nolint:errcheck // clamped by the histogram's range
		st.sawUpTo(seq, time.Now())
		crash.Sleep(ctx, p.Poll)
	}
	return n, errs, first
}

// poll asks for the newest point and returns its sequence number (0 when
// the series has none yet) and the poll's latency.
func (p *Probe) poll(ctx context.Context, q *ts.Query) (int, time.Duration, error) {
	qctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	t0 := time.Now()
	res, err := p.Reader.Query(qctx, q)
	took := time.Since(t0)
	if err != nil {
		return 0, took, fmt.Errorf("freshness: poll the newest point: %w", err)
	}
	if res.Points == 0 {
		return 0, took, nil
	}
	seq := int(res.Sum)
	if res.Points != 1 || float64(seq) != res.Sum || seq < 1 {
		return 0, took, fmt.Errorf("freshness: the newest point of the probe's series came back as %d point(s) summing to %v, want one point whose value is its sequence number", res.Points, res.Sum)
	}
	return seq, took, nil
}

// sawUpTo marks every point up to seq visible at now, unless seen before.
func (st *state) sawUpTo(seq int, now time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	seq = min(seq, len(st.points))
	for i := st.seen; i < seq; i++ {
		st.points[i].visible = now
	}
	st.seen = max(st.seen, seq)
}

// allSeen reports whether the writer's last acknowledged point was seen.
func (st *state) allSeen() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.seen >= st.lastAck
}

// account fills out's counts and distributions from the points.
func (st *state) account(out *summary.Freshness) {
	st.mu.Lock()
	defer st.mu.Unlock()
	afterAck, afterSend := metrics.NewHistogram(), metrics.NewHistogram()
	out.FailedWrites = st.failures
	for _, pt := range st.points[:st.written] {
		if pt.failed {
			continue // never acknowledged: not the server's to show
		}
		out.Written++
		if pt.visible.IsZero() {
			out.Unseen++
			continue
		}
		out.Visible++
		fromAck := pt.visible.Sub(pt.acked)
		if fromAck < 0 {
			out.BeforeAck++
			fromAck = 0
		}
		afterAck.RecordValue(max(fromAck.Microseconds(), 1))                  //nolint:errcheck // clamped by the histogram's range
		afterSend.RecordValue(max(pt.visible.Sub(pt.sent).Microseconds(), 1)) //nolint:errcheck // clamped by the histogram's range
	}
	out.AfterAck, out.AfterSend = distribution(afterAck), distribution(afterSend)
}

func distribution(h *hdrhistogram.Histogram) summary.Distribution {
	if h.TotalCount() == 0 {
		return summary.Distribution{}
	}
	us := func(v int64) float64 { return float64(v) / 1000 }
	return summary.Distribution{Count: h.TotalCount(), MeanMS: h.Mean() / 1000,
		P50MS: us(h.ValueAtQuantile(50)), P90MS: us(h.ValueAtQuantile(90)), P99MS: us(h.ValueAtQuantile(99)),
		MaxMS: us(h.Max()), Histogram: metrics.Encode(h)}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Schema is the probe's series: in database db, one group, one device and
// one DOUBLE sensor named with the run's prefixes, its points from start
// about 1/rate apart.
func Schema(db, groupPrefix, devicePrefix, sensorPrefix string, start time.Time, rate float64) *ts.Schema {
	step := max(int64(1000/rate), 1)
	return &ts.Schema{
		Database:  db,
		Groups:    []string{groupPrefix + "0"},
		Devices:   []ts.Device{{Index: 0, Name: devicePrefix + "0", Group: 0}},
		Sensors:   []ts.Sensor{{Name: sensorPrefix + "0", Type: ts.Double}},
		StartTime: start.UnixMilli(),
		PointStep: step,
	}
}

// Database is where the probe of a run on database db writes: a database
// of its own, so that the run's data and its verified counts are untouched.
func Database(db string) string {
	if db == "" {
		return "tsbench_freshness"
	}
	return db + "_freshness"
}
