package threshold

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// FuzzParse: any expression is either refused with a message that quotes
// it, or parses into a threshold that evaluates against a run without
// panicking, whatever the run holds.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"INGESTION.p99<50ms", "errors==0", "INGESTION.throughput>100000", "TIME_RANGE.max <= 2s",
		"x.p99<1us", "INGESTION.p999>=1e308s", "errors<-1", "INGESTION.", ".p99<1", "INGESTION.p99<NaN", "errors==0x10"} {
		f.Add(s)
	}
	runs := []*summary.Summary{{}, {Operations: []summary.Operation{{Name: "INGESTION", OKOperations: 3, FailOperations: 1,
		Throughput: 12.5, LatencyMS: summary.Latency{P99: 4, Max: 9}}}}}
	f.Fuzz(func(t *testing.T, expr string) {
		th, err := Parse(expr)
		if err != nil {
			if !strings.Contains(err.Error(), "threshold ") {
				t.Fatalf("Parse(%q): the message does not say what it read: %v", expr, err)
			}
			return
		}
		for _, s := range runs {
			th.Evaluate(s)
		}
	})
}
