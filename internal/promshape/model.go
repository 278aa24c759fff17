package promshape

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/gen"
)

// Model is a validated Config with what follows from it. It is immutable
// and safe for concurrent use; a Scraper holds per-goroutine scratch.
type Model struct {
	cfg      Config
	seed     uint64
	targets  int64
	interval int64 // ms
	period   int64 // scrapes per churn period; 0 without churn
	churn    int64 // slots replaced at each period boundary
	spike    int64 // slots replaced at every every-th boundary instead (SpikeEvery)
	every    int64 // boundaries from a spike to the next; 0 without spikes
	offset   int64 // the slot replaced first
	series   []template
}

// New validates the config and prepares the model.
func New(c Config) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &Model{
		cfg:      c,
		seed:     gen.Mix(uint64(c.Seed)),
		targets:  int64(c.Targets),
		interval: c.Interval.Milliseconds(),
		series:   templates(c.Job, c.Profile, c.Histograms, c.Churn),
	}
	if c.ChurnShare > 0 {
		m.churn = churned(c)
	}
	if c.SpikeEvery > 0 {
		m.spike, m.every = spiked(c), int64(c.SpikeEvery)
	}
	if m.churn > 0 || m.spike > 0 {
		m.period = int64(c.ChurnPeriod / c.Interval)
		m.offset = int64(gen.Hash2(m.seed, 1) % uint64(c.Targets))
	}
	return m, nil
}

// Config is the model's config.
func (m *Model) Config() Config { return m.cfg }

// Time is the time of scrape k, ms.
func (m *Model) Time(k int64) int64 { return m.cfg.Start + k*m.interval }

// Index is the scrape at time t, and whether t is a scrape time (t at or
// after Start, a whole number of intervals after it).
func (m *Model) Index(t int64) (int64, bool) {
	d := t - m.cfg.Start
	if d < 0 || d%m.interval != 0 {
		return 0, false
	}
	return d / m.interval, true
}

// Churn: the slots form a ring; period boundary p (p >= 1, at scrape
// p x period) replaces the next churn slots of the ring after those
// boundary p-1 replaced, starting at offset, or the next spike slots at
// every every-th boundary. So each boundary replaces exactly its count of
// slots (at most once each, as both counts are at most targets) and every
// slot is replaced within ceil(targets/churn) periods.

// replacedBy is how many ring positions boundaries 1 to p replaced.
func (m *Model) replacedBy(p int64) int64 {
	done := p * m.churn
	if m.every > 0 {
		done += p / m.every * (m.spike - m.churn)
	}
	return done
}

// boundaryOf is the boundary that replaces ring position j (counting
// every replacement since the first): the first p with replacedBy(p) > j.
func (m *Model) boundaryOf(j int64) int64 {
	if m.every == 0 {
		return j/m.churn + 1
	}
	steady := (m.every - 1) * m.churn // a cycle's positions before its spike
	cycle := steady + m.spike
	p, rem := j/cycle*m.every, j%cycle
	if rem < steady {
		return p + rem/m.churn + 1
	}
	return p + m.every
}

// ring is the slot's position on the ring.
func (m *Model) ring(slot int) int64 { return (int64(slot) - m.offset + m.targets) % m.targets }

// Generation is the generation of the target in slot at scrape k (k >= 0):
// how many times boundaries 1..k/period replaced the slot.
func (m *Model) Generation(slot int, k int64) int64 {
	if m.period == 0 || k < m.period {
		return 0
	}
	done := m.replacedBy(k / m.period) // ring positions replaced so far
	r := m.ring(slot)
	if done <= r {
		return 0
	}
	return (done - r + m.targets - 1) / m.targets
}

// Birth is the first scrape of generation g of the slot: the boundary at
// which the g-th replacement (ring position r + (g-1) x targets) falls.
func (m *Model) Birth(slot int, g int64) int64 {
	if g <= 0 {
		return 0
	}
	if m.period == 0 {
		return math.MaxInt64
	}
	return m.boundaryOf(m.ring(slot)+(g-1)*m.targets) * m.period
}

// Replaced reports whether boundary scrape k replaced the slot's target:
// its old generation ends (its series get staleness markers at k).
func (m *Model) Replaced(slot int, k int64) bool {
	return m.period != 0 && k > 0 && k%m.period == 0 && m.Generation(slot, k) != m.Generation(slot, k-1)
}

// SeriesWritten is the distinct series the slots in [lo, hi) write in
// scrapes 0 to k: each generation alive by scrape k, SeriesPerTarget
// series a generation (a staleness marker makes no series).
func (m *Model) SeriesWritten(lo, hi int, k int64) int64 {
	var gens int64
	for s := lo; s < hi; s++ {
		gens += m.Generation(s, k) + 1
	}
	return gens * int64(len(m.series))
}

// openValues appends to dst the values of the labels a target's series
// take from it, generation g of the slot's: its instance, host-S-G:9100
// (ChurnInstance) or host-S:9100 with its revision G (ChurnRevision).
// They are formatted in *buf, which a caller that formats many keeps.
func (m *Model) openValues(dst []string, buf *[]byte, slot int, g int64) []string {
	if m.cfg.Churn == ChurnRevision {
		*buf = appendInstance((*buf)[:0], slot, -1)
		dst = append(dst, string(*buf))
		*buf = strconv.AppendInt((*buf)[:0], g, 10)
		return append(dst, string(*buf))
	}
	*buf = appendInstance((*buf)[:0], slot, g)
	return append(dst, string(*buf))
}

// InstancePattern is a regular expression of the instance labels of
// slots [lo, hi), every generation.
func (m *Model) InstancePattern(lo, hi int) string {
	slots := make([]string, 0, hi-lo)
	for s := lo; s < hi; s++ {
		slots = append(slots, strconv.Itoa(s))
	}
	if m.cfg.Churn == ChurnRevision {
		return "host-(" + strings.Join(slots, "|") + "):9100"
	}
	return "host-(" + strings.Join(slots, "|") + ")-[0-9]+:9100"
}

// appendInstance appends the instance label of generation g of the slot,
// or of the slot whatever its generation for g < 0.
func appendInstance(dst []byte, slot int, g int64) []byte {
	dst = append(dst, "host-"...)
	dst = strconv.AppendInt(dst, int64(slot), 10)
	if g >= 0 {
		dst = append(dst, '-')
		dst = strconv.AppendInt(dst, g, 10)
	}
	return append(dst, ":9100"...)
}

// checkSlot reports a slot out of range.
func (m *Model) checkSlot(slot int) error {
	if slot < 0 || int64(slot) >= m.targets {
		return fmt.Errorf("promshape: slot %d must be in [0, %d)", slot, m.targets)
	}
	return nil
}
