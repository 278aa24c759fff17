package engine

import (
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// With EveryName the result keeps a row per operation, in the order of
// Names: the ones run as they were, zeros for the others.
func TestEveryName(t *testing.T) {
	names := []string{"INGESTION", "RULE", "ALERT", "DASHBOARD"}
	for _, tt := range []struct {
		ops  []summary.Operation
		want string
	}{
		{nil, "INGESTION:0 RULE:0 ALERT:0 DASHBOARD:0"},
		{[]summary.Operation{{Name: "INGESTION", OKOperations: 7}}, "INGESTION:7 RULE:0 ALERT:0 DASHBOARD:0"},
		{[]summary.Operation{{Name: "ALERT", OKOperations: 2}, {Name: "INGESTION", OKOperations: 7}},
			"INGESTION:7 RULE:0 ALERT:2 DASHBOARD:0"},
	} {
		got := ""
		for i, op := range everyName(tt.ops, names) {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%s:%d", op.Name, op.OKOperations)
		}
		if got != tt.want {
			t.Errorf("everyName(%v) = %s, want %s", tt.ops, got, tt.want)
		}
	}
}

// A process whose share is not one range of the workers (a TPC-C worker
// runs the terminals of its warehouses) gets for each of its workers the
// handle that worker has in a single process: the same slot of the rate's
// schedule and the same random pacing.
func TestHandlesOfPaceAsInOneProcess(t *testing.T) {
	cfg := Config{Names: []string{"OP"}, Rate: 80, Workers: 8, MinStep: 1000, RandomStep: true, Seed: 7}
	whole := New(cfg, Hooks{}).Handles(8)
	share := []int{1, 3, 5, 7}
	for i, h := range New(cfg, Hooks{}).HandlesOf(share) {
		one := whole[share[i]]
		if h.worker != one.worker || h.pacer.interval != one.pacer.interval || h.pacer.phase != one.pacer.phase ||
			h.pacer.rng.Uint64() != one.pacer.rng.Uint64() {
			t.Errorf("worker %d: handle %+v, in one process %+v", share[i], h.pacer, one.pacer)
		}
	}
	// Handles is HandlesOf the range from FirstWorker.
	cfg.FirstWorker = 4
	for i, h := range New(cfg, Hooks{}).Handles(4) {
		if one := whole[4+i]; h.worker != one.worker || h.pacer.phase != one.pacer.phase {
			t.Errorf("Handles from worker 4: #%d is worker %d (phase %v), want %d (phase %v)", i, h.worker, h.pacer.phase, one.worker, one.pacer.phase)
		}
	}
	if whole[1].pacer.phase == whole[3].pacer.phase {
		t.Fatal("the workers' phases do not differ: the test would not see a wrong slot")
	}
}
