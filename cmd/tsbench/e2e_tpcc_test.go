package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The MOT TPC-C study on the real PostgreSQL: tpmC, the transaction
// latency matrix, the published-vs-measured table, the connections sweep
// and the in-memory analogue; every phase's consistency conditions hold
// and its tpmC is its committed New-Orders per minute.
func TestTPCCScenarioOnPostgres(t *testing.T) {
	requireTargetServer(t, "postgres")
	dir := t.TempDir()
	r := tsbench(t, nil, "run", "--scenario", "mot-tpcc", "--target", "postgres", "--scale", "0.1", "--duration", "2s",
		"--quiet", "--data-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 60), r.stderr)
	}
	checkContains(t, r.stdout, "tpmC (New-Orders per minute):", "Transaction (ms)", "Published vs measured: mot-tpcc",
		"TPC-C by connections (disk tables)", "In-memory analogue vs disk tables", "tables unlogged in tablespace tsbench_tmpfs")
	res := readScenario(t, dir)
	if len(res.Rows) != 6 || len(res.Phases) != 6 {
		t.Fatalf("%d rows, %d phases; want 6 each", len(res.Rows), len(res.Phases))
	}
	for i, p := range res.Phases {
		s := readSummary(t, filepath.Join(p.ResultsDir, "summary.json"))
		tc := s.TPCC
		if tc == nil || !tc.Consistent() || len(tc.Consistency) != 11 {
			t.Fatalf("phase %s: TPC-C figures %+v", p.Phase, tc)
		}
		no := s.Op("NEW_ORDER")
		if no == nil || no.OKOperations == 0 {
			t.Fatalf("phase %s: no New-Orders: %+v", p.Phase, s.Operations)
		}
		if want := float64(no.OKOperations) / (s.Elapsed / 60); math.Abs(tc.TpmC-want) > 1e-6*want {
			t.Errorf("phase %s: tpmC %v, want %v", p.Phase, tc.TpmC, want)
		}
		if got := res.Rows[i].Rate.Mean; math.Abs(got-tc.TpmC) > 1e-6*tc.TpmC {
			t.Errorf("phase %s: table says %v tpmC, the run %v", p.Phase, got, tc.TpmC)
		}
		if len(tc.Sweep) != 5 || tc.Sweep[4].Connections != 16 {
			t.Errorf("phase %s: sweep %+v", p.Phase, tc.Sweep)
		}
	}
}

// A TPC-C run against MariaDB from the command line, and the targets that
// cannot run TPC-C saying why.
func TestTPCCRunOnMariaDB(t *testing.T) {
	t.Run("unsupported", func(t *testing.T) {
		for target, why := range map[string]string{"sqlite": "one connection write at a time", "duckdb": "optimistic concurrency",
			"influxdb": "not an SQL database"} {
			if _, err := targets.Lookup(target); err != nil {
				continue // left out of this build (duckdb's tag): TestLeftOutTargetRefused
			}
			r := tsbench(t, nil, "run", "--workload", "tpcc", "--target", target, "--data-dir", t.TempDir())
			if r.code != 2 || !strings.Contains(r.stderr, why) {
				t.Errorf("%s: exit %d, stderr %q; want 2 and %q", target, r.code, r.stderr, why)
			}
		}
	})
	requireTargetServer(t, "mysql")
	dir := t.TempDir()
	r := tsbench(t, nil, "run", "--workload", "tpcc", "--target", "mysql", "--warehouses", "1", "--clients", "4",
		"--duration", "3s", "--quiet", "--data-dir", dir, "--json", filepath.Join(dir, "out.json"))
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	s := readSummary(t, filepath.Join(dir, "out.json"))
	if s.TPCC == nil || !s.TPCC.Consistent() || s.TPCC.TpmC <= 0 || len(s.Operations) != 5 {
		t.Fatalf("TPC-C summary: %+v, operations %+v", s.TPCC, s.Operations)
	}
	if !strings.Contains(s.Environment.ServerVersion, "MariaDB") {
		t.Errorf("server version %q", s.Environment.ServerVersion)
	}
	// A transaction ends at its last answer's arrival, its terminal's
	// connection dialed under the terminal's clock (arrival.Dial).
	if no := s.Op("NEW_ORDER"); no == nil || no.ClientWaitMS == nil || !strings.Contains(s.LatencyClock, "SO_TIMESTAMPNS") {
		t.Errorf("latency clock %q, NEW_ORDER %+v: the answers' arrival did not end the transactions", s.LatencyClock, no)
	}
}

// TPC-C at a rate: 20 transactions a second for 15 s in the standard mix
// are 1,200 a minute (tpmTotal), latency counted from each one's intended
// start; a threshold names a transaction, and every New-Order the server
// acknowledged is in its district afterwards.
func TestTPCCAtARate(t *testing.T) {
	testenv.Alone(t)
	requireTargetServer(t, "postgres")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	r := tsbench(t, nil, "run", "--workload", "tpcc", "--target", "postgres", "--warehouses", "1", "--rate", "20",
		"--duration", "15s", "--threshold", "NEW_ORDER.p90<10s", "--quiet", "--data-dir", dir, "--json", out)
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	s := readSummary(t, out)
	if s.TPCC == nil || math.Abs(s.TPCC.TpmTotal-1200) > 120 || !s.OpenModel || s.RatePerSecond != 20 {
		t.Fatalf("tpmTotal %+v at 20 transactions a second, open model %v", s.TPCC, s.OpenModel)
	}
	if len(s.Thresholds) != 1 || !s.Thresholds[0].Passed {
		t.Errorf("thresholds %+v", s.Thresholds)
	}
	if n := s.TPCC.NewOrders; n == nil || n.Committed == 0 || n.Lost != 0 || n.Found != n.Committed {
		t.Errorf("new orders %+v", n)
	}
	checkContains(t, r.stdout, "tpmTotal: 1,", "Open model at 20.00", "none lost")
}

// TPC-C's question, the highest rate at which New-Order's p90 stays under
// a limit (clause 5.2.5.4 sets such limits), answered by find-max.
func TestTPCCFindMax(t *testing.T) {
	testenv.Alone(t)
	requireTargetServer(t, "postgres")
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	r := tsbench(t, nil, "run", "--workload", "tpcc", "--target", "postgres", "--warehouses", "1",
		"--find-max", "NEW_ORDER.p90<50ms", "--set", "FIND_MAX_SETTLE=2s", "--set", "FIND_MAX_MEASURE=4s", "--set", "FIND_MAX_STEPS=4",
		"--quiet", "--data-dir", dir, "--json", out)
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	fm := readSummary(t, out).FindMax
	if fm == nil || !fm.Found || fm.Rate <= 0 || fm.Objectives[0] != "NEW_ORDER.p90<50ms" {
		t.Fatalf("search %+v\n%s", fm, r.stdout)
	}
	checkContains(t, r.stdout, "Highest sustainable rate: ", "NEW_ORDER p50")
}
