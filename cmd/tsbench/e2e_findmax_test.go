package main

import (
	"github.com/tsbench/tsbench/internal/testenv"
	"path/filepath"
	"strings"
	"testing"
)

// find-max locates a known capacity: the null target with a fixed service
// time of 10 ms per write and 4 clients can complete at most 4 / 10 ms =
// 400 writes a second. Offered more, its queue grows and the p90 objective
// breaks; the search must end within 10 % of the rate the closed loop
// reached (at most 400), bracketed, and keep the search with the run of
// its best step. p90, not p99: a step measures
// about 1,100 writes in 4 s, so a p99 breaks on one pause of the shared
// machine longer than 50 ms (a CI run failed at 288 of 400 so), while a
// backlog past the capacity delays every later write, and so the p90.
func TestFindMaxLocatesKnownCapacity(t *testing.T) {
	testenv.Alone(t)
	const capacity = 4 / 0.010
	dir := t.TempDir()
	out := filepath.Join(dir, "fm.json")
	r := tsbench(t, nil, "run", "--data-dir", dir, "--target", "null", "--set", "target.service_time=10ms",
		"--clients", "4", "--devices", "4", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0",
		"--find-max", "INGESTION.p90<50ms", "--set", "FIND_MAX_SETTLE=1s", "--set", "FIND_MAX_MEASURE=3s", "--json", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, out)
	fm := s.FindMax
	if fm == nil || !fm.Found || !fm.Bracketed {
		t.Fatalf("search %+v\n%s", fm, r.stdout)
	}
	// The capacity as this machine delivers it: the closed-loop probe's
	// rate, a little under 400 (each 10 ms sleep overshoots by a fraction
	// of a millisecond), never above.
	probe := fm.Steps[0].Achieved
	t.Logf("sustainable %.0f ops/s; closed loop %.0f ops/s of a capacity of %.0f; %d steps", fm.Rate, probe, capacity, len(fm.Steps))
	if fm.Steps[0].Offered != 0 || probe > 1.02*capacity || probe < 0.8*capacity {
		t.Fatalf("closed-loop probe %+v; the capacity is %.0f\n%s", fm.Steps[0], capacity, r.stdout)
	}
	if fm.Rate < 0.9*probe || fm.Rate > 1.1*probe {
		t.Errorf("sustainable rate %.0f ops/s; the closed loop completed %.0f (±10 %%)\n%s", fm.Rate, probe, r.stdout)
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
	checkContains(t, r.stdout, "step 1: offered closed loop", "Highest sustainable rate: ", "Find max: INGESTION.p90<50ms")
	// The report of the run draws the search.
	if !strings.Contains(reportPage(t, dir, s.RunID), `id="findmax"`) {
		t.Error("the report has no Find max section")
	}
}

// A bad objective is refused before anything runs.
func TestFindMaxBadObjective(t *testing.T) {
	inParallel(t)
	r := tsbench(t, nil, "run", "--target", "null", "--find-max", "INGESTON.p99<50ms", "--data-dir", t.TempDir())
	if r.code != 2 || !strings.Contains(r.stderr, "INGESTON") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

// A search on SQLite verifies every step as a plain run does: SQLite runs
// inside tsbench and loses nothing, so each step's stored points equal its
// acknowledged ones, warm-up included (a warm-up's query answers once
// counted as written points, and the search ended with exit 3).
func TestFindMaxOnSQLiteVerifies(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "fm.json")
	r := tsbench(t, nil, "run", "--data-dir", dir, "--target", "sqlite", "--clients", "2", "--devices", "4",
		"--find-max", "INGESTION.p99<100ms", "--set", "FIND_MAX_SETTLE=1s", "--set", "FIND_MAX_MEASURE=2s",
		"--set", "FIND_MAX_STEPS=3", "--set", "FIND_MAX_MIN_OPS=20", "--json", out)
	if r.code != 0 && r.code != 99 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, r.stdout, "points written", ": OK")
	fm := readSummary(t, out).FindMax
	if fm == nil || len(fm.Steps) != 3 {
		t.Fatalf("search %+v\n%s", fm, r.stdout)
	}
	for i, st := range fm.Steps {
		s := readSummary(t, filepath.Join(dir, "runs", st.RunID, "summary.json"))
		var warm int64
		for _, p := range s.Phases {
			if p.Name == "warm-up" {
				warm = p.Points
			}
		}
		v, w := s.Verify, s.Op("INGESTION")
		if v == nil || !v.OK || w == nil || v.StoredPoints != v.ExpectedPoints || v.ExpectedPoints != warm+w.OKPoints {
			t.Errorf("step %d (run %s): verify %+v; warm-up %d + measured %+v points", i+1, st.RunID, v, warm, w)
		}
		if warm%(1000*10) != 0 { // whole batches: 1,000 rows... of 10 sensors by default
			t.Logf("step %d: warm-up wrote %d points", i+1, warm)
		}
	}
}

// Driven down to 2 operations/s (a null server of 10 ms that never meets
// a 5 ms p99), a search lengthens its steps until each objective has the
// operations it needs, flags the step that cannot have them within
// FIND_MAX_MAX_MEASURE and stops there; no step is judged on no operation.
func TestFindMaxLowRatesLengthenOrFlag(t *testing.T) {
	testenv.Alone(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "fm.json")
	r := tsbench(t, nil, "run", "--data-dir", dir, "--target", "null", "--set", "target.service_time=10ms",
		"--clients", "1", "--devices", "1", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0",
		"--find-max", "INGESTION.p99<5ms", "--set", "FIND_MAX_START=8", "--set", "FIND_MAX_SETTLE=300ms",
		"--set", "FIND_MAX_MEASURE=1s", "--set", "FIND_MAX_MAX_MEASURE=3s", "--set", "FIND_MAX_MIN_OPS=4", "--json", out)
	if r.code != 99 {
		t.Fatalf("exit %d, want 99 (no rate meets the objective)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	fm := readSummary(t, out).FindMax
	if fm == nil || fm.Found || fm.Floor != 1 {
		t.Fatalf("search %+v\n%s", fm, r.stdout)
	}
	lengthened := false
	for i, st := range fm.Steps {
		switch {
		case st.Operations == 0:
			t.Errorf("step %d measured no operation: %+v", i+1, st)
		case st.Operations < 4 && st.TooFew == "":
			t.Errorf("step %d judged on %d operations: %+v", i+1, st.Operations, st)
		case st.Offered == 2 && st.Operations >= 4:
			lengthened = st.MeasuredS > 1.5
		}
	}
	if !lengthened {
		t.Errorf("no step at 2 ops/s measured 4 operations over a lengthened step\n%s", r.stdout)
	}
	checkContains(t, r.stdout, "too few operations to tell", "the search stopped at 1.00 ops/s", "FIND_MAX_MAX_MEASURE")
}
