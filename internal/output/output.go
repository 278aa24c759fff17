// Package output exports a run's figures while it runs, once a second, to
// receivers named by --out (KIND=WHERE, see package spec): Prometheus remote
// write, InfluxDB line protocol, OTLP, a JSON-lines file and a CSV file,
// one sub-package each.
//
// Export never slows the run. The runner hands each closed second to
// Exporter.Interval, which turns it into a Sample and offers it to every
// receiver's bounded queue without waiting; one goroutine per receiver
// drains its queue. A receiver that is slow or down lets its queue fill, and
// what does not fit is dropped and counted; the counts are reported when the
// run ends. Only with Required does a failing receiver fail the run.
package output

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
)

// Labels identify the run a sample belongs to; every exported series
// carries them (empty ones are left out).
type Labels struct {
	RunID    string `json:"run_id"`
	Group    string `json:"group,omitempty"`
	Worker   string `json:"worker"` // the worker's index, "0" for a run of one
	Target   string `json:"target"`
	Scenario string `json:"scenario,omitempty"`
	Phase    string `json:"phase"`
}

// Sample is one second of a run, as every receiver gets it.
type Sample struct {
	Labels
	Seq     int       `json:"seq"`        // 0, 1, ... in the order of Summary.Intervals
	Time    time.Time `json:"time"`       // the second's end
	T       float64   `json:"t_s"`        // the second's end, seconds since measuring began
	Seconds float64   `json:"duration_s"` // the second's length (the last may be shorter)
	Ops     []Op      `json:"ops"`
	// Resources is the latest resource sample of the tool, the host and the
	// server (the monitor's), when one was taken.
	Resources *summary.ResourceSample `json:"resources,omitempty"`
}

// Op is one operation's figures in one second. Latencies are in seconds,
// from the second's HDR histogram; the totals are cumulative since
// measuring began, as Prometheus counters are.
type Op struct {
	Name             string  `json:"operation"`
	OKOps            int64   `json:"ok_operations"`
	OKPoints         int64   `json:"ok_points"`
	FailOps          int64   `json:"failed_operations"`
	Retries          int64   `json:"retries"`         // further attempts (RETRIES)
	InDoubtPoints    int64   `json:"in_doubt_points"` // points of failed writes that may be stored
	OpsPerSecond     float64 `json:"operations_per_second"`
	PointsPerSecond  float64 `json:"points_per_second"`
	P50              float64 `json:"latency_p50_s"`
	P90              float64 `json:"latency_p90_s"`
	P99              float64 `json:"latency_p99_s"`
	P999             float64 `json:"latency_p999_s"`
	Max              float64 `json:"latency_max_s"`
	OKOpsTotal       int64   `json:"ok_operations_total"`
	OKPointsTotal    int64   `json:"ok_points_total"`
	FailOpsTotal     int64   `json:"failed_operations_total"`
	RetriesTotal     int64   `json:"retries_total"`
	InDoubtTotal     int64   `json:"in_doubt_points_total"`
	latencyCompleted bool
}

// HasLatency reports whether the second's latencies are known (some
// operation finished in it).
func (o Op) HasLatency() bool { return o.latencyCompleted }

// Receiver sends or writes samples. Send gets the samples in order, from
// one goroutine; it must honour ctx. Close flushes and releases.
type Receiver interface {
	Send(ctx context.Context, batch []*Sample) error
	Close(ctx context.Context) error
}

// Options tune the exporter; the zero value is the default.
type Options struct {
	// Required makes a failing receiver (an error, a dropped sample) fail
	// the run (--out-required).
	Required bool
	// Queue is each receiver's queue length in samples (default 60: a
	// minute of a stalled receiver before samples drop).
	Queue int
	// SendTimeout bounds one Send (default 10 s).
	SendTimeout time.Duration
	// CloseTimeout bounds the wait for the queues to drain when the run
	// ends (default 5 s); what is left then is dropped.
	CloseTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Queue <= 0 {
		o.Queue = 60
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = 10 * time.Second
	}
	if o.CloseTimeout <= 0 {
		o.CloseTimeout = 5 * time.Second
	}
	return o
}

// maxBatch is the most samples one Send gets: a receiver that was down
// catches up in a few requests, none too large.
const maxBatch = 30

// Exporter feeds one run's seconds to its receivers.
type Exporter struct {
	labels Labels
	opts   Options
	sinks  []*sink

	mu        sync.Mutex // guards what follows: Interval and Resources come from different goroutines
	sent      int        // intervals handed over
	totals    map[string]*Op
	resources *summary.ResourceSample
	start     time.Time // when measuring began, as seen from the first interval
	closed    bool
}

