package promshape

import (
	"math"
	"slices"
	"strconv"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// bucket is a classic histogram bucket: its upper bound and cumulative
// count.
type bucket struct{ le, count float64 }

// histogramQuantile is `histogram_quantile(q, v)` of classic buckets (v's
// samples, each's upper bound its le label): a sample per group of the
// other labels. Both engines find the first bucket whose count reaches q
// times the +Inf bucket's, interpolate linearly inside it (from the
// previous bound, or 0), and answer the highest finite bound when that is
// the +Inf bucket. MetricsQL writes the interpolation in another order
// (a product, then a quotient): its answer lies within a rounding or two
// of Prometheus', which the tolerance holds.
func histogramQuantile(q float64, v Vector) Vector {
	groups := map[string]*quantileGroup{}
	var order []string
	var key []byte
	for _, s := range v {
		le, err := strconv.ParseFloat(labelOf(s.Labels, "le"), 64)
		if err != nil {
			continue // not a bucket: both engines leave it out
		}
		ls := withoutLabel(s.Labels, "le")
		key = appendKey(key[:0], ls, false)
		g, ok := groups[string(key)]
		if !ok {
			g = &quantileGroup{labels: ls}
			groups[string(key)] = g
			order = append(order, string(key))
		}
		g.buckets = append(g.buckets, bucket{le, s.Value})
	}
	var out Vector
	for _, k := range order {
		g := groups[k]
		slices.SortFunc(g.buckets, func(a, b bucket) int { return cmpFloat(a.le, b.le) })
		if val, ok := quantileOf(q, g.buckets); ok {
			out = append(out, Sample{Labels: g.labels, Value: val, Tol: math.Abs(val) * 0x1p-48})
		}
	}
	return out // unsorted: Expect sorts the answer once
}

type quantileGroup struct {
	labels  []remotewrite.Label
	buckets []bucket
}

// quantileOf is the q-quantile of sorted buckets ending in +Inf, in
// Prometheus' operations; false when there is none (no +Inf bucket, no
// observation).
func quantileOf(q float64, bs []bucket) (float64, bool) {
	if len(bs) < 2 || !math.IsInf(bs[len(bs)-1].le, 1) || bs[len(bs)-1].count == 0 {
		return 0, false
	}
	rank := q * bs[len(bs)-1].count
	b := 0
	for b < len(bs)-1 && bs[b].count < rank {
		b++
	}
	if b == len(bs)-1 {
		return bs[len(bs)-2].le, true // in the +Inf bucket: the highest finite bound
	}
	start, prev := 0.0, 0.0
	if b > 0 {
		start, prev = bs[b-1].le, bs[b-1].count
	}
	end := bs[b].le
	return start + (end-start)*((rank-prev)/(bs[b].count-prev)), true
}

// withoutLabel is the labels without the one named name, a copy.
func withoutLabel(ls []remotewrite.Label, name string) []remotewrite.Label {
	out := make([]remotewrite.Label, 0, len(ls))
	for _, l := range ls {
		if l.Name != name {
			out = append(out, l)
		}
	}
	return out
}
