package remotewrite

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/golang/snappy"
)

// Requests of templated series decode, with Prometheus' own types, to
// the samples appended, in order, in both versions: open labels first,
// in the middle and last; an open value that is also a template's string
// (2.0: named by that symbol, not a second one); a value long enough for
// a two-byte length; a target's samples together and a value seen again
// after another; and a request after a Reset holding only its own.
func TestTemplateEncoder(t *testing.T) {
	templates := [][]Label{
		{{MetricName, "up"}, {"instance", ""}, {"job", "node"}},
		{{"instance", ""}, {"job", "node"}, {"mode", "idle"}},
		{{MetricName, "load"}, {"job", "node"}, {"zone", ""}},
	}
	open := []int{1, 0, 2}
	long := strings.Repeat("h", 200)
	type sample struct {
		n     int
		value string
		t     int64
		v     float64
	}
	requests := [][]sample{
		{{0, "a:9100", 1000, 1}, {1, "a:9100", 1000, 0.125}, {2, "a:9100", 1000, math.Inf(1)},
			{0, long, 1000, 0}, {0, "a:9100", 2000, -2}, {1, "node", -1, 3}},
		{{2, "b:9100", 5000, 7}},
	}
	for _, v := range []Version{V1, V2} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			e := NewTemplateEncoder(v, templates, open)
			for _, req := range requests {
				e.Reset()
				var want []string
				for _, s := range req {
					e.Append(s.n, s.value, s.t, s.v)
					var ls []string
					for i, l := range templates[s.n] {
						if i == open[s.n] {
							l.Value = s.value
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
