package promshape

import (
	"math"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// nativeQuantile finds the bucket as Prometheus does (from the top for
// q >= 0.5, skipping empty buckets) and interpolates on a log2 scale: the
// answers worked by hand. The e2e runs check it against the engines.
func TestNativeQuantile(t *testing.T) {
	cases := []struct {
		name string
		h    NativeHistogram
		q    float64
		want float64
	}{
		// (0.5, 1] holds all 5: the median halfway on a log scale, 2^-0.5.
		{"one bucket, median", NativeHistogram{Offset: -1, Counts: []uint64{0, 5, 0}, Count: 5}, 0.5, math.Exp2(-0.5)},
		{"one bucket, tenth", NativeHistogram{Offset: -1, Counts: []uint64{0, 5, 0}, Count: 5}, 0.1, math.Exp2(-1 + 0.1)},
		// 1 in (1, 2], 3 in (2, 4]: q 0.9 counts 0.4 down from the top,
		// into (2, 4] at 3 - 0.4 = 2.6 of 3.
		{"from the top", NativeHistogram{Offset: 1, Counts: []uint64{1, 3}, Count: 4}, 0.9, math.Exp2(1 + 2.6/3)},
		// q 0.25 is rank 1, the whole first bucket: its upper bound.
		{"a bucket's end", NativeHistogram{Offset: 1, Counts: []uint64{1, 3}, Count: 4}, 0.25, 2},
		{"empty buckets skipped", NativeHistogram{Offset: -3, Counts: []uint64{2, 0, 0, 2}, Count: 4}, 0.75,
			math.Exp2(-1 + 0.5)},
	}
	for _, c := range cases {
		got, ok := nativeQuantile(c.q, &c.h)
		if !ok || math.Abs(got-c.want) > 1e-15*c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	if _, ok := nativeQuantile(0.5, &NativeHistogram{Counts: []uint64{0}}); ok {
		t.Error("a histogram without observations has a quantile")
	}
}

// A target's native histogram only grows, bucket by bucket (no sample
// looks like a counter reset), its count is its buckets' and its sum
// their observations' means, exactly.
func TestNativeHistogramGrows(t *testing.T) {
	m := mustNew(t, Config{Targets: 3, Interval: 15e9, Seed: 7, Job: "node", Histograms: Native})
	for n := range m.series {
		tp := &m.series[n]
		if tp.kind != kindNative {
			continue
		}
		var prev NativeHistogram
		for i := int64(0); i < 200; i++ {
			var h NativeHistogram
			histogram(tp, m.targetKey(1, 0), i, &h)
			var count uint64
			sum := 0.0
			for j, c := range h.Counts {
				count += c
				sum += float64(c) * nativeMean(j)
				if i > 0 && c < prev.Counts[j] {
					t.Fatalf("%s scrape %d: bucket %d fell from %d to %d", Key(tp.labels), i, j, prev.Counts[j], c)
				}
			}
			if h.Count != count || h.Sum != sum || h.Count == 0 {
				t.Fatalf("scrape %d: count %d sum %v, buckets %v", i, h.Count, h.Sum, h.Counts)
			}
			prev = h
		}
	}
}

// With native histograms, the read load asks its four histogram questions
// of the native series, and each has an answer to check (the model's
// answers are not empty), at a scrape past the first window.
func TestNativeQueriesAnswer(t *testing.T) {
	m := mustNew(t, Config{Targets: 5, Interval: 15e9, Seed: 7, Job: "node", Histograms: Native})
	native := 0
	for _, q := range m.Queries() {
		if !strings.Contains(q.PromQL, Histogram) {
			continue
		}
		if strings.Contains(q.PromQL, "_bucket") || strings.Contains(q.PromQL, "_count ") {
			t.Errorf("%s reads classic series: %s", q.Name, q.PromQL)
		}
		native++
		var n int
		if q.Kind == Dashboard {
			mx, err := m.ExpectRange(q, m.Time(4), m.Time(8), promql.EnginePrometheus)
			if err != nil {
				t.Fatal(err)
			}
			n = len(mx)
		} else {
			v, err := m.Expect(q, m.Time(8), promql.EnginePrometheus)
			if err != nil {
				t.Fatal(err)
			}
			n = len(v)
		}
		if n == 0 && q.Name != "HTTPRequestsHigh" {
			t.Errorf("%s: no answer to check", q.Name)
		}
	}
	if native != 4 {
		t.Errorf("%d queries of the histogram, want 4", native)
	}
}
