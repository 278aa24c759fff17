package promshape

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Sample is an element of an instant query's answer.
type Sample struct {
	Labels []remotewrite.Label // sorted by name
	Value  float64
	// Tol is how far an engine's answer may lie from an expected Value:
	// 0 for the exact values (every selector's, and their sums); a bound
	// of the rounding for values computed in floating point (rates), and
	// for sums of them, which engines add in their own order.
	Tol float64
}

// Vector is an instant query's answer, sorted by Key (Expect sorts it;
// the operators between selectors and the answer leave it unsorted).
type Vector []Sample

// Point is a value of a range query's answer at time T, ms; Tol as a
// Sample's.
type Point struct {
	T   int64
	V   float64
	Tol float64
}

// Series is a series of a range query's answer, or of a range selector.
type Series struct {
	Labels []remotewrite.Label
	Points []Point
}

// Matrix is a range query's answer, sorted by Key.
type Matrix []Series

// selector is an instant or range selector: a metric name, label
// equality matchers, and regular expression matchers.
type selector struct {
	name  string
	match []remotewrite.Label
	re    []reMatcher
}

// reMatcher is a label matcher `name=~"re"` or, negated, `name!~"re"`:
// the expression must match the whole value (PromQL anchors it), a
// missing label's value being "". Never on instance: the model matches a
// selector against the series of every target at once (Model.matching).
type reMatcher struct {
	name string
	re   *regexp.Regexp
	neg  bool
}

// sel is a selector of the name and name, value pairs.
func sel(name string, pairs ...string) selector {
	s := selector{name: name}
	for i := 0; i+1 < len(pairs); i += 2 {
		s.match = append(s.match, remotewrite.Label{Name: pairs[i], Value: pairs[i+1]})
	}
	return s
}

// matching adds `name=~"expr"` to the selector; negated, `name!~"expr"`.
// The expressions are the model's own, and must compile.
func (s selector) matching(name, expr string, neg bool) selector {
	s.re = append(slices.Clone(s.re), reMatcher{name: name, re: regexp.MustCompile("^(?:" + expr + ")$"), neg: neg})
	return s
}

// matches reports whether a series' labels satisfy the selector.
func (s selector) matches(ls []remotewrite.Label) bool {
	if labelOf(ls, remotewrite.MetricName) != s.name {
		return false
	}
	for _, m := range s.match {
		if labelOf(ls, m.Name) != m.Value {
			return false
		}
	}
	for _, m := range s.re {
		if m.re.MatchString(labelOf(ls, m.name)) == m.neg {
			return false
		}
	}
	return true
}

func labelOf(ls []remotewrite.Label, name string) string {
	for _, l := range ls {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// source is where a query's selectors read: the model (Expect) or, in the
// tests, every sample the scrapes gave.
type source interface {
	// instant is the selector's series at t, as an instant selector.
	instant(s selector, t int64) Vector
	// window is the selector's non-stale samples in (t-w, t].
	window(s selector, t, w int64) Matrix
	// histograms is the selector's native histogram series at t, as an
	// instant selector.
	histograms(s selector, t int64) []hsample
	// engine is the engine whose answer is expected, for the functions
	// the engines compute differently by design (promql.EnginePrometheus,
	// promql.EngineMetricsQL).
	engine() string
}

// Sorted sorts a vector by Key, in place, each sample's key made once
// (made in the comparisons, the keys were nine tenths of the workload's
// CPU).
func Sorted(v Vector) Vector {
	keyed := make([]keyedSample, len(v))
	for i, s := range v {
		keyed[i] = keyedSample{Key(s.Labels), s}
	}
	slices.SortFunc(keyed, func(a, b keyedSample) int { return strings.Compare(a.key, b.key) })
	for i, k := range keyed {
		v[i] = k.s
	}
	return v
}

// SortedMatrix sorts a matrix by its series' keys, in place, each key
// made once.
func SortedMatrix(m Matrix) Matrix {
	keys := make([]string, len(m))
	for i, s := range m {
		keys[i] = Key(s.Labels)
	}
	copy(m, sortedMatrix(m, keys))
	return m
}

type keyedSample struct {
	key string
	s   Sample
}

// labelSlab hands out label sets from large shared arrays: an
// evaluation makes a label set per series, and one allocation for many of
// them instead of one each halves the model's cost (BenchmarkExpect). A
// set it gives has no room to grow in place, so appending to it never
// writes over the next.
type labelSlab struct {
	buf  []remotewrite.Label
	text []byte // open label values being formatted (Model.openValues)
}

// slabChunk is how many labels a slab allocates at a time.
const slabChunk = 4096

// grab returns n labels of the slab, for the caller to fill.
func (s *labelSlab) grab(n int) []remotewrite.Label {
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]remotewrite.Label, 0, max(slabChunk, n))
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	return s.buf[start : start+n : start+n]
}

// clone is a copy of ls from the slab.
func (s *labelSlab) clone(ls []remotewrite.Label) []remotewrite.Label {
	out := s.grab(len(ls))
	copy(out, ls)
	return out
}

// dropName is the labels without __name__, as PromQL's functions and
// arithmetic leave them.
func (s *labelSlab) dropName(ls []remotewrite.Label) []remotewrite.Label {
	n := len(ls)
	for _, l := range ls {
		if l.Name == remotewrite.MetricName {
			n--
		}
	}
	out := s.grab(n)[:0]
	for _, l := range ls {
		if l.Name != remotewrite.MetricName {
			out = append(out, l)
		}
	}
	return out
}

// aggOp is an aggregation operator.
type aggOp int

