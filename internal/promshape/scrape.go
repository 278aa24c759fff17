package promshape

import (
	"fmt"
	"math"
	"slices"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// StaleNaNBits is the bit pattern of Prometheus' staleness marker
// (value.StaleNaN): a NaN its scraper writes to a series that is gone, so
// that instant selectors stop returning it at once rather than up to the
// 5-minute lookback later. Compare bits, never values: NaN != NaN.
const StaleNaNBits uint64 = 0x7ff0000000000002

// StaleNaN is the staleness marker as a value.
func StaleNaN() float64 { return math.Float64frombits(StaleNaNBits) }

// IsStale reports whether v is a staleness marker.
func IsStale(v float64) bool { return math.Float64bits(v) == StaleNaNBits }

// SampleFunc receives a sample. labels (sorted by name, __name__ among
// them) is the Scraper's, valid only during the call.
type SampleFunc func(labels []remotewrite.Label, t int64, v float64)

// Scraper computes scrapes with reused buffers: after the first scrape of
// each target generation it allocates nothing. It is not safe for
// concurrent use; give each goroutine its own.
type Scraper struct {
	m      *Model
	hist   HistogramFunc
	h      NativeHistogram
	labels []remotewrite.Label
	buf    []byte // open label values being formatted
	// inst caches each slot's open label values (openValues) by
	// generation parity: the live generation and the one that just ended
	// never share a parity.
	inst [][2]cachedInstance
}

type cachedInstance struct {
	g      int64
	values []string
	set    bool
}

// NewScraper returns a Scraper of the model.
func (m *Model) NewScraper() *Scraper {
	return &Scraper{m: m, inst: make([][2]cachedInstance, m.targets)}
}

// Scrape gives every sample of scrape k, slot by slot: for a slot whose
// target boundary k replaced, a staleness marker for each series of the
// old generation (Prometheus' scraper writes them at the first scrape
// after a target is gone), then the series of the live generation, each
// in the order Series lists them, all at time Start + k x Interval.
func (sc *Scraper) Scrape(k int64, fn SampleFunc) error {
	return sc.ScrapeSlots(k, 0, int(sc.m.targets), fn)
}

// ScrapeSlots is Scrape of the slots in [lo, hi), so that workers can
// share a scrape.
func (sc *Scraper) ScrapeSlots(k int64, lo, hi int, fn SampleFunc) error {
	return sc.ScrapeSeries(k, lo, hi, func(series int, open []string, t int64, v float64) {
		tp := &sc.m.series[series]
		sc.labels = append(sc.labels[:0], tp.labels...)
		tp.setOpen(sc.labels, open)
		fn(sc.labels, t, v)
	})
}

// SeriesFunc receives a sample of the series whose labels are
// Template(series) with open as the open labels' values, in their order
// (the instance, and the revision with ChurnRevision): what an encoder
// that encodes each series' other labels once takes. open is the
// Scraper's, valid only during the call.
type SeriesFunc func(series int, open []string, t int64, v float64)

// HistogramFunc receives a native histogram sample of the series whose
// labels are Template(series) with open as the open labels' values; open
// and h are the Scraper's, valid only during the call.
type HistogramFunc func(series int, open []string, t int64, h *NativeHistogram)

// OnHistograms gives the scrapes' native histogram samples to fn (a
// staleness marker of a native histogram series, a float, still goes to
// the scrape's own function). A model with native histograms
// (Config.Histograms) cannot be scraped without it.
func (sc *Scraper) OnHistograms(fn HistogramFunc) { sc.hist = fn }

// ScrapeSeries is ScrapeSlots giving each sample's series by its template
// and instance.
func (sc *Scraper) ScrapeSeries(k int64, lo, hi int, fn SeriesFunc) error {
	m := sc.m
	if m.cfg.Histograms == Native && sc.hist == nil {
		return fmt.Errorf("promshape: the targets expose native histograms: the scraper needs a function for them (OnHistograms)")
	}
	if k < 0 {
		return fmt.Errorf("promshape: scrape index %d must not be negative", k)
	}
	if lo < 0 || hi > int(m.targets) || lo > hi {
		return fmt.Errorf("promshape: slots [%d, %d) must be within [0, %d)", lo, hi, m.targets)
	}
	t := m.Time(k)
	for slot := lo; slot < hi; slot++ {
		g := m.Generation(slot, k)
		if m.Replaced(slot, k) {
			sc.emit(slot, g-1, k, t, true, fn)
		}
		sc.emit(slot, g, k, t, false, fn)
	}
	return nil
}

// emit gives the samples of generation g of the slot at scrape k, or its
// staleness markers.
func (sc *Scraper) emit(slot int, g, k, t int64, stale bool, fn SeriesFunc) {
	m := sc.m
	open := sc.open(slot, g)
	tk := m.targetKey(slot, g)
	i := k - m.Birth(slot, g)
	v := StaleNaN()
	for n := range m.series {
		tp := &m.series[n]
		switch {
		case stale:
		case tp.kind == kindNative:
			histogram(tp, tk, i, &sc.h)
			sc.hist(n, open, t, &sc.h)
			continue
		default:
			v = m.value(tp, tk, i, k)
		}
		fn(n, open, t, v)
	}
}

// Template is the labels of series n of every target, sorted by name, and
// the indexes among them, ascending, of the open labels, whose values are
// left empty: the instance, and the revision with ChurnRevision.
func (m *Model) Template(n int) (labels []remotewrite.Label, open []int) {
	tp := &m.series[n]
	open = []int{tp.inst}
	if tp.rev >= 0 {
		open = append(open, tp.rev)
	}
	return slices.Clone(tp.labels), open
}

// setOpen sets the open labels of ls, a copy of the template's labels, to
// values (openValues' order: instance, revision).
func (t *template) setOpen(ls []remotewrite.Label, values []string) {
	ls[t.inst].Value = values[0]
	if t.rev >= 0 {
		ls[t.rev].Value = values[1]
	}
}

// open is the slot's open label values of generation g, formatted once.
func (sc *Scraper) open(slot int, g int64) []string {
	c := &sc.inst[slot][g&1]
	if !c.set || c.g != g {
		*c = cachedInstance{g: g, values: sc.m.openValues(c.values[:0], &sc.buf, slot, g), set: true}
	}
	return c.values
}
