package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// find-max locates a known capacity: the null target with a fixed service
// time of 10 ms per write and 4 clients can complete at most 4 / 10 ms =
// 400 writes a second. Offered more, its queue grows and the p99 objective
// breaks; the search must end within 10 % of 400, bracketed, and keep the
// search with the run of its best step.
func TestFindMaxLocatesKnownCapacity(t *testing.T) {
	const capacity = 4 / 0.010
	dir := t.TempDir()
	out := filepath.Join(dir, "fm.json")
	r := tsbench(t, nil, "run", "--data-dir", dir, "--target", "null", "--set", "target.service_time=10ms",
		"--clients", "4", "--devices", "4", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0",
		"--find-max", "INGESTION.p99<50ms", "--set", "FIND_MAX_SETTLE=1s", "--set", "FIND_MAX_MEASURE=3s", "--json", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, out)
	fm := s.FindMax
	if fm == nil || !fm.Found || !fm.Bracketed {
		t.Fatalf("search %+v\n%s", fm, r.stdout)
	}
	t.Logf("sustainable %.0f ops/s of a capacity of %.0f, in %d steps", fm.Rate, capacity, len(fm.Steps))
	if fm.Rate < 0.9*capacity || fm.Rate > 1.1*capacity {
		t.Errorf("sustainable rate %.0f ops/s; the capacity is %.0f (±10 %%)\n%s", fm.Rate, capacity, r.stdout)
	}
	best := fm.Steps[fm.Best]
	if best.RunID != s.RunID || !best.Passed || best.Offered != fm.Rate || s.RatePerSecond != fm.Rate || !s.OpenModel {
		t.Errorf("the summary is not the best step's run: step %+v, run %s at %v ops/s", best, s.RunID, s.RatePerSecond)
	}
	for _, st := range fm.Steps {
		if !st.Passed && len(st.Reasons) == 0 {
			t.Errorf("a failed step without a reason: %+v", st)
		}
	}
	checkContains(t, r.stdout, "step 1: offered closed loop", "Highest sustainable rate: ", "Find max: INGESTION.p99<50ms")
	// The report of the run draws the search.
	if !strings.Contains(reportPage(t, dir, s.RunID), `id="findmax"`) {
		t.Error("the report has no Find max section")
	}
}

// A bad objective is refused before anything runs.
func TestFindMaxBadObjective(t *testing.T) {
	r := tsbench(t, nil, "run", "--target", "null", "--find-max", "INGESTON.p99<50ms", "--data-dir", t.TempDir())
	if r.code != 2 || !strings.Contains(r.stderr, "INGESTON") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}
