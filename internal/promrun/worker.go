package promrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/otlpmetrics"
	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

// worker writes the scrapes of its slots [lo, hi) in order (so each
// series is written in time order), each scrape in split.n requests of
// split.per slots (MaxRequestSamples), then takes queries from the run's
// list once every worker has written.
type worker struct {
	r      *Run
	i      int // its index among the run's workers
	store  targets.PromStore
	sc     *promshape.Scraper
	lo, hi int
	split  split
	k      int64
	part   int  // the request of scrape k to send next
	done   bool // its writes are over
	handed bool // it has waited for every worker's writes, before its first query
	raw    []byte
	body   []byte
	enc    requestEncoder
	// histograms counts the native histogram samples of the request
	// being encoded.
	histograms int64
	// latency is the last operation's, as the engine measured it from its
	// intended start (engine.Handle.Observe): a query's, for its row of
	// the latency per expression.
	latency time.Duration
}

// observe takes the latency of the operation the engine just recorded.
func (w *worker) observe(_ engine.Op, _ int64, latency time.Duration, _ error) { w.latency = latency }

// Step writes the next scrape, or asks the next query: with
// ReadWhileWriting, a query whose scrapes are written goes first.
func (w *worker) Step(ctx context.Context, h *engine.Handle, warm bool) bool {
	if i, ok := w.r.ready(); ok {
		return w.query(ctx, h, warm, i)
	}
	if !w.done && w.k < w.r.cfg.Scrapes {
		if w.write(h, warm) {
			return true
		}
		w.finish()
		return false
	}
	w.finish()
	if !w.handOver(ctx, h) {
		return false
	}
	i := w.r.next.Add(1) - 1
	if i >= int64(len(w.r.jobs)) {
		return false
	}
	return w.query(ctx, h, warm, int(i))
}

// finish marks the worker's writes over, once.
func (w *worker) finish() {
	if !w.done {
		w.done = true
		w.r.progress[w.i].Store(w.r.cfg.Scrapes)
		w.r.writing.Add(-1)
	}
}

// written is how many scrapes every worker has written: scrapes 0 to
// written()-1 are acknowledged (or given up).
func (r *Run) written() int64 {
	n := r.cfg.Scrapes
	for i := range r.progress {
		n = min(n, r.progress[i].Load())
	}
	return n
}

// ready claims the next query when ReadWhileWriting and its scrapes are
// written: an instant query's up to its time, a range query's all.
func (r *Run) ready() (int, bool) {
	if !r.cfg.ReadWhileWriting {
		return 0, false
	}
	i := r.next.Load()
	if i >= int64(len(r.jobs)) || r.needs(&r.jobs[i]) > r.written() {
		return 0, false
	}
	return int(i), r.next.CompareAndSwap(i, i+1)
}

// needs is how many scrapes must be written before job j is asked.
func (r *Run) needs(j *job) int64 {
	if j.rng {
		return r.cfg.Scrapes
	}
	k, _ := r.m.Index(j.t)
	return k + 1
}

// encode builds request part of scrape k of the worker's slots, in the
// store's remote write version: its samples, and how many of them are
// staleness markers.
func (w *worker) encode(k int64, part int) (samples, stale int64, err error) {
	if w.enc == nil {
		if w.enc, err = w.r.encoder(w.store); err != nil {
			return 0, 0, err
		}
		// Set once: a function kept by the scraper that captured this
		// call's counts would move them to the heap, every call.
		if he, ok := w.enc.(histogramEncoder); ok {
			w.sc.OnHistograms(func(n int, open []string, t int64, h *promshape.NativeHistogram) {
				he.AppendHistogram(n, open, t, h)
				w.histograms++
			})
		}
	}
	w.enc.Reset()
	w.histograms = 0
	lo, hi := w.partSlots(part)
	err = w.sc.ScrapeSeries(k, lo, hi, func(n int, open []string, t int64, v float64) {
		w.enc.Append(n, open, t, v)
		samples++
		if promshape.IsStale(v) {
			stale++
		}
	})
	w.raw = w.enc.AppendRequest(w.raw[:0])
	w.body = w.enc.Compress(w.body, w.raw)
	return samples + w.histograms, stale, err
}

