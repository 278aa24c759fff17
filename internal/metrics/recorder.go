// Package metrics records what clients measured: exact counts, sums, minima
// and maxima per client and operation kind, failures grouped by error class,
// one-second interval snapshots for the time series, and one HDR histogram
// per operation kind for the whole phase (1 µs .. 1 h, 3 significant
// digits). Clients record without sharing anything hot: each appends its
// latencies to its own buffers, which the collector takes several times a
// second (Run.Drain) and records into that second's histograms and the
// phase's.
//
// The phase's histograms are the collector's, not one per client and kind
// merged at the end: such a histogram is 188 KB whatever it holds, so 1,000
// clients running the 11 time-series kinds held 2 GB of them, which the GC
// counts as live and lets as much garbage again pile up before collecting;
// and the pages of each were touched one by one as rarer latencies came, so
// the process still grew by about 200 MB a minute two minutes into a run.
// The merged histograms are the same, value for value.
package metrics

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram range: 1 µs to 1 h at 3 significant digits, as DESIGN.md asks.
const (
	lowestMicros  = 1
	highestMicros = int64(time.Hour / time.Microsecond)
	sigFigs       = 3
)

// NewHistogram returns an empty histogram with the project's range.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(lowestMicros, highestMicros, sigFigs)
}

// micros converts a duration to whole microseconds within the histogram's
// range (rounded; at least 1).
func micros(d time.Duration) int64 {
	us := (int64(d) + 500) / 1000
	return min(max(us, lowestMicros), highestMicros)
}

// opStats is one operation kind's figures for one client.
type opStats struct {
	okOps       int64
	okPoints    int64
	failOps     int64
	failPoints  int64
	unsupported int64
	retries     int64 // further attempts, whatever their outcome
	sumNanos    int64 // exact sum of latencies: AVG and SLOWEST_THREAD
	minNanos    int64
	maxNanos    int64
	sumSvcNanos int64
	minSvcNanos int64
	maxSvcNanos int64
	// wait is the client wait of an event loop's answers (ClientWait);
	// nil where none was recorded.
	wait *waitStats
}

// waitStats is the time answers waited for the client after they
// arrived: a histogram (µs) and the exact sum and extremes.
type waitStats struct {
	h                   *hdrhistogram.Histogram
	n, sum, least, most int64 // nanoseconds
}

// Kind is what a recorded operation was: an index into the run's kind
// names (by default the time-series operations, workload.Op; see NewRun and
// NewRunNamed).
type Kind int

// MaxKinds bounds the kinds one run records: the per-client arrays are
// fixed so that recording never allocates or looks up a map.
const MaxKinds = 32

// intervalStats is what a client accumulated since the collector last
// drained it.
type intervalStats struct {
	okOps, okPoints, failOps [MaxKinds]int64
	retries, inDoubt         [MaxKinds]int64 // further attempts; points of failed attempts that may be stored
	// latencies run from the intended start (open model) or the send;
	// services from the send, in the open model only. Microseconds fit in
	// 32 bits (micros caps them at an hour): these buffers hold a
	// quarter of a second (DrainEvery) of every client's operations, so
	// their size is most of what the recording costs in memory at many
	// clients.
	latencies, services [MaxKinds][]uint32 // µs
}

// Client records one client's operations. Record and Fail are called only by
// the client's goroutine; the interval part is shared with the collector and
// guarded by a mutex that is uncontended but when the collector drains it.
type Client struct {
	ops       [MaxKinds]*opStats
	openModel bool
	failures  map[failKey]*failure

	mu       sync.Mutex
	interval intervalStats
}

type failKey struct {
	op    Kind
	class string
}

type failure struct {
	cause      string
	example    string
	operations int64
	points     int64
}

func newClient(openModel bool) *Client {
	return &Client{openModel: openModel, failures: map[failKey]*failure{}}
}

func (c *Client) stats(op Kind) *opStats {
	s := c.ops[op]
	if s == nil {
		s = &opStats{minNanos: math.MaxInt64, minSvcNanos: math.MaxInt64}
		c.ops[op] = s
	}
	return s
}

