package metrics

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// Run gathers the clients of one measured phase.
type Run struct {
	clients   []*Client
	openModel bool
	start     time.Time
	names     []string // kind names, by Kind

	mu        sync.Mutex
	last      time.Time
	spare     intervalStats
	intervals []summary.Interval // histograms in spill
	spill     spill
	totals    Totals
	// latency and service are the phase's histograms by kind (see the
	// package comment for why not one per client): latency is filled from
	// each closed interval's histograms, service directly by Drain.
	latency, service [MaxKinds]*hdrhistogram.Histogram
	// second are the open interval's histograms, filled by every Drain
	// since the interval began, reset and reused each interval rather than
	// 188 KB each allocated anew; pending are its counts.
	second  [MaxKinds]*hdrhistogram.Histogram
	pending pendingCounts
}

// pendingCounts are the open interval's counts, by kind; used marks the
// kinds whose second histogram holds this interval's latencies.
type pendingCounts struct {
	ok, pts, fail    [MaxKinds]int64
	retries, inDoubt [MaxKinds]int64
	used             [MaxKinds]bool
}

// Totals are running sums over all intervals, for progress lines.
type Totals struct {
	OKOps, OKPoints, FailOps int64
}

// NewRun prepares recorders for n clients; start is when the measured phase
// began. Its kinds are the time-series operations (workload.Op).
func NewRun(n int, openModel bool, start time.Time) *Run {
	return NewRunNamed(n, openModel, start, OperationNames())
}

// OperationNames are the time-series operations' names, by workload.Op.
func OperationNames() []string {
	names := make([]string, workload.NumOps)
	for op := range names {
		names[op] = workload.Op(op).String()
	}
	return names
}

// NewRunNamed prepares recorders for n clients of a workload whose kinds
// are names (at most MaxKinds; Kind(i) is names[i]), such as TPC-C's five
// transactions. The rows of Operations follow the order of names.
func NewRunNamed(n int, openModel bool, start time.Time, names []string) *Run {
	if len(names) > MaxKinds {
		panic("metrics: more than MaxKinds kinds") // programming error
	}
	r := &Run{openModel: openModel, start: start, last: start, names: names}
	for i := 0; i < n; i++ {
		r.clients = append(r.clients, newClient(openModel))
	}
	return r
}

// Client returns client i's recorder.
func (r *Run) Client(i int) *Client { return r.clients[i] }

// Drain takes what every client recorded since the last Drain into the
// open interval, without closing it. The collector calls it several times
// a second (see DrainEvery): the clients' latency buffers then hold a
// fraction of a second, not a whole one, which at millions of operations a
// second is most of what recording costs in memory (and what the GC lets
// swing).
func (r *Run) Drain() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drain()
}

// DrainEvery is how often the collector drains the clients' buffers.
const DrainEvery = time.Second / 4

// Collect is the collector: it closes an interval once a second until done
// is closed, draining the clients' buffers in between (DrainEvery), and
// hands each closed interval and the running totals to onSecond; seq
// numbers the intervals that hold time (Seconds > 0), the ones a live
// store or output keeps.
func (r *Run) Collect(done <-chan struct{}, onSecond func(now time.Time, seq int, iv summary.Interval, tot Totals)) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	drain := time.NewTicker(DrainEvery)
	defer drain.Stop()
	seq := 0
	for {
		select {
		case <-done:
			return
		case <-drain.C:
			r.Drain()
		case now := <-tick.C:
			iv, tot := r.Snapshot(now)
			onSecond(now, seq, iv, tot)
			if iv.Seconds > 0 {
				seq++
			}
		}
	}
}

