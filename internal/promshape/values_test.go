package promshape

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Over many scrapes of targets that live long (no churn) and of targets
// replaced often: counters never decrease within a generation, gauges
// stay in range, histograms are cumulative with _count the +Inf bucket,
// and every value is exact in 1/64ths and below 2^53.
func TestValueInvariants(t *testing.T) {
	for _, c := range []struct {
		name     string
		share    float64
		interval time.Duration
	}{
		{"no churn", 0, 15 * time.Second},
		{"churn", 0.3, 15 * time.Second},
		{"fast scrape", 0.3, 500 * time.Millisecond},
		{"slow scrape", 0, 10 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.ChurnShare, cfg.Interval = c.share, c.interval
			cfg.ChurnPeriod = 0
			if c.share > 0 {
				cfg.ChurnPeriod = 3 * c.interval
			}
			checkInvariants(t, mustNew(t, cfg), 300)
		})
	}
}

func checkInvariants(t *testing.T, m *Model, scrapes int64) {
	prev := map[string]float64{}
	sc := m.NewScraper()
	for k := int64(0); k < scrapes; k++ {
		cur := map[string]float64{}
		_ = sc.Scrape(k, func(ls []remotewrite.Label, _ int64, v float64) {
			if !IsStale(v) {
				cur[Key(ls)] = v
			}
		})
		for key, v := range cur {
			if v < 0 || v >= 1<<53 || v*64 != math.Trunc(v*64) {
				t.Fatalf("scrape %d: %s = %v is not a small multiple of 1/64", k, key, v)
			}
			name := key[:strings.IndexByte(key, '{')]
			if p, ok := prev[key]; ok && isCounter(name) && v < p {
				t.Fatalf("scrape %d: counter %s fell from %v to %v", k, key, p, v)
			}
			checkPairs(t, k, key, name, v, cur)
		}
		prev = cur
	}
}

func isCounter(name string) bool {
	return strings.HasSuffix(name, "_total") || strings.HasPrefix(name, Histogram)
}

// checkPairs checks a value against the series it is bounded by.
func checkPairs(t *testing.T, k int64, key, name string, v float64, cur map[string]float64) {
	other := func(from, to string) float64 {
		o, ok := cur[strings.Replace(key, from, to, 1)]
		if !ok {
			t.Fatalf("scrape %d: %s has no %s", k, key, to)
		}
		return o
	}
	switch name {
	case "up":
		if v != 1 {
			t.Fatalf("scrape %d: %s = %v", k, key, v)
		}
	case "node_memory_MemAvailable_bytes":
		if total := other("MemAvailable", "MemTotal"); v > total || v <= 0 {
			t.Fatalf("scrape %d: %s = %v of %v", k, key, v, total)
		}
	case "node_filesystem_avail_bytes":
		if size := other("avail", "size"); v > size || v <= 0 {
			t.Fatalf("scrape %d: %s = %v of %v", k, key, v, size)
		}
	case "node_load1":
		if v >= 8 {
			t.Fatalf("scrape %d: %s = %v", k, key, v)
		}
	case Histogram + "_count":
		if inf := cur[bucketKey(key, "+Inf")]; inf != v {
			t.Fatalf("scrape %d: %s = %v, +Inf bucket %v", k, key, v, inf)
		}
		if sum := cur[strings.Replace(key, "_count{", "_sum{", 1)]; sum < v/16 || sum > v/2 {
			t.Fatalf("scrape %d: %s = %v, sum %v: mean outside 1/16..1/2 s", k, key, v, sum)
		}
		last := -1.0
		for _, le := range leLabels {
			b, ok := cur[bucketKey(key, le)]
			if !ok || b < last {
				t.Fatalf("scrape %d: %s: bucket le=%s = %v below the one before, %v", k, key, le, b, last)
			}
			last = b
		}
	}
}

// bucketKey is the key of the bucket le of the histogram whose _count
// series' key is countKey: le sorts after every other label.
func bucketKey(countKey, le string) string {
	b := strings.Replace(countKey, "_count{", "_bucket{", 1)
	return b[:len(b)-1] + `,le="` + le + `"}`
}

// The node profile's other series look like node_exporter's: counters
// never decrease, flags are 0 or 1, _info series 1, hundredths have two
// decimals, durations stay below 0.1 s; and many of its values are
// decimals no multiple of 1/64 is (as real ones are), so the bytes a
// store takes a sample are not flattered.
func TestNodeProfileValues(t *testing.T) {
	cfg := testConfig()
	cfg.Profile = Node
	m := mustNew(t, cfg)
	infos, decimal, all := 0, 0, 0
	for n := range m.series {
		tp := &m.series[n]
		if strings.HasSuffix(tp.name, "_info") {
			infos++
		}
		if tp.kind != kindPad {
			continue
		}
		r := padRule(tp.a)
		for slot := range 3 {
			tk := m.targetKey(slot, 0)
			prev := math.Inf(-1)
			for k := int64(0); k < 40; k++ {
				v := m.value(tp, tk, k, k)
				all++
				if v*64 != math.Trunc(v*64) {
					decimal++
				}
				if msg := checkPad(r, v, prev, m.Time(k)); msg != "" {
					t.Fatalf("%s (rule %d) at scrape %d: %v %s", Key(tp.labels), r, k, v, msg)
				}
				prev = v
			}
		}
	}
	if infos < 5 {
		t.Errorf("%d _info series, want node_exporter's", infos)
	}
	if decimal < all/10 {
		t.Errorf("%d of %d values are decimals, want a tenth at least", decimal, all)
	}
}

// checkPad says what is wrong with v, of the rule, after prev, at t ms.
func checkPad(r padRule, v, prev float64, t int64) string {
	hundredths := math.Abs(math.Round(v*100)/100-v) < 1e-9
	switch r {
	case padOne:
		return map[bool]string{false: "want 1"}[v == 1]
	case padZero:
		return map[bool]string{false: "want 0"}[v == 0]
	case padFlag:
		return map[bool]string{false: "want 0 or 1"}[v == 0 || v == 1]
	case padCount, padBytes, padSeconds:
		if v < prev {
			return fmt.Sprintf("a counter below its last value %v", prev)
		}
		if r == padSeconds && !hundredths {
			return "want hundredths"
		}
	case padDecimal:
		if !hundredths || v < 0 || v > 100 {
			return "want hundredths in [0, 100]"
		}
	case padDuration:
		if v < 0 || v >= 0.1 {
			return "want seconds below 0.1"
		}
	case padClock:
		if v != float64(t)/1000 {
			return fmt.Sprintf("want the scrape's time %v", float64(t)/1000)
		}
	}
	return ""
}