// Record accounts for a successful operation. latency runs from the intended
// start (equal to the send time in the closed model); service from the send.
func (c *Client) Record(op Kind, points int64, latency, service time.Duration) {
	s := c.stats(op)
	us := micros(latency)
	s.okOps++
	s.okPoints += points
	ns := int64(latency)
	s.sumNanos += ns
	s.minNanos = min(s.minNanos, ns)
	s.maxNanos = max(s.maxNanos, ns)
	if c.openModel {
		sv := int64(service)
		s.sumSvcNanos += sv
		s.minSvcNanos = min(s.minSvcNanos, sv)
		s.maxSvcNanos = max(s.maxSvcNanos, sv)
	}
	c.mu.Lock()
	c.interval.okOps[op]++
	c.interval.okPoints[op] += points
	c.interval.latencies[op] = append(c.interval.latencies[op], uint32(us))
	if c.openModel {
		c.interval.services[op] = append(c.interval.services[op], uint32(micros(service)))
	}
	c.mu.Unlock()
}

// ClientWait accounts for the time a successful operation's answer waited,
// after it arrived, until the client took it (an event loop serving other
// answers): the tool's share of what the server's latency would otherwise
// hold. Only the client's goroutine calls it; the run reads it when the
// clients are done.
func (c *Client) ClientWait(op Kind, d time.Duration) {
	s := c.stats(op)
	w := s.wait
	if w == nil {
		w = &waitStats{h: NewHistogram(), least: math.MaxInt64}
		s.wait = w
	}
	ns := max(int64(d), 0)
	_ = w.h.RecordValue(max((ns+500)/1000, 0))
	w.n++
	w.sum += ns
	w.least, w.most = min(w.least, ns), max(w.most, ns)
}

// Fail accounts for a failed operation; its latency is not mixed into the
// successes'. The error is grouped by class.
func (c *Client) Fail(op Kind, points int64, err error) {
	s := c.stats(op)
	s.failOps++
	s.failPoints += points
	msg := err.Error()
	k := failKey{op, Class(msg)}
	f := c.failures[k]
	if f == nil {
		f = &failure{cause: Cause(err), example: msg}
		c.failures[k] = f
	}
	f.operations++
	f.points += points
	c.mu.Lock()
	c.interval.failOps[op]++
	c.mu.Unlock()
}

// Retried accounts for n further attempts of one operation, recorded once
// by Record or Fail whatever the attempts were.
func (c *Client) Retried(op Kind, n int64) {
	c.stats(op).retries += n
	c.mu.Lock()
	c.interval.retries[op] += n
	c.mu.Unlock()
}

// InDoubt accounts for the points of attempts of one operation that failed
// in a way that may still have stored them (InDoubt(err)): the second's
// figure, exported live; the run's total is the runner's.
func (c *Client) InDoubt(op Kind, points int64) {
	c.mu.Lock()
	c.interval.inDoubt[op] += points
	c.mu.Unlock()
}

// Unsupported accounts for an operation the target cannot express.
func (c *Client) Unsupported(op Kind) { c.stats(op).unsupported++ }

// keepLatencies is the capacity (entries) a recycled latency buffer keeps
// whatever it last held: smaller buffers are not worth reallocating. It is
// small because there are up to MaxKinds of them (times two in the open
// model) for every client and one spare.
const keepLatencies = 64

// takeInterval hands the collector what accumulated since its last call and
// gives the client fresh (recycled) buffers.
//
// The buffers pass from client to client (Run.Snapshot recycles one
// client's as the next one's), so a buffer would keep the capacity of the
// busiest second any client ever had. Closed-loop clients that never block
// (the null target) keep a core for a whole scheduler slice, so with many
// clients on few cores one client can do ten times its average in a
// second; over a long run every buffer then ratchets up to that, and memory
// grows for as long as the run lasts (tens of MB a minute at 1,000
// clients, doubled by the GC's headroom). A buffer more than twice the size
// of what it just held is dropped instead, and append grows a new one to
// what is used.
func (c *Client) takeInterval(spare *intervalStats) intervalStats {
	for _, bufs := range []*[MaxKinds][]uint32{&spare.latencies, &spare.services} {
		for i, l := range bufs {
			if cap(l) > 2*len(l)+keepLatencies {
				bufs[i] = nil
			} else {
				bufs[i] = l[:0]
			}
		}
	}
	spare.okOps, spare.okPoints, spare.failOps = [MaxKinds]int64{}, [MaxKinds]int64{}, [MaxKinds]int64{}
	spare.retries, spare.inDoubt = [MaxKinds]int64{}, [MaxKinds]int64{}
	c.mu.Lock()
	out := c.interval
	c.interval = *spare
	c.mu.Unlock()
	return out
}

var digits = regexp.MustCompile(`[0-9]+`)

// Class reduces an error text to a stable class: its first line, numbers
// replaced by N (ports, counts and ids differ between occurrences of the same
// error), at most 160 characters.
func Class(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = digits.ReplaceAllString(msg, "N")
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}
