package promshape

import (
	"fmt"
	"math"
	"slices"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Histograms is how a target exposes its request-duration histogram:
// classic (a _bucket series per le, _sum and _count) or native (one series
// whose samples are whole histograms, as Prometheus 3 scrapes them with
// scrape_native_histograms and an instrumented program sends them by
// remote write 2.0).
type Histograms uint8

// The histogram kinds; Classic is the zero value, every Config's before
// native histograms.
const (
	Classic Histograms = iota
	Native
)

func (h Histograms) String() string {
	switch h {
	case Classic:
		return "classic"
	case Native:
		return "native"
	}
	return fmt.Sprintf("histograms(%d)", uint8(h))
}

// ParseHistograms is the kind of the name (classic or native).
func ParseHistograms(name string) (Histograms, error) {
	for _, h := range []Histograms{Classic, Native} {
		if h.String() == name {
			return h, nil
		}
	}
	return 0, fmt.Errorf("promshape: histograms %q: classic or native", name)
}

// NativeHistogram is a native histogram sample with integer counts, as
// remote write's Histogram message carries it; the model's are of schema
// 0 (each bucket's upper bound twice its lower), with no observation zero
// or negative.
type NativeHistogram = remotewrite.Histogram

// nativeWeights are each bucket's share of a handler's observations,
// /1024, from (2^-7, 2^-6] s to (4, 8] s: request durations peaking near
// 30 to 60 ms, as the classic buckets' shares do.
var nativeWeights = []int64{40, 90, 160, 220, 200, 140, 90, 50, 24, 10}

// nativeOffset is the bucket index of nativeWeights[0].
const nativeOffset = -6

// nativeMean is the mean observation the sum counts in bucket j: three
// quarters of its upper bound, a power of two times 3/4, so that every
// sum is exact.
func nativeMean(j int) float64 { return math.Ldexp(0.75, nativeOffset+j) }

// histogram sets h to the native histogram of the template's handler at
// i scrapes after its target's birth, tk the target's key. Each bucket
// counts a fixed share of the handler's count, rounded down: every
// bucket only grows, so no sample looks like a counter reset.
func histogram(t *template, tk uint64, i int64, h *NativeHistogram) {
	n := histCount(tk, t.param, i)
	h.Schema, h.Offset, h.Count, h.Sum = 0, nativeOffset, 0, 0
	h.Counts = h.Counts[:0]
	for j, w := range nativeWeights {
		c := n * w >> 10
		h.Counts = append(h.Counts, uint64(c))
		h.Count += uint64(c)
		h.Sum += float64(c) * nativeMean(j)
	}
}

// bounds is bucket i's lower and upper bound at schema 0.
func bounds(i int32) (lower, upper float64) {
	return math.Ldexp(1, int(i)-1), math.Ldexp(1, int(i))
}

// hsample is a native histogram series' sample, as the answers' evaluation
// takes it.
type hsample struct {
	labels []remotewrite.Label
	h      NativeHistogram
}

// sumHistograms is `sum by (by) (v)` of native histograms of one layout
// (every one of the model's): bucket by bucket, the counts and sums
// added, exact as they are integers and sums of dyadic fractions.
func sumHistograms(by []string, v []hsample) []hsample {
	var out []hsample
	at := map[string]int{}
	var key []byte
	for _, s := range v {
		ls := byLabels(nil, s.labels, by)
		key = appendKey(key[:0], ls, false)
		i, ok := at[string(key)]
		if !ok {
			i = len(out)
			at[string(key)] = i
			out = append(out, hsample{labels: ls, h: NativeHistogram{Schema: s.h.Schema, Offset: s.h.Offset,
				Counts: make([]uint64, len(s.h.Counts))}})
		}
		g := &out[i].h
		g.Count += s.h.Count
		g.Sum += s.h.Sum
		for j, c := range s.h.Counts {
			g.Counts[j] += c
		}
	}
	return out
}

// histogramCounts is `histogram_count(v)`, and histogramSums
// `histogram_sum(v)`: floats, the metric name dropped.
func histogramCounts(v []hsample) Vector {
	return histogramFloats(v, func(h *NativeHistogram) float64 { return float64(h.Count) })
}

func histogramSums(v []hsample) Vector {
	return histogramFloats(v, func(h *NativeHistogram) float64 { return h.Sum })
}

func histogramFloats(v []hsample, f func(*NativeHistogram) float64) Vector {
	out := make(Vector, 0, len(v))
	for i := range v {
		out = append(out, Sample{Labels: withoutLabel(v[i].labels, remotewrite.MetricName), Value: f(&v[i].h)})
	}
	return out
}

// nativeQuantiles is `histogram_quantile(q, v)` of native histograms, in
// Prometheus' operations (promql.HistogramQuantile): the bucket where the
// rank falls, counted from the top for q >= 0.5, and the quantile
// interpolated inside it on a logarithmic scale (exponential buckets are
// of equal width there). Mimir's and Thanos' engines compute the same
// within a rounding or two, which the tolerance holds.
func nativeQuantiles(q float64, v []hsample) Vector {
	var out Vector
	for i := range v {
		if val, ok := nativeQuantile(q, &v[i].h); ok {
			out = append(out, Sample{Labels: withoutLabel(v[i].labels, remotewrite.MetricName), Value: val,
				Tol: math.Abs(val) * 0x1p-44})
		}
	}
	return out
}

// nativeQuantile is the q-quantile (0 < q < 1) of h; false without an
// observation.
func nativeQuantile(q float64, h *NativeHistogram) (float64, bool) {
	if h.Count == 0 {
		return 0, false
	}
	total := float64(h.Count)
	order := make([]int, 0, len(h.Counts))
	for j, c := range h.Counts {
		if c != 0 {
			order = append(order, j)
		}
	}
	rank := q * total
	if q >= 0.5 {
		slices.Reverse(order)
		rank = (1 - q) * total
	}
	count, j := 0.0, 0
	for _, j = range order {
		count += float64(h.Counts[j])
		if count >= rank {
			break
		}
	}
	c := float64(h.Counts[j])
	if q >= 0.5 {
		rank = count - rank
	} else {
		rank -= count - c
	}
	lower, upper := bounds(h.Offset + int32(j))
	fraction := rank / c
	logLower, logUpper := math.Log2(lower), math.Log2(upper)
	return math.Exp2(logLower + (logUpper-logLower)*fraction), true
}

// nativeQueries are the read load's histogram queries over native
// histograms, by the name of the classic query each stands for: the same
// questions (a job's 90th percentile, the observations by handler, a
// target's requests over the window, the durations' growth by handler)
// asked of one series a handler.
func (m *Model) nativeQueries(w int64, d string) map[string]Query {
	qs := []Query{
		{Name: "job:" + Histogram + ":p90", Kind: Rule,
			PromQL: `histogram_quantile(0.9, sum by (job) (` + Histogram + `))`,
			eval: func(src source, t int64) Vector {
				return nativeQuantiles(0.9, sumHistograms([]string{"job"}, src.histograms(sel(Histogram), t)))
			}},
		{Name: "job_handler:" + Histogram + ":count", Kind: Rule,
			PromQL: `histogram_count(sum by (job, handler) (` + Histogram + `))`,
			eval: func(src source, t int64) Vector {
				return histogramCounts(sumHistograms([]string{"handler", "job"}, src.histograms(sel(Histogram), t)))
			}},
		{Name: "HTTPRequestsHigh", Kind: Alert,
			PromQL: fmt.Sprintf(`sum by (job, instance) (histogram_count(%[1]s) - histogram_count(%[1]s offset %[2]s)) > 600`,
				Histogram, d),
			eval: func(src source, t int64) Vector {
				s := sel(Histogram)
				return filter(aggregate(aggSum, []string{"instance", "job"}, binary(histogramCounts(src.histograms(s, t)),
					histogramCounts(src.histograms(s, t-w)), sub)), above(600))
			}},
		{Name: "http-request-seconds-by-handler",
			PromQL: fmt.Sprintf(`sum by (handler) (histogram_sum(%[1]s) - histogram_sum(%[1]s offset %[2]s))`, Histogram, d),
			eval: func(src source, t int64) Vector {
				s := sel(Histogram)
				return aggregate(aggSum, []string{"handler"}, binary(histogramSums(src.histograms(s, t)),
					histogramSums(src.histograms(s, t-w)), sub))
			}},
	}
	classic := []string{"job:" + Histogram + ":p90", "job_handler_le:" + Histogram + "_bucket:sum", "HTTPRequestsHigh",
		"http-requests-by-le"}
	out := make(map[string]Query, len(qs))
	for i, q := range qs {
		out[classic[i]] = q
	}
	return out
}

// withNative replaces the classic histogram queries of qs with their
// native forms.
func withNative(qs []Query, native map[string]Query) []Query {
	out := make([]Query, 0, len(qs))
	for _, q := range qs {
		if n, ok := native[q.Name]; ok {
			n.Kind, n.Step = q.Kind, q.Step
			q = n
		}
		out = append(out, q)
	}
	return out
}

// histograms is the native histograms of the selector's series at t, as
// an instant selector gives them (modelSource's instant, for the
// model's native templates).
func (s modelSource) histograms(sl selector, t int64) []hsample {
	m := s.m
	k, ok := m.Index(t)
	if !ok {
		return nil
	}
	matching := m.matching(sl)
	var out []hsample
	var slab labelSlab
	for slot := 0; slot < int(m.targets); slot++ {
		g := m.Generation(slot, k)
		s.each(matching, &slab, slot, g, func(tp *template, ls []remotewrite.Label, tk uint64) {
			if tp.kind != kindNative {
				return
			}
			var h NativeHistogram
			histogram(tp, tk, k-m.Birth(slot, g), &h)
			out = append(out, hsample{labels: ls, h: h})
		})
	}
	return out
}
