package promshape

import (
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
