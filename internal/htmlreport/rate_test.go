package htmlreport

import (
	"math"
	"strings"
	"testing"
)

// A query's throughput chart is in queries per second, each second's
// queries (40 a second here), not the points of their answers (400); a
// write's is in points per second. The comparison says queries/s too.
func TestQueryThroughputChartIsQueriesPerSecond(t *testing.T) {
	runs := twoRuns()
	want := map[string]struct {
		unit string
		mean float64
	}{"throughput-INGESTION": {"points/s", 300 * 100}, "throughput-TIME_RANGE": {"queries/s", 40}}
	seen := 0
	for _, sec := range chartsOf(t, runs).Sections {
		for _, c := range sec.Charts {
			w, ok := want[c.ID]
			if !ok {
				continue
			}
			seen++
			var sum float64
			var n int
			for _, p := range c.Series[0].Data {
				sum, n = sum+p[1], n+1
			}
			if c.YName != w.unit || n == 0 || math.Abs(sum/float64(n)-w.mean) > 0.2*w.mean {
				t.Errorf("%s: %s, mean %g over %d seconds; want %s, about %g", c.ID, c.YName, sum/float64(n), n, w.unit, w.mean)
			}
		}
	}
	if seen != 2 {
		t.Errorf("found %d of the 2 throughput charts", seen)
	}
	runs[1] = twoRuns()[0]
	if page := render(t, runs); !strings.Contains(page, "throughput (queries/s)") {
		t.Errorf("the comparison of TIME_RANGE does not say queries/s")
	}
}