// Snapshot closes the current interval at now: it collects what every client
// recorded since the previous snapshot into one interval of the time series.
// The collector calls it once a second and once at the end.
func (r *Run) Snapshot(now time.Time) (summary.Interval, Totals) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drain()
	p, hists := r.closeInterval()
	ok, pts, fail := p.ok, p.pts, p.fail
	out := summary.Interval{Start: r.last.Sub(r.start).Seconds(), Seconds: now.Sub(r.last).Seconds()}
	for op := range ok {
		// A retry or an attempt in doubt is recorded just after its
		// operation, and may fall into the next second.
		if ok[op] == 0 && fail[op] == 0 && p.retries[op] == 0 && p.inDoubt[op] == 0 {
			continue
		}
		io := summary.IntervalOp{Name: r.names[op], OKOps: ok[op], OKPoints: pts[op], FailOps: fail[op],
			Retries: p.retries[op], InDoubtPoints: p.inDoubt[op]}
		if h := hists[op]; h != nil {
			io.P50MS = ms(h.ValueAtQuantile(50))
			io.P99MS = ms(h.ValueAtQuantile(99))
			io.MaxMS = ms(h.Max())
			// The histogram itself is kept too: percentiles of any window
			// (and HDR interval logs) are recomputed from it later.
			io.Histogram = encode(h)
		}
		out.Ops = append(out.Ops, io)
		r.totals.OKOps += ok[op]
		r.totals.OKPoints += pts[op]
		r.totals.FailOps += fail[op]
	}
	r.last = now
	if out.Seconds > 0 {
		r.intervals = append(r.intervals, r.spill.keep(r, out))
	}
	return out, r.totals
}

// drain takes what every client recorded since the last call into the open
// interval: its counts, its latency histograms (r.second) and the phase's
// service histograms. r.mu must be held.
func (r *Run) drain() {
	p := &r.pending
	for _, c := range r.clients {
		iv := c.takeInterval(&r.spare)
		for op := range iv.latencies {
			p.ok[op] += iv.okOps[op]
			p.pts[op] += iv.okPoints[op]
			p.fail[op] += iv.failOps[op]
			p.retries[op] += iv.retries[op]
			p.inDoubt[op] += iv.inDoubt[op]
			if len(iv.latencies[op]) > 0 && !p.used[op] {
				if r.second[op] == nil {
					r.second[op] = NewHistogram()
				}
				r.second[op].Reset()
				p.used[op] = true
			}
			for _, us := range iv.latencies[op] {
				r.second[op].RecordValue(int64(us))
			}
			if len(iv.services[op]) > 0 && r.service[op] == nil {
				r.service[op] = NewHistogram()
			}
			for _, us := range iv.services[op] {
				r.service[op].RecordValue(int64(us))
			}
		}
		r.spare = iv // recycle the buffers the client just handed over
	}
}

// closeInterval ends the open interval: it returns its counts and latency
// histograms by kind (valid until the next interval closes), adds the
// histograms to the phase's, and starts a new interval. r.mu must be held.
func (r *Run) closeInterval() (p pendingCounts, hists [MaxKinds]*hdrhistogram.Histogram) {
	p = r.pending
	r.pending = pendingCounts{}
	for op, used := range p.used {
		if !used {
			continue
		}
		hists[op] = r.second[op]
		if r.latency[op] == nil {
			r.latency[op] = NewHistogram()
		}
		r.latency[op].Merge(hists[op]) // same range and precision: nothing is dropped
	}
	return p, hists
}

// Intervals returns the time series so far.
func (r *Run) Intervals() []summary.Interval {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.spill.restore(r.intervals)
}

func ms(us int64) float64 { return float64(us) / 1000 }

// Operations merges every client's figures into the rows of the matrices, in
// the order of the run's kinds (write, Q1..Q10 for time series); kinds that
// never ran are left out. Call it after the clients stopped and after the
// last Snapshot: what was recorded since counts here but in no interval.
// elapsed is the measured phase, for throughput.
func (r *Run) Operations(elapsed time.Duration) []summary.Operation {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drain()
	r.closeInterval()
	var out []summary.Operation
	for op := Kind(0); int(op) < len(r.names); op++ {
		if row, ok := r.operation(op, elapsed); ok {
			out = append(out, row)
		}
	}
	return out
}