// partSlots is the slots of request part of a scrape.
func (w *worker) partSlots(part int) (lo, hi int) {
	if w.split.n == 0 {
		w.split = w.r.requests(w.lo, w.hi)
	}
	lo = min(w.hi, w.lo+part*w.split.per)
	return lo, min(w.hi, lo+w.split.per)
}

// next moves on to the scrape's next request, or the next scrape's first.
func (w *worker) next() {
	if w.part++; w.part >= w.split.n {
		w.part = 0
		w.k++
		w.r.progress[w.i].Store(w.k)
	}
}

// requestEncoder builds a request of samples of the model's series in
// one protocol: remote write 1.0 or 2.0, or OTLP.
type requestEncoder interface {
	Reset()
	Append(n int, open []string, t int64, v float64)
	AppendRequest(dst []byte) []byte
	Compress(dst, raw []byte) []byte
}

// histogramEncoder is a request encoder that takes native histogram
// samples too: every one (remote write 1.0 and 2.0, OTLP).
type histogramEncoder interface {
	AppendHistogram(n int, open []string, t int64, h *remotewrite.Histogram)
}

// snappyEncoder is a remote write encoder, its requests snappy-compressed.
type snappyEncoder struct{ *remotewrite.TemplateEncoder }

func (snappyEncoder) Compress(dst, raw []byte) []byte { return remotewrite.Compress(dst, raw) }

// encoder is a request encoder of the model's series in the store's
// protocol (remote write 1.0 without a store: the benchmarks'), each
// series' labels encoded once.
func (r *Run) encoder(store targets.PromStore) (requestEncoder, error) {
	v := remotewrite.V1
	if store != nil {
		v = store.RemoteWriteVersion()
	}
	n := r.m.SeriesPerTarget()
	templates, open := make([][]remotewrite.Label, n), make([][]int, n)
	for i := range n {
		templates[i], open[i] = r.m.Template(i)
	}
	if v != remotewrite.OTLP {
		return snappyEncoder{remotewrite.NewTemplateEncoder(v, templates, open)}, nil
	}
	series := make([]otlpmetrics.Series, n)
	for i := range n {
		series[i] = otlpmetrics.Series{Labels: templates[i], Open: open[i], Kind: otlpKinds[r.m.Type(i)]}
	}
	e, err := otlpmetrics.NewEncoder(series)
	if err != nil {
		return nil, fmt.Errorf("promrun: %w", err)
	}
	return e, nil
}

// otlpKinds are OTLP's kinds of the model's series types.
var otlpKinds = map[promshape.SeriesType]otlpmetrics.Kind{
	promshape.Gauge: otlpmetrics.Gauge, promshape.Counter: otlpmetrics.Counter,
	promshape.HistogramBucket: otlpmetrics.Bucket, promshape.HistogramSum: otlpmetrics.HistSum,
	promshape.HistogramCount: otlpmetrics.HistCount, promshape.NativeHistogramSeries: otlpmetrics.ExpHistogram,
}

// Resending. A request whose write failed in a way Prometheus' remote
// write recovers from (the connection or the clock failed it, or the
// server answered 5xx or 429: a server restarting, crashed, overloaded)
// is sent again, as Prometheus' queue does, after a pause doubled from
// resendFirst up to resendMax, each attempt an operation of its own, for
// up to resendFor; then, or at once for a refusal (another 4xx), the
// request is given up, counted failed, and the next one is sent: a store
// that dropped one answers the read load differently from the model,
// which the answers' check says.
const (
	resendFirst = 30 * time.Millisecond
	resendMax   = time.Second
	resendFor   = 3 * time.Minute // a crash's restart is waited for as long (CRASH_AT)
)

// recoverable says whether a failed write is sent again.
func recoverable(err error) bool { return metrics.Transient(err) || httpclient.Recoverable(err) }

