package remotewrite

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/golang/snappy"
)

// Requests of templated series decode, with Prometheus' own types, to
// the samples appended, in order, in both versions: open labels first,
// in the middle and last, and two in one template (an instance and a
// revision); an open value that is also a template's string (2.0: named
// by that symbol, not a second one); a value long enough for a two-byte
// length; a target's samples together and a value seen again after
// another; and a request after a Reset holding only its own.
func TestTemplateEncoder(t *testing.T) {
	templates := [][]Label{
		{{MetricName, "up"}, {"instance", ""}, {"job", "node"}},
		{{"instance", ""}, {"job", "node"}, {"mode", "idle"}},
		{{MetricName, "load"}, {"job", "node"}, {"zone", ""}},
		{{MetricName, "cpu"}, {"instance", ""}, {"job", "node"}, {"revision", ""}, {"zone", "b"}},
	}
	open := [][]int{{1}, {0}, {2}, {1, 3}}
	long := strings.Repeat("h", 200)
	type sample struct {
		n      int
		values []string
		t      int64
		v      float64
	}
	one := func(n int, value string, t int64, v float64) sample { return sample{n, []string{value}, t, v} }
	requests := [][]sample{
		{one(0, "a:9100", 1000, 1), one(1, "a:9100", 1000, 0.125), one(2, "a:9100", 1000, math.Inf(1)),
			{3, []string{"a:9100", "3"}, 1000, 2}, one(0, long, 1000, 0), {3, []string{"a:9100", "4"}, 1000, 5},
			one(0, "a:9100", 2000, -2), one(1, "node", -1, 3), {3, []string{"node", "b"}, 3000, 6}},
		{one(2, "b:9100", 5000, 7), {3, []string{"b:9100", "3"}, 5000, 8}},
	}
	for _, v := range []Version{V1, V2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			e := NewTemplateEncoder(v, templates, open)
			for _, req := range requests {
				e.Reset()
				var want []string
				for _, s := range req {
					e.Append(s.n, s.values, s.t, s.v)
					var ls []string
					for i, l := range templates[s.n] {
						if j := slices.Index(open[s.n], i); j >= 0 {
							l.Value = s.values[j]
						}
						ls = append(ls, l.Name+"="+l.Value)
					}
					want = append(want, fmt.Sprintf("%v %d %v", ls, s.t, s.v))
				}
				body := snappy.Encode(nil, e.AppendRequest(nil))
				decoded := decodeV1
				if v == V2 {
					decoded = decodeV2
				}
				var got []string
				for _, s := range decoded(t, body) {
					got = append(got, fmt.Sprintf("%v %d %v", s.labels, s.times[0], s.values[0]))
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}

// Native histogram samples decode, with Prometheus' own types, to valid
// integer histograms of the counts, sum and buckets appended, in both
// versions, beside float samples of the same request: a span starting
// below and above bucket 0, empty buckets inside it, counts that fall and
// rise (negative and positive deltas), and a histogram with no
// observation.
func TestTemplateEncoderHistograms(t *testing.T) {
	templates := [][]Label{
		{{MetricName, "req"}, {"handler", "/q"}, {"instance", ""}},
		{{MetricName, "up"}, {"instance", ""}},
	}
	open := [][]int{{2}, {1}}
	hs := []Histogram{
		{Schema: 0, Count: 10, Sum: 3.5, Offset: -2, Counts: []uint64{1, 0, 6, 3}},
		{Schema: 3, Count: 300, Sum: 1e6, Offset: 5, Counts: []uint64{200, 100}},
		{Schema: 0, Count: 0, Sum: 0, Offset: 0, Counts: nil},
	}
	want := []string{
		"[__name__=req handler=/q instance=a:9100] 1000 {count:10, sum:3.5, (0.125,0.25]:1, (0.5,1]:6, (1,2]:3} zero 2.938735877055719e-39/0",
		"[__name__=up instance=a:9100] 1000 1",
		"[__name__=req handler=/q instance=b:9100] 2000 {count:300, sum:1e+06, (1.414213562373095,1.5422108254079407]:200, " +
			"(1.5422108254079407,1.6817928305074288]:100} zero 2.938735877055719e-39/0",
		"[__name__=req handler=/q instance=c:9100] 3000 {count:0, sum:0} zero 2.938735877055719e-39/0",
	}
	for _, v := range []Version{V1, V2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			e := NewTemplateEncoder(v, templates, open)
			e.AppendHistogram(0, []string{"a:9100"}, 1000, &hs[0])
			e.Append(1, []string{"a:9100"}, 1000, 1)
			e.AppendHistogram(0, []string{"b:9100"}, 2000, &hs[1])
			e.AppendHistogram(0, []string{"c:9100"}, 3000, &hs[2])
			decoded := decodeV1
			if v == V2 {
				decoded = decodeV2
			}
			var got []string
			for _, s := range decoded(t, snappy.Encode(nil, e.AppendRequest(nil))) {
				for i, ts := range s.times {
					got = append(got, fmt.Sprintf("%v %d %v", s.labels, ts, s.values[i]))
				}
				for _, h := range s.hists {
					got = append(got, fmt.Sprintf("%v %s", s.labels, h))
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