func (r *Run) operation(op Kind, elapsed time.Duration) (summary.Operation, bool) {
	row := summary.Operation{Name: r.names[op]}
	var sum, svcSum int64
	minNs, maxNs := int64(math.MaxInt64), int64(0)
	minSvc, maxSvc := int64(math.MaxInt64), int64(0)
	seen := false
	var failures FailureTally
	for _, c := range r.clients {
		s := c.ops[op]
		if s == nil {
			continue
		}
		seen = true
		if r.openModel {
			svcSum += s.sumSvcNanos
			minSvc, maxSvc = min(minSvc, s.minSvcNanos), max(maxSvc, s.maxSvcNanos)
		}
		row.OKOperations += s.okOps
		row.OKPoints += s.okPoints
		row.FailOperations += s.failOps
		row.FailPoints += s.failPoints
		row.Unsupported += s.unsupported
		row.Retries += s.retries
		sum += s.sumNanos
		minNs, maxNs = min(minNs, s.minNanos), max(maxNs, s.maxNanos)
		row.SlowestThreadMS = max(row.SlowestThreadMS, float64(s.sumNanos)/1e6)
		for k, f := range c.failures {
			if k.op != op {
				continue
			}
			failures.Add(k.class, f.cause, f.example, f.operations, f.points)
		}
	}
	if !seen {
		return row, false
	}
	row.ClientWaitMS, row.ClientWaitHistogram = r.clientWait(op)
	if elapsed > 0 {
		row.Throughput = float64(row.OKPoints) / elapsed.Seconds()
	}
	merged := r.latency[op]
	if merged == nil { // failures only
		merged = NewHistogram()
	}
	row.LatencyMS = Percentiles(merged, row.OKOperations, sum, minNs, maxNs)
	if r.openModel {
		service := r.service[op]
		if service == nil {
			service = NewHistogram()
		}
		l := Percentiles(service, row.OKOperations, svcSum, minSvc, maxSvc)
		row.ServiceMS = &l
		row.ServiceHistogram = encode(service)
	}
	row.Histogram = encode(merged)
	row.Failures = failures.Failures()
	return row, true
}

// clientWait merges the clients' client waits of op, and encodes their
// histogram; nil when none was recorded (connections that stamp no
// arrivals).
func (r *Run) clientWait(op Kind) (*summary.Latency, string) {
	var all *hdrhistogram.Histogram
	var n, sum int64
	least, most := int64(math.MaxInt64), int64(0)
	for _, c := range r.clients {
		s := c.ops[op]
		if s == nil || s.wait == nil {
			continue
		}
		if all == nil {
			all = NewHistogram()
		}
		all.Merge(s.wait.h)
		n, sum = n+s.wait.n, sum+s.wait.sum
		least, most = min(least, s.wait.least), max(most, s.wait.most)
	}
	if all == nil {
		return nil, ""
	}
	l := Percentiles(all, n, sum, least, most)
	return &l, encode(all)
}

// Percentiles reads the matrix columns from a histogram. MIN, MAX and AVG are
// exact (from nanosecond sums and extremes); the percentiles come from the
// histogram and are clamped into [MIN, MAX] and made non-decreasing, so the
// row is always ordered — a t-digest, as IoT-benchmark uses, can put P99
// above MAX.
func Percentiles(h *hdrhistogram.Histogram, n, sumNanos, minNanos, maxNanos int64) summary.Latency {
	if n == 0 || h.TotalCount() == 0 {
		return summary.Latency{}
	}
	lo, hi := float64(minNanos)/1e6, float64(maxNanos)/1e6
	qs := []float64{10, 25, 50, 75, 90, 95, 99, 99.9}
	ps := make([]float64, len(qs))
	prev := lo
	for i, q := range qs {
		v := ms(h.ValueAtQuantile(q))
		v = math.Min(math.Max(v, prev), hi)
		ps[i], prev = v, v
	}
	return summary.Latency{
		Avg: float64(sumNanos) / float64(n) / 1e6, Min: lo,
		P10: ps[0], P25: ps[1], P50: ps[2], P75: ps[3], P90: ps[4], P95: ps[5], P99: ps[6], P999: ps[7],
		Max: hi,
	}
}

// Encode returns the histogram in HdrHistogram's compressed V2 format,
// base64-encoded, or "" when it is empty: the form of the summary's
// histograms, which Decode reads.
func Encode(h *hdrhistogram.Histogram) string { return encode(h) }