// write sends the next request of scrape k until it is acknowledged or
// given up; false when the run stopped.
func (w *worker) write(h *engine.Handle, warm bool) bool {
	samples, stale, err := w.encode(w.k, w.part)
	if err != nil {
		h.Failed(engine.Op{Kind: opWrite, Points: samples, Write: true}, warm, err)
		return false
	}
	op := engine.Op{Kind: opWrite, Points: samples, Write: true, Timeout: w.r.cfg.WriteTimeout}
	if w.r.cfg.RealTime {
		// Due at its scrape's time by the wall clock: a request sent late
		// behind a slow one counts the wait, as a Prometheus server's
		// queue of samples would hold it.
		op.Due = time.UnixMilli(w.r.m.Time(w.k))
	}
	pause, giveUp := resendFirst, time.Now().Add(resendFor)
	for {
		done, err := h.Do(op, warm, func(ctx context.Context) (int64, error) {
			if err := w.store.RemoteWrite(ctx, w.body, samples); err != nil {
				return 0, err
			}
			return samples, nil
		})
		switch {
		case !done:
			return false
		case err == nil:
			w.r.acked.Add(samples - stale)
			w.r.sent.requests.Add(1)
			w.r.sent.samples.Add(samples)
			w.r.sent.bytes.Add(int64(len(w.body)))
			w.next()
			return true
		case !recoverable(err) || time.Now().After(giveUp):
			w.r.failedWr.Add(1)
			w.next()
			return true
		}
		w.r.resent.Add(1)
		if !h.Pause(pause) {
			return false
		}
		pause = min(2*pause, resendMax)
	}
}

// handOver waits, before the worker's first query, until every worker has
// written and the store has settled: a wait of the tool's own, held out of
// the queries' latency (engine.Handle.Hold; under --rate a query is due
// from the wait's end, not from a schedule that ran on while the worker
// waited). The settling's error is each query's (query); false when the
// run stopped meanwhile.
func (w *worker) handOver(ctx context.Context, h *engine.Handle) bool {
	if w.handed {
		return true
	}
	w.handed = true
	return h.Hold(func() bool {
		if !w.r.waitWrites(ctx, h) {
			return false
		}
		_ = w.r.settleStore(ctx, w.store)
		return true
	})
}

// waitWrites waits until every worker has written; false when the run
// stopped meanwhile.
func (r *Run) waitWrites(ctx context.Context, h *engine.Handle) bool {
	for r.writing.Load() > 0 {
		if !h.Pause(20 * time.Millisecond) {
			return false
		}
	}
	return ctx.Err() == nil
}

// settleStore settles the store once, before the first query (and first
// waits for the other worker processes' writes, with WORKERS).
func (r *Run) settleStore(ctx context.Context, s targets.PromStore) error {
	r.settle.Do(func() {
		if r.cfg.AllWritten != nil {
			if r.settled = r.cfg.AllWritten(ctx); r.settled != nil {
				return
			}
		}
		sctx, cancel := context.WithTimeout(ctx, r.cfg.ReadTimeout)
		defer cancel()
		r.settled = s.Settle(sctx, r.cfg.Shape.Start)
	})
	return r.settled
}

// settleFor settles the store before job j: once, after every write, or,
// with ReadWhileWriting, again whenever the job needs scrapes written
// since the store was last settled (VictoriaMetrics' flush makes them
// searchable; elsewhere an acknowledged sample is).
func (r *Run) settleFor(ctx context.Context, s targets.PromStore, j *job) error {
	if !r.cfg.ReadWhileWriting || r.needs(j) == r.cfg.Scrapes {
		return r.settleStore(ctx, s)
	}
	r.settleMu.Lock()
	defer r.settleMu.Unlock()
	if r.settledTo.Load() >= r.needs(j) {
		return nil
	}
	upTo := r.written()
	sctx, cancel := context.WithTimeout(ctx, r.cfg.ReadTimeout)
	defer cancel()
	if err := s.Settle(sctx, r.cfg.Shape.Start); err != nil {
		return err
	}
	r.settledTo.Store(upTo)
	return nil
}

