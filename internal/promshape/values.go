package promshape

import "github.com/tsbench/tsbench/internal/gen"

// Values. Every value is an integer or a multiple of 1/8, 1/16 or 1/64,
// below 2^53 and with few significant decimal digits (about 13 at most
// over a long run): exactly representable as a float64, and meant to fit
// VictoriaMetrics' decimal form (an int64 mantissa and a power of ten)
// exactly, so a sum of them is the same in any engine. Gauges are hashes of the absolute scrape index k;
// counters are functions of the index since the target's birth i, so they
// start from a per-series start when a target appears and never reset
// while it lives.

const gib = 1 << 30

// Sub-keys of the quantities a target's key is hashed with.
const (
	keyMemTotal = iota + 1
	keyMemAvail
	keyLoad
	keyNet
	keyFS                  // + filesystem
	keyCPU  = keyFS + 16   // + cpu x len(modes) + mode
	keyHist = keyCPU + 64  // + handler
	keyPad  = keyHist + 64 // + the node profile's other series' index
)

// bucketShare is the share of the observations in each bucket or below,
// /1024 (leLabels' order): cumulative, ending at all of them for +Inf.
var bucketShare = []int64{410, 717, 891, 983, 1009, 1017, 1020, 1022, 1023, 1024}

// targetKey is the hash all of a target generation's values derive from.
func (m *Model) targetKey(slot int, g int64) uint64 {
	return gen.Hash2(gen.Hash2(m.seed, uint64(slot)), uint64(g))
}

// counter is start + a x i + jitter with jitter in [0, a): between two
// scrapes it grows by a + jitter' - jitter >= 1, so it never decreases.
// The start (< 2^20) is the target's count before its first scrape.
func counter(key uint64, a, i int64) int64 {
	return int64(key>>44) + a*i + int64(gen.Stream(key, i)%uint64(a))
}

// memTotal is the target's memory: 2 to 32 GiB less a few pages.
func memTotal(tk uint64) int64 {
	h := gen.Hash2(tk, keyMemTotal)
	return (2+int64(h%31))*gib - int64(h>>40%4096)*4096
}

// fsSize is a filesystem's size: (min + h mod n) units, at most 32 GiB
// (the small profile's "/" 8 to 32 GiB, "/data" 16 to 32 GiB).
func fsSize(tk uint64, t *template) int64 {
	h := gen.Hash2(tk, keyFS+uint64(t.param))
	return (t.fs.min + int64(h%uint64(t.fs.n))) * t.fs.unit
}

// histCount is a handler's observation count: 1 to 100 a scrape.
func histCount(tk uint64, handler int, i int64) int64 {
	h := gen.Hash2(tk, keyHist+uint64(handler))
	return counter(h, 1+int64(h%100), i)
}

// value is the series' value at scrape k, i scrapes after its target's
// birth, tk the target's key.
func (m *Model) value(t *template, tk uint64, i, k int64) float64 {
	switch t.kind {
	case kindUp:
		return 1
	case kindCPU:
		// Seconds in 1/8s: the mode's share of the interval a scrape.
		a := max(1, t.a*m.interval*8/1_000_000)
		return float64(counter(gen.Hash2(tk, keyCPU+uint64(t.param)), a, i)) / 8
	case kindMemTotal:
		return float64(memTotal(tk))
	case kindMemAvail:
		// 51..921 1024ths of the total (a multiple of 1024): the ratio
		// is exact and below 0.1 at about 6% of scrapes.
		f := 51 + int64(gen.Stream(gen.Hash2(tk, keyMemAvail), k)%871)
		return float64(memTotal(tk) / 1024 * f)
	case kindFSSize:
		return float64(fsSize(tk, t))
	case kindFSAvail:
		f := 40 + int64(gen.Stream(gen.Hash2(tk, keyFS+8+uint64(t.param)), k)%961)
		return float64(fsSize(tk, t) / 1024 * f)
	case kindNetRx:
		h := gen.Hash2(tk, keyNet)
		if t.param > 0 {
			h = gen.Hash2(h, uint64(t.param))
		}
		return float64(counter(h, 1024+int64(h%(1<<20)), i))
	case kindLoad1:
		// k/64 or, in the node profile, hundredths (not exact, but no
		// query of the read load sums them): below 8.
		return float64(gen.Stream(gen.Hash2(tk, keyLoad), k)%uint64(8*t.a)) / float64(t.a)
	case kindBucket:
		h, b := t.param/len(leLabels), t.param%len(leLabels)
		// A fixed share of the count, rounded down: non-decreasing in le
		// and in time, and the +Inf bucket is the count.
		return float64(histCount(tk, h, i) * bucketShare[b] >> 10)
	case kindSum:
		// The count times a mean of 1/16 to 8/16 s per request.
		mean := 1 + int64(gen.Hash2(tk, keyHist+uint64(t.param))>>8%8)
		return float64(histCount(tk, t.param, i)*mean) / 16
	case kindCount:
		return float64(histCount(tk, t.param, i))
	case kindPad:
		return m.padValue(padRule(t.a), gen.Hash2(tk, keyPad+uint64(t.param)), i, k)
	}
	return 0
}

// padValue is the value at scrape k, i scrapes after its target's birth,
// of a node profile series hashed h of the rule.
func (m *Model) padValue(r padRule, h uint64, i, k int64) float64 {
	switch r {
	case padOne:
		return 1
	case padFlag:
		if h%32 == 0 {
			return 0
		}
		return 1
	case padCount:
		return float64(counter(h, 1+int64(h%1000), i))
	case padBytes:
		return float64(counter(h, 1+int64(h%(1<<20)), i))
	case padSeconds:
		return float64(counter(h, 1+int64(h%(uint64(m.interval)/10+1)), i)) / 100
	case padGauge:
		return float64(gen.Stream(h, k) % 10_001)
	case padMemory:
		return float64(gen.Stream(h, k)%(1<<20)) * 4096
	case padDecimal:
		return float64(gen.Stream(h, k)%10_001) / 100
	case padDuration:
		return float64(gen.Stream(h, k)%100_000) / 1e6
	case padConst:
		return float64(1 + h%65_536)
	case padClock:
		return float64(m.Time(k)) / 1000
	case padBoot:
		return float64(m.cfg.Start/1000 - int64(h%1_000_000))
	}
	return 0 // padZero
}