func encode(h *hdrhistogram.Histogram) string {
	if h.TotalCount() == 0 {
		return ""
	}
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)
	return base64.StdEncoding.EncodeToString(e.encodeV2(h))
}

// Buckets are a histogram's non-empty buckets, lowest first: equal
// Buckets mean equal histograms, count for count.
func Buckets(h *hdrhistogram.Histogram) []hdrhistogram.Bar {
	var out []hdrhistogram.Bar
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			out = append(out, b)
		}
	}
	return out
}

// Decode parses a histogram written by Operations. Its geometry must be
// within tsbench's own (1 µs .. 1 h, 3 significant digits): a summary is
// input too, and a header claiming a wider range would have the decoder
// allocate gigabytes of counts.
func Decode(s string) (*hdrhistogram.Histogram, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if err := checkGeometry(b); err != nil {
		return nil, err
	}
	return hdrhistogram.Decode(b)
}

// checkGeometry reads the header of HdrHistogram's V2 compressed format,
// which hdrhistogram-go's Encode gives base64-encoded (4-byte cookie, 4-byte
// length, then zlib of: cookie, payload length, normalising offset,
// significant digits as int32s; lowest and highest trackable values as
// int64s; all big-endian) and refuses a geometry wider than NewHistogram's.
func checkGeometry(encoded []byte) error {
	b, err := base64.StdEncoding.DecodeString(string(encoded))
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	if len(b) < 8 {
		return fmt.Errorf("histogram: %d bytes, too short for a header", len(b))
	}
	z, err := zlib.NewReader(bytes.NewReader(b[8:]))
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	defer z.Close()
	var h [32]byte
	if _, err := io.ReadFull(z, h[:]); err != nil {
		return fmt.Errorf("histogram: header: %w", err)
	}
	digits := int32(binary.BigEndian.Uint32(h[12:16]))
	lowest := int64(binary.BigEndian.Uint64(h[16:24]))
	highest := int64(binary.BigEndian.Uint64(h[24:32]))
	if digits < 1 || digits > sigFigs || lowest < lowestMicros || highest > highestMicros || highest < 2*lowest {
		return fmt.Errorf("histogram: range %d..%d at %d significant digits, outside tsbench's %d..%d at %d",
			lowest, highest, digits, lowestMicros, highestMicros, sigFigs)
	}
	return nil
}

// FromIntervals rebuilds the matrices' rows from a per-second series alone,
// for a run that never finished (its process was killed): counts are summed,
// and the latency columns come from the merged interval histograms, so MIN,
// MAX and AVG are histogram values here (within 0.1 %), not the exact ones a
// finished run has. Throughput is over the seconds recorded.
func FromIntervals(ivs []summary.Interval) []summary.Operation {
	type acc struct {
		row  summary.Operation
		hist *hdrhistogram.Histogram
	}
	byOp := map[string]*acc{}
	order := OperationNames() // time-series rows first, in matrix order
	var seconds float64
	for _, iv := range ivs {
		seconds += iv.Seconds
		for _, o := range iv.Ops {
			a := byOp[o.Name]
			if a == nil {
				a = &acc{row: summary.Operation{Name: o.Name}, hist: NewHistogram()}
				byOp[o.Name] = a
				if !slices.Contains(order, o.Name) {
					order = append(order, o.Name) // another workload's kinds, as first seen
				}
			}
			a.row.OKOperations += o.OKOps
			a.row.OKPoints += o.OKPoints
			a.row.FailOperations += o.FailOps
			if h, err := Decode(o.Histogram); err == nil {
				a.hist.Merge(h)
			}
		}
	}
	var out []summary.Operation
	for _, name := range order {
		a := byOp[name]
		if a == nil {
			continue
		}
		h := a.hist
		if seconds > 0 {
			a.row.Throughput = float64(a.row.OKPoints) / seconds
		}
		if n := h.TotalCount(); n > 0 {
			meanNs := int64(h.Mean() * 1000)
			a.row.LatencyMS = Percentiles(h, n, meanNs*n, h.Min()*1000, h.Max()*1000)
			a.row.Histogram = encode(h)
		}
		out = append(out, a.row)
	}
	return out
}
