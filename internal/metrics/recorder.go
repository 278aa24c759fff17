// Package metrics records what clients measured: one HDR histogram per
// operation kind and client (1 µs .. 1 h, 3 significant digits), exact
// counts, sums, minima and maxima beside it, failures grouped by error
// class, and one-second interval snapshots for the time series. Clients
// record without sharing anything hot; histograms are merged once at the end.
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
	latency     *hdrhistogram.Histogram // from the intended start (open model) or send
	service     *hdrhistogram.Histogram // from the actual send; open model only
	okOps       int64
	okPoints    int64
	failOps     int64
	failPoints  int64
	unsupported int64
	sumNanos    int64 // exact sum of latencies: AVG and SLOWEST_THREAD
	minNanos    int64
	maxNanos    int64
	sumSvcNanos int64
	minSvcNanos int64
	maxSvcNanos int64
}

// Kind is what a recorded operation was: an index into the run's kind
// names (by default the time-series operations, workload.Op; see NewRun and
// NewRunNamed).
type Kind int

// MaxKinds bounds the kinds one run records: the per-client arrays are
// fixed so that recording never allocates or looks up a map.
const MaxKinds = 16

// intervalStats is what a client accumulated since the last snapshot.
type intervalStats struct {
	okOps, okPoints, failOps [MaxKinds]int64
	latencies                [MaxKinds][]int64 // µs
}

// Client records one client's operations. Record and Fail are called only by
// the client's goroutine; the interval part is shared with the collector and
// guarded by a mutex that is uncontended but once a second.
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
		// Histograms are created on first use: a client that never runs a
		// kind pays no memory for it.
		s = &opStats{latency: NewHistogram(), minNanos: math.MaxInt64, minSvcNanos: math.MaxInt64}
		if c.openModel {
			s.service = NewHistogram()
		}
		c.ops[op] = s
	}
	return s
}

// Record accounts for a successful operation. latency runs from the intended
// start (equal to the send time in the closed model); service from the send.
func (c *Client) Record(op Kind, points int64, latency, service time.Duration) {
	s := c.stats(op)
	us := micros(latency)
	s.latency.RecordValue(us)
	s.okOps++
	s.okPoints += points
	ns := int64(latency)
	s.sumNanos += ns
	s.minNanos = min(s.minNanos, ns)
	s.maxNanos = max(s.maxNanos, ns)
	if s.service != nil {
		sv := int64(service)
		s.service.RecordValue(micros(service))
		s.sumSvcNanos += sv
		s.minSvcNanos = min(s.minSvcNanos, sv)
		s.maxSvcNanos = max(s.maxSvcNanos, sv)
	}
	c.mu.Lock()
	c.interval.okOps[op]++
	c.interval.okPoints[op] += points
	c.interval.latencies[op] = append(c.interval.latencies[op], us)
	c.mu.Unlock()
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
		f = &failure{example: msg}
		c.failures[k] = f
	}
	f.operations++
	f.points += points
	c.mu.Lock()
	c.interval.failOps[op]++
	c.mu.Unlock()
}

// Unsupported accounts for an operation the target cannot express.
func (c *Client) Unsupported(op Kind) { c.stats(op).unsupported++ }

// takeInterval hands the collector what accumulated since its last call and
// gives the client fresh (recycled) buffers.
func (c *Client) takeInterval(spare *intervalStats) intervalStats {
	for i := range spare.latencies {
		spare.latencies[i] = spare.latencies[i][:0]
	}
	spare.okOps, spare.okPoints, spare.failOps = [MaxKinds]int64{}, [MaxKinds]int64{}, [MaxKinds]int64{}
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