// sink is one receiver with its queue and counts.
type sink struct {
	name    string
	r       Receiver
	queue   chan *Sample
	done    chan struct{}
	cancel  context.CancelFunc
	ctx     context.Context
	timeout time.Duration

	mu      sync.Mutex
	sentN   int64
	dropped int64
	failed  int64
	lastErr error
}

// New starts an exporter for the receivers, named as in their --out value.
func New(labels Labels, names []string, receivers []Receiver, opts Options) *Exporter {
	opts = opts.withDefaults()
	e := &Exporter{labels: labels, opts: opts, totals: map[string]*Op{}}
	for i, r := range receivers {
		ctx, cancel := context.WithCancel(context.Background())
		s := &sink{name: names[i], r: r, queue: make(chan *Sample, opts.Queue), done: make(chan struct{}),
			ctx: ctx, cancel: cancel, timeout: opts.SendTimeout}
		e.sinks = append(e.sinks, s)
		go s.drain()
	}
	return e
}

// Interval takes one closed second from the runner (the engine's OnInterval hook). It
// never blocks: a full queue drops the sample.
func (e *Exporter) Interval(seq int, iv summary.Interval) {
	if e == nil {
		return
	}
	now := time.Now()
	e.mu.Lock()
	if e.closed || seq < e.sent {
		e.mu.Unlock()
		return
	}
	if e.start.IsZero() {
		e.start = now.Add(-time.Duration((iv.Start + iv.Seconds) * float64(time.Second)))
	}
	s := e.sample(seq, iv, now)
	e.sent = seq + 1
	e.mu.Unlock()
	e.offer(s)
}

// Resources takes one resource sample from the monitor (its OnSample); the
// next second's sample carries it.
func (e *Exporter) Resources(_ int, smp summary.ResourceSample) {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.resources = &smp
	e.mu.Unlock()
}

// sample builds the Sample of one interval; e.mu is held.
func (e *Exporter) sample(seq int, iv summary.Interval, at time.Time) *Sample {
	s := &Sample{Labels: e.labels, Seq: seq, Time: at.UTC(), T: iv.Start + iv.Seconds, Seconds: iv.Seconds,
		Resources: e.resources}
	e.resources = nil
	for _, o := range iv.Ops {
		tot := e.totals[o.Name]
		if tot == nil {
			tot = &Op{}
			e.totals[o.Name] = tot
		}
		tot.OKOpsTotal += o.OKOps
		tot.OKPointsTotal += o.OKPoints
		tot.FailOpsTotal += o.FailOps
		tot.RetriesTotal += o.Retries
		tot.InDoubtTotal += o.InDoubtPoints
		op := *tot
		op.Name, op.OKOps, op.OKPoints, op.FailOps = o.Name, o.OKOps, o.OKPoints, o.FailOps
		op.Retries, op.InDoubtPoints = o.Retries, o.InDoubtPoints
		if iv.Seconds > 0 {
			op.OpsPerSecond = float64(o.OKOps) / iv.Seconds
			op.PointsPerSecond = float64(o.OKPoints) / iv.Seconds
		}
		latencies(&op, o)
		s.Ops = append(s.Ops, op)
	}
	// Operations that ran before but not in this second still report their
	// totals: a counter that vanishes for a second reads as a reset.
	for name, tot := range e.totals {
		if !hasOp(s.Ops, name) {
			op := *tot
			op.Name = name
			s.Ops = append(s.Ops, op)
		}
	}
	sort.Slice(s.Ops, func(i, j int) bool { return s.Ops[i].Name < s.Ops[j].Name })
	return s
}

func hasOp(ops []Op, name string) bool {
	for _, o := range ops {
		if o.Name == name {
			return true
		}
	}
	return false
}

// latencies fills op's percentiles: p50, p99 and max as the interval states
// them (the figures stored with the run), p90 and p99.9 from its histogram.
func latencies(op *Op, o summary.IntervalOp) {
	if o.OKOps+o.FailOps == 0 || (o.Histogram == "" && o.MaxMS == 0) {
		return
	}
	op.latencyCompleted = true
	op.P50, op.P99, op.Max = o.P50MS/1000, o.P99MS/1000, o.MaxMS/1000
	op.P90, op.P999 = op.P99, op.Max // bounds, when the histogram is not kept
	if o.Histogram == "" {
		return
	}
	h, err := metrics.Decode(o.Histogram)
	if err != nil {
		return
	}
	// The histograms count microseconds; converted as the runner converts
	// p50, p99 and max (µs -> ms -> s), so that equal values stay equal.
	seconds := func(us int64) float64 { return float64(us) / 1000 / 1000 }
	op.P90 = min(seconds(h.ValueAtQuantile(90)), op.P99)
	op.P999 = min(max(seconds(h.ValueAtQuantile(99.9)), op.P99), op.Max)
}

