package promshape

import (
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Set operators, topk and absent: where an answer is which series are
// there, not what they add up to.

// setOp is a PromQL set operator.
type setOp int

const (
	setAnd setOp = iota
	setOr
	setUnless
)

// signature is a sample's matching key: the values of the on labels, or
// with none given every label but __name__.
func signature(dst []byte, ls []remotewrite.Label, on []string) []byte {
	if on == nil {
		return appendKey(dst, ls, false)
	}
	for _, name := range on {
		dst = append(dst, name...)
		dst = append(dst, '=')
		dst = append(dst, labelOf(ls, name)...)
		dst = append(dst, 0)
	}
	return dst
}

// set is `a and on (on) b`, `a or on (on) b` or `a unless on (on) b`
// (on nil: matching on every label but __name__): a's samples whose
// signature b has, or has not; for or, every one of a's and those of b's
// whose signature a has not. The samples keep their labels, as both
// engines do.
func set(op setOp, a, b Vector, on []string) Vector {
	var key []byte
	in := func(v Vector) map[string]bool {
		sigs := make(map[string]bool, len(v))
		for _, s := range v {
			key = signature(key[:0], s.Labels, on)
			sigs[string(key)] = true
		}
		return sigs
	}
	keep := func(v Vector, sigs map[string]bool, want bool) Vector {
		var out Vector
		for _, s := range v {
			key = signature(key[:0], s.Labels, on)
			if sigs[string(key)] == want {
				out = append(out, s)
			}
		}
		return out
	}
	switch op {
	case setAnd:
		return keep(a, in(b), true)
	case setUnless:
		return keep(a, in(b), false)
	}
	return append(slices.Clone(a), keep(b, in(a), false)...)
}

// topkSum is `sum by (by) (topk by (by) (k, v))`: in each group the sum
// of its k largest values. Which series topk keeps among equal values is
// up to the engine, but their sum is not, so the answer is exact.
func topkSum(k int, by []string, v Vector) Vector {
	type group struct {
		labels []remotewrite.Label
		vals   []float64
	}
	by = slices.Sorted(slices.Values(by))
	groups := map[string]*group{}
	var key []byte
	var ls []remotewrite.Label
	for _, s := range v {
		ls = byLabels(ls[:0], s.Labels, by)
		key = appendKey(key[:0], ls, true)
		g := groups[string(key)]
		if g == nil {
			g = &group{labels: slices.Clone(ls)}
			groups[string(key)] = g
		}
		g.vals = append(g.vals, s.Value)
	}
	out := make(Vector, 0, len(groups))
	for _, g := range groups {
		slices.SortFunc(g.vals, func(a, b float64) int { return cmpFloat(b, a) })
		var sum float64
		for _, x := range g.vals[:min(k, len(g.vals))] {
			sum += x
		}
		out = append(out, Sample{Labels: g.labels, Value: sum})
	}
	return out // unsorted: Expect sorts the answer once
}

// absent is `absent(s)` of a selector's instant answer v: nothing when v
// has a sample, else 1 labelled by the selector's equality matchers.
func absent(s selector, v Vector) Vector {
	if len(v) > 0 {
		return nil
	}
	ls := slices.Clone(s.match)
	slices.SortFunc(ls, func(a, b remotewrite.Label) int { return strings.Compare(a.Name, b.Name) })
	return Vector{{Labels: ls, Value: 1}}
}

// groupLeft is `a * on (on) group_left (copy) info`: each of a's samples
// times the info series its on labels match (an _info series' value is
// 1, so the value is a's, exactly), labelled as a's without __name__ and
// with the info series' copy labels. a's samples that match none are
// left out, as both engines leave them.
func groupLeft(a, info Vector, on, copied []string) Vector {
	right := make(map[string]Sample, len(info))
	var key []byte
	for _, s := range info {
		key = signature(key[:0], s.Labels, on)
		right[string(key)] = s
	}
	var out Vector
	for _, s := range a {
		key = signature(key[:0], s.Labels, on)
		r, ok := right[string(key)]
		if !ok {
			continue
		}
		ls := make([]remotewrite.Label, 0, len(s.Labels)+len(copied))
		for _, l := range s.Labels {
			if l.Name != remotewrite.MetricName {
				ls = append(ls, l)
			}
		}
		for _, name := range copied {
			ls = append(ls, remotewrite.Label{Name: name, Value: labelOf(r.Labels, name)})
		}
		slices.SortFunc(ls, func(x, y remotewrite.Label) int { return strings.Compare(x.Name, y.Name) })
		out = append(out, Sample{Labels: ls, Value: s.Value * r.Value})
	}
	return out // unsorted: Expect sorts the answer once
}
