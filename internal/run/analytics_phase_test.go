package run

import (
	"io"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/analytics"
	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/scenario"
	"github.com/tsbench/tsbench/internal/workload"
)

// Random operation draws give devices different rows, which the queries'
// one count cannot check: bad input, before connecting.
func TestRunRefusesRandomOrder(t *testing.T) {
	cfg := config.Default()
	cfg.OperationOrder = workload.OrderRandom
	_, err := AnalyticsPhase(cfg, scenario.Phase{Name: "analytics"}, "s/analytics", io.Discard)
	if !badinput.Is(err) || !strings.Contains(err.Error(), "OPERATION_ORDER = random") {
		t.Errorf("%v, want bad input naming OPERATION_ORDER", err)
	}
}

func TestResultFailed(t *testing.T) {
	if (AnalyticsResult{Outcomes: []analytics.Outcome{{Name: "q1"}}}).Failed() {
		t.Error("a clean outcome failed")
	}
	if !(AnalyticsResult{Outcomes: []analytics.Outcome{{Name: "q1"}, {Name: "q2", Error: "wrong answer"}}}).Failed() {
		t.Error("a wrong answer did not fail")
	}
}