// offer puts s on every receiver's queue, or counts it dropped.
func (e *Exporter) offer(s *Sample) {
	for _, k := range e.sinks {
		select {
		case k.queue <- s:
		default:
			k.mu.Lock()
			k.dropped++
			k.mu.Unlock()
		}
	}
}

// drain sends what the queue holds, in batches, until the queue closes.
func (k *sink) drain() {
	defer close(k.done)
	for s := range k.queue {
		batch := []*Sample{s}
	more:
		for len(batch) < maxBatch {
			select {
			case n, ok := <-k.queue:
				if !ok {
					break more
				}
				batch = append(batch, n)
			default:
				break more
			}
		}
		if k.ctx.Err() != nil { // the run ended and the wait for this receiver too
			k.mu.Lock()
			k.dropped += int64(len(batch))
			k.mu.Unlock()
			continue
		}
		ctx, cancel := context.WithTimeout(k.ctx, k.timeout)
		err := k.r.Send(ctx, batch)
		cancel()
		k.mu.Lock()
		if err != nil {
			k.failed += int64(len(batch))
			k.lastErr = err
		} else {
			k.sentN += int64(len(batch))
		}
		k.mu.Unlock()
	}
}

// Report is what one receiver did during the run.
type Report struct {
	Name    string // as given to --out, any password masked
	Sent    int64  // samples the receiver took
	Dropped int64  // samples that found its queue full, or were left in it at the end
	Failed  int64  // samples of sends that failed
	Err     error  // the last error
}

// OK reports whether every sample reached the receiver.
func (r Report) OK() bool { return r.Dropped == 0 && r.Failed == 0 && r.Err == nil }

// String is the report's line at the end of the run.
func (r Report) String() string {
	line := fmt.Sprintf("output %s: %d samples sent", r.Name, r.Sent)
	if r.Dropped > 0 {
		line += fmt.Sprintf(", %d dropped (receiver too slow or down)", r.Dropped)
	}
	if r.Failed > 0 {
		line += fmt.Sprintf(", %d failed", r.Failed)
	}
	if r.Err != nil {
		line += fmt.Sprintf(" (last error: %v)", r.Err)
	}
	return line
}

// Finish hands over the seconds of s that were not handed over live (the
// last, partial one closes after the clients stop), waits a bounded time
// for the queues to drain, closes the receivers and reports. With Required,
// the error names the receivers that failed.
func (e *Exporter) Finish(s *summary.Summary) ([]Report, error) {
	if e == nil {
		return nil, nil
	}
	e.mu.Lock()
	var rest []*Sample
	if s != nil && !e.closed {
		start := e.start
		if start.IsZero() {
			start = s.MeasureStarted
		}
		for seq := e.sent; seq < len(s.Intervals); seq++ {
			iv := s.Intervals[seq]
			at := start.Add(time.Duration((iv.Start + iv.Seconds) * float64(time.Second)))
			rest = append(rest, e.sample(seq, iv, at))
		}
		e.sent = len(s.Intervals)
	}
	e.closed = true
	e.mu.Unlock()
	for _, smp := range rest {
		e.offer(smp)
	}
	for _, k := range e.sinks {
		close(k.queue)
	}
	deadline := time.NewTimer(e.opts.CloseTimeout)
	defer deadline.Stop()
	timeUp := false
	for _, k := range e.sinks {
		if !timeUp {
			select {
			case <-k.done:
				continue
			case <-deadline.C:
				timeUp = true
			}
		}
		k.cancel() // the send in flight gives up; the rest fail at once
		<-k.done
	}
	var reports []Report
	var failed []error
	for _, k := range e.sinks {
		left := int64(len(k.queue)) // samples the drain loop did not reach
		for range k.queue {
		}
		ctx, cancel := context.WithTimeout(context.Background(), e.opts.SendTimeout)
		closeErr := k.r.Close(ctx)
		cancel()
		k.cancel()
		k.mu.Lock()
		r := Report{Name: k.name, Sent: k.sentN, Dropped: k.dropped + left, Failed: k.failed, Err: k.lastErr}
		k.mu.Unlock()
		if closeErr != nil {
			r.Err = closeErr
		}
		reports = append(reports, r)
		if !r.OK() {
			failed = append(failed, errors.New(r.String()))
		}
	}
	if e.opts.Required && len(failed) > 0 {
		return reports, fmt.Errorf("--out-required: %w", errors.Join(failed...))
	}
	return reports, nil
}
