package threshold

import (
	"math"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// FuzzParse: any expression is either refused with a message that quotes
// it, or parses into a finite threshold that reads back the same from its
// Expr and evaluates against a run without panicking, whatever the run
// holds.
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
		// A threshold of ±Inf can never fail or never pass: refuse it.
		if math.IsInf(th.Value, 0) || math.IsNaN(th.Value) {
			t.Fatalf("Parse(%q) gave the value %v", expr, th.Value)
		}
		// Expr is what reports print: read back, it is the same threshold.
		if again, err := Parse(th.Expr); err != nil || again != th {
			t.Fatalf("Parse(%q) = %+v; its Expr reads back as %+v, %v", expr, th, again, err)
		}
		for _, s := range runs {
			th.Evaluate(s)
		}
	})
}