// unsettled says whether job j, asked while the writes go on, needs the
// store settled anew first.
func (r *Run) unsettled(j *job) bool {
	return r.cfg.ReadWhileWriting && r.needs(j) < r.cfg.Scrapes && r.settledTo.Load() < r.needs(j)
}

// errMismatch marks an answer that differs from the model's.
var errMismatch = errors.New("wrong answer")

// query asks job i and checks its answer; its points are the values the
// answer holds.
func (w *worker) query(ctx context.Context, h *engine.Handle, warm bool, i int) bool {
	j := &w.r.jobs[i]
	// A settling of the store in the middle of the writes is the tool's
	// wait (VictoriaMetrics' flush), held out of the query's latency.
	var err error
	if w.r.unsettled(j) {
		h.Hold(func() bool { err = w.r.settleFor(ctx, w.store, j); return true })
	} else {
		err = w.r.settleFor(ctx, w.store, j)
	}
	if err != nil {
		h.Failed(engine.Op{Kind: metrics.Kind(kindOp(j.q.Kind))}, warm, fmt.Errorf("before the queries: %w", err))
		return true
	}
	check, err := w.r.expect(j, w.store.ServerLabels())
	if err != nil {
		h.Failed(engine.Op{Kind: metrics.Kind(kindOp(j.q.Kind))}, warm, err)
		return true
	}
	path, form := j.form()
	op := engine.Op{Kind: metrics.Kind(kindOp(j.q.Kind)), Timeout: w.r.cfg.ReadTimeout}
	h.Observe, w.latency = w.observe, 0 // a warm-up's operation is not observed
	var digest uint64
	done, err := h.Do(op, warm, func(ctx context.Context) (int64, error) {
		data, err := w.store.PromQuery(ctx, path, form)
		if err != nil {
			return 0, err
		}
		values, d, diff, err := check(data)
		digest = d
		switch {
		case err != nil:
			return 0, fmt.Errorf("%s %s: %w", j.q.Name, j.where(), err)
		case diff != "":
			return 0, fmt.Errorf("%w: %s %s: %s", errMismatch, j.q.Name, j.where(), diff)
		}
		return values, nil
	})
	if done {
		w.r.account(i, digest, w.latency, err)
	}
	return done
}

// checkFunc checks an answer: the values it holds, its digest (see
// digest) and how it differs from the model's ("" when not).
type checkFunc func(data []byte) (values int64, digest uint64, diff string, err error)

// expect computes the job's expected answer and returns what checks an
// answer against it. drop are the labels the store adds, left out of the
// answer.
func (r *Run) expect(j *job, drop []string) (checkFunc, error) {
	start, jobLabel := r.cfg.Shape.Start, r.cfg.Shape.Job
	if !j.rng {
		want, err := r.m.Expect(j.q, j.t, r.cfg.Engine)
		if err != nil {
			return nil, err
		}
		return func(data []byte) (int64, uint64, string, error) {
			got, err := DecodeVector(data, drop...)
			if err != nil {
				return 0, 0, "", err
			}
			diff := CompareVector(want, got)
			return int64(len(got)), digestVector(digested(want, got, diff), j.t-start, jobLabel), diff, nil
		}, nil
	}
	want, err := r.m.ExpectRange(j.q, j.start, j.end, r.cfg.Engine)
	if err != nil {
		return nil, err
	}
	return func(data []byte) (int64, uint64, string, error) {
		got, err := DecodeMatrix(data, drop...)
		if err != nil {
			return 0, 0, "", err
		}
		n := 0
		for _, s := range got {
			n += len(s.Points)
		}
		diff := CompareMatrix(want, got)
		return int64(n), digestMatrix(digested(want, got, diff), start, jobLabel), diff, nil
	}, nil
}

// digested is the answer a digest is made of: the model's when the
// answer was right (bit for bit, or within an inexact value's rounding,
// which every store of one engine then shares), else the store's own.
func digested[T any](want, got T, diff string) T {
	if diff == "" {
		return want
	}
	return got
}