const (
	aggSum aggOp = iota
	aggMax
	aggMin
	aggCount
)

// aggregate is `op by (by) (v)`: a group per distinct value of the by
// labels, each group labelled by those of them that are set.
func aggregate(op aggOp, by []string, v Vector) Vector {
	by = slices.Sorted(slices.Values(by))
	return grouped(op, v, func(dst []remotewrite.Label, s Sample) []remotewrite.Label {
		return byLabels(dst, s.Labels, by)
	})
}

// byLabels appends the labels of ls named in by (sorted), those set, to
// dst: a sample's group in `by (by)`.
func byLabels(dst, ls []remotewrite.Label, by []string) []remotewrite.Label {
	for _, name := range by {
		if val := labelOf(ls, name); val != "" {
			dst = append(dst, remotewrite.Label{Name: name, Value: val})
		}
	}
	return dst
}

// aggregateWithout is `op without (without) (v)`: a group per distinct
// set of the other labels, __name__ left out.
func aggregateWithout(op aggOp, without []string, v Vector) Vector {
	return grouped(op, v, func(dst []remotewrite.Label, s Sample) []remotewrite.Label {
		for _, l := range s.Labels {
			if l.Name != remotewrite.MetricName && !slices.Contains(without, l.Name) {
				dst = append(dst, l)
			}
		}
		return dst
	})
}

// grouped aggregates v by op in the groups groupOf labels (appending a
// sample's group labels, sorted by name, to dst).
func grouped(op aggOp, v Vector, groupOf func(dst []remotewrite.Label, s Sample) []remotewrite.Label) Vector {
	groups := map[string]*group{}
	var key []byte
	var ls []remotewrite.Label
	for _, s := range v {
		ls = groupOf(ls[:0], s)
		key = appendKey(key[:0], ls, true)
		g, ok := groups[string(key)]
		if !ok {
			g = &group{s: Sample{Labels: slices.Clone(ls), Value: s.Value}}
			if op == aggCount {
				g.s.Value = 1
			}
			groups[string(key)] = g
		} else {
			switch op {
			case aggSum:
				g.s.Value += s.Value
			case aggMax:
				g.s.Value = math.Max(g.s.Value, s.Value)
			case aggMin:
				g.s.Value = math.Min(g.s.Value, s.Value)
			case aggCount:
				g.s.Value++
			}
		}
		if s.Tol > 0 && op != aggCount {
			g.inexact.add(s)
		}
	}
	out := make(Vector, 0, len(groups))
	for _, g := range groups {
		if g.inexact.n > 0 {
			g.s.Tol = g.inexact.bound(op)
		}
		out = append(out, g.s)
	}
	return out // unsorted: Expect sorts the answer once
}

// group is an aggregation's group: its sample so far, and the rounding
// of its inexact inputs.
type group struct {
	s       Sample
	inexact rounding
}

// rounding gathers what bounds an aggregation's rounding over inexact
// values: their own tolerances, and the sum of their magnitudes.
type rounding struct {
	n        int
	tol, abs float64
	maxTol   float64
}

func (r *rounding) add(s Sample) {
	r.n++
	r.tol += s.Tol
	r.abs += math.Abs(s.Value)
	r.maxTol = max(r.maxTol, s.Tol)
}

// bound is the tolerance of the aggregate: a sum's is its terms' plus a
// rounding of each addition, in whatever order an engine adds them
// (at most n-1 roundings of at most 2^-53 of the running magnitude); a
// maximum's or minimum's is the largest of its inputs'.
func (r *rounding) bound(op aggOp) float64 {
	if op == aggSum {
		return r.tol + float64(r.n)*r.abs*0x1p-52
	}
	return r.maxTol
}

// binary is `a op b` with one-to-one matching on all labels but
// __name__, which the result drops.
func binary(a, b Vector, op func(x, y float64) float64) Vector {
	right := make(map[string]float64, len(b))
	var key []byte
	for _, s := range b {
		key = appendKey(key[:0], s.Labels, false)
		right[string(key)] = s.Value
	}
	var out Vector
	var slab labelSlab
	for _, s := range a {
		key = appendKey(key[:0], s.Labels, false)
		if y, ok := right[string(key)]; ok {
			out = append(out, Sample{Labels: slab.dropName(s.Labels), Value: op(s.Value, y)})
		}
	}
	return out // unsorted: Expect sorts the answer once
}

func div(x, y float64) float64 { return x / y }
func sub(x, y float64) float64 { return x - y }

// filter is `v < x` or `v > x` without bool: the samples that pass.
func filter(v Vector, keep func(float64) bool) Vector {
	var out Vector
	for _, s := range v {
		if keep(s.Value) {
			out = append(out, s)
		}
	}
	return out
}

// overTime is `f_over_time(m)`: a sample per series with points, without
// __name__ (Prometheus' choice; the queries aggregate it away).
func overTime(m Matrix, f func([]Point) float64) Vector {
	var out Vector
	var slab labelSlab
	for _, s := range m {
		if len(s.Points) > 0 {
			out = append(out, Sample{Labels: slab.dropName(s.Labels), Value: f(s.Points)})
		}
	}
	return out // unsorted: Expect sorts the answer once
}

func maxPoints(ps []Point) float64 {
	return slices.MaxFunc(ps, func(a, b Point) int { return cmpFloat(a.V, b.V) }).V
}

func minPoints(ps []Point) float64 {
	return slices.MinFunc(ps, func(a, b Point) int { return cmpFloat(a.V, b.V) }).V
}

func countPoints(ps []Point) float64 { return float64(len(ps)) }

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
