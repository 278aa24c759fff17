package report

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// A run with stalls lists each, with the share of the operations it held,
// after the phases line; a run without has no such line.
func TestConsoleStalls(t *testing.T) {
	s := closedSummary()
	s.Stalls = []summary.Stall{
		{Start: 12, Seconds: 4, OpsPerSecond: 3, MedianOpsPerSecond: 20500, HeldOperations: 40, Share: 0.0004, MaxMS: 4012},
		{Start: 57, Seconds: 3, OpsPerSecond: 7000, MedianOpsPerSecond: 20500, HeldOperations: 21000, Share: 0.21, MaxMS: 3, AtEnd: true},
	}
	got := consoleText(t, s)
	for _, want := range []string{
		"Stalls: 2, holding 21.0 % of the operations (seconds below STALL_FRACTION of the median throughput, for STALL_MIN or longer):\n",
		"  at 12 s for 4 s: 3 ops/s against a median of 20,500; 40 operations held (<0.1 %), the longest 4,012 ms\n",
		"  at 57 s for 3 s: 7,000 ops/s against a median of 20,500; 21,000 operations held (21.0 %), the longest 3 ms; it lasts to the run's end",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(consoleText(t, closedSummary()), "Stalls:") {
		t.Error("a run without stalls has a Stalls line")
	}
}
