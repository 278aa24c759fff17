package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
)

// capWorkload is one workload of the capability matrix, on the real
// PostgreSQL: its arguments, the operation its objectives name, and how
// many operations its plan holds (0: it lasts a duration).
type capWorkload struct {
	name   string
	args   []string
	op     string // as a threshold names it
	finite int
}

// capWorkloads are every workload the engine runs: generated and replayed
// time series, own queries (also served from one event loop, an
// engine.AsyncWorker), a TSBS query file and TPC-C.
func capWorkloads(t *testing.T) []capWorkload {
	dir := t.TempDir()
	csv := filepath.Join(dir, "replay.csv")
	var b strings.Builder
	b.WriteString("time,device,temp,load\n")
	start := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "%s,d%d,%d.5,%d\n", start.Add(time.Duration(i/4)*time.Minute).Format(time.RFC3339), i%4, 20+i%7, i%13)
	}
	own := filepath.Join(dir, "own.yaml")
	for path, text := range map[string]string{csv: b.String(),
		own: "queries:\n  - name: plus_one\n    params:\n      n: int 1..100\n    sql: SELECT {{n}} + 1\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tsbsFile, err := filepath.Abs(filepath.Join(tsbsQueryGolden, "devops_timescaledb-notags_cpu-max-all-1_seed123_scale4_2d_q4.gob"))
	if err != nil {
		t.Fatal(err)
	}
	shape := []string{"--target", "postgres", "--clients", "2"}
	return []capWorkload{
		{"generated", append(shape, "--set", "DB_NAME=caps_gen", "--devices", "4", "--sensors", "4", "--batch-size", "10",
			"--set", "OPERATION_PROPORTION=4:1:0:0:0:0:0:0:0:0:0"), "INGESTION", 0},
		{"replayed", append(shape, "--set", "DB_NAME=caps_replay", "--data", csv, "--batch-size", "5"), "INGESTION", 0},
		// A database each: the freshness probe resets its own beside it,
		// and the two run at once.
		{"own queries", append(shape, "--set", "DB_NAME=caps_own", "--queries", own, "--query-only", "--client-io", "goroutines"), "plus_one", 0},
		{"own queries, epoll", append(shape, "--set", "DB_NAME=caps_own_epoll", "--queries", own, "--query-only", "--client-io", "epoll"), "plus_one", 0},
		{"tsbs file", append(shape, "--set", "DB_NAME=tsbs_queries", "--tsbs-queries", tsbsFile),
			`"TimescaleDB max of all CPU metrics, random    1 hosts, random 8h0m0s by 1h"`, 4},
		// Two warehouses: two workers run one each, with its terminal.
		{"tpcc", append(shape, "--workload", "tpcc", "--warehouses", "2"), "NEW_ORDER", 0},
	}
}

// capability is one capability of a run, tried on a workload: applied (the
// check sees it in the output and summary) or refused with exit 2 naming
// refused.
type capability struct {
	name    string
	args    func(w capWorkload) []string
	refused map[string]string // workload -> what the refusal names
	check   func(t *testing.T, w capWorkload, r result, s *summary.Summary)
}

// lasting is how long a run of w lasts: a duration at a steady 100
// operations a second, or a TSBS query file's queries. A capability is
// applied or refused whatever the pace, and a paced run leaves the
// machine's CPU to the tests beside it (a closed loop takes all of it).
func lasting(w capWorkload, d string) []string {
	if w.finite > 0 {
		return nil
	}
	return []string{"--duration", d, "--rate", "100"}
}

// capRate is the rate the rate capability offers w: 60 operations a
// second, TPC-C 20 transactions. A terminal in the open model runs one
// transaction at a time, and TPC-C's two terminals at 30 a second each
// fell behind on a loaded CI machine (a New-Order over 33 ms: 49.3 a
// second of 60).
func capRate(w capWorkload) int {
	if w.name == "tpcc" {
		return 20
	}
	return 60
}

var capabilities = []capability{
	{name: "rate", args: func(w capWorkload) []string {
		if w.finite > 0 {
			return []string{"--rate", "4"}
		}
		return []string{"--rate", fmt.Sprint(capRate(w)), "--duration", "4s"}
	}, check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
		requireCode(t, r, 0)
		var ops int64
		for _, o := range s.Operations {
			ops += o.OKOperations + o.FailOperations
		}
		if !s.OpenModel {
			t.Fatalf("not an open model run: %+v", s)
		}
		if w.finite > 0 { // 4 queries at 4 a second: the last is due 0.75 s in
			if ops != int64(w.finite) || s.Elapsed < 0.9*0.75 || s.Elapsed > 0.75+2 {
				t.Errorf("%d queries in %.2f s at 4 a second", ops, s.Elapsed)
			}
			return
		}
		// The rate offered, whatever the machine kept up with: every
		// operation due was sent or counted as due and never sent (a CI
		// machine busy with other tests once sent 49.4 a second of 60).
		due := float64(ops + s.NotSent)
		if want := float64(capRate(w)); due/s.Elapsed < 0.9*want || due/s.Elapsed > 1.1*want || ops == 0 {
			t.Errorf("%.1f operations a second due, offered %.0f (%d sent and %d never sent in %.2f s)",
				due/s.Elapsed, want, ops, s.NotSent, s.Elapsed)
		}
	}},
	{name: "threshold", args: func(w capWorkload) []string {
		return append([]string{"--threshold", w.op + ".p99<0.001ms"}, lasting(w, "3s")...)
	}, check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
		requireCode(t, r, 99)
		if len(s.Thresholds) != 1 || s.Thresholds[0].Passed {
			t.Errorf("thresholds %+v", s.Thresholds)
		}
		requireContains(t, r.stdout, "Thresholds")
	}},
	{name: "find-max", args: func(w capWorkload) []string {
		// From a rate every workload keeps (no closed-loop probe): the
		// search is what is tested here, not the machine's spare CPU
		// (TestFindMaxLocatesKnownCapacity finds a known capacity).
		return []string{"--find-max", w.op + ".p99<10s", "--set", "FIND_MAX_START=20", "--set", "FIND_MAX_SETTLE=1s",
			"--set", "FIND_MAX_MEASURE=2s", "--set", "FIND_MAX_STEPS=3", "--set", "FIND_MAX_MIN_OPS=5"}
	}, refused: map[string]string{"tsbs file": "FIND_MAX"}, check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
		requireCode(t, r, 0)
		if s.FindMax == nil || len(s.FindMax.Steps) != 3 || !s.FindMax.Found {
			t.Fatalf("search %+v", s.FindMax)
		}
		requireContains(t, r.stdout, "Highest sustainable rate: ")
	}},
	{name: "repeat", args: func(w capWorkload) []string {
		return append([]string{"--repeat", "2"}, lasting(w, "2s")...)
	}, check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
		requireCode(t, r, 0)
		requireContains(t, r.stdout, "Repetitions: 2 runs of one configuration", "95% CI")
	}},
	{name: "freshness", args: func(w capWorkload) []string {
		return append([]string{"--freshness"}, lasting(w, "3s")...)
	}, refused: map[string]string{"tsbs file": "FRESHNESS", "tpcc": "FRESHNESS"},
		check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
			requireCode(t, r, 0)
			if s.Freshness == nil {
				t.Fatal("no freshness in the summary")
			}
			requireContains(t, r.stdout, "Freshness")
		}},
	{name: "workers", args: func(w capWorkload) []string {
		return append([]string{"--workers", "2", "--worker-index", "0", "--group", "g1"}, lasting(w, "2s")...)
	}, refused: map[string]string{"replayed": "WORKERS", "tsbs file": "WORKERS"}},
	{name: "live output", args: func(w capWorkload) []string {
		return append([]string{"--out", "json=live.ndjson"}, lasting(w, "3s")...)
	}, check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
		requireCode(t, r, 0)
	}},
}

// crashCapability kills the server mid-run and starts it again: nothing
// acknowledged may be lost.
var crashCapability = capability{name: "crash", args: func(w capWorkload) []string {
	args := []string{"--crash", "2s", "--rate", "50"}
	if w.finite == 0 {
		args = append(args, "--duration", "6s")
	}
	if w.name != "tpcc" {
		args = append(args, "--set", "RETRIES=8") // TPC-C counts a failed transaction, and sends it not again
	}
	return args
}, refused: map[string]string{"tsbs file": "CRASH_AT", "own queries": "CRASH_AT", "own queries, epoll": "CRASH_AT"},
	check: func(t *testing.T, w capWorkload, r result, s *summary.Summary) {
		if r.code != 0 && r.code != 1 {
			t.Fatalf("exit %d\n%s\n%s", r.code, tail(r.stdout, 20), r.stderr)
		}
		if c := s.Crash; c == nil || c.Error != "" || c.NewPID == 0 {
			t.Fatalf("crash %+v", s.Crash)
		}
		requireContains(t, r.stdout, "Crash: server postgres")
		if w.name == "tpcc" {
			n := s.TPCC.NewOrders
			if n == nil || n.Lost != 0 || n.Committed == 0 || !s.TPCC.Consistent() {
				t.Errorf("after the crash: new orders %+v, consistency %+v", n, s.TPCC.Consistency)
			}
			requireContains(t, r.stdout, "none lost")
			return
		}
		if s.Verify == nil || !s.Verify.OK || s.Verify.Lost != nil {
			t.Errorf("PostgreSQL lost acknowledged points: %+v", s.Verify)
		}
	}}

// TestEveryCapabilityOnEveryWorkload runs every workload against the real
// PostgreSQL with every capability of a run but the crash
// (TestCrashOnEveryWorkload), and sees each applied (a rate kept within
// 10 %, a threshold's verdict with exit 99, a find-max curve, a table of
// repetitions, the freshness probe, a live output) or refused with exit 2
// naming the setting: never ignored. The workloads run side by side (go
// test -parallel), each in its own database, their capabilities in turn.
func TestEveryCapabilityOnEveryWorkload(t *testing.T) {
	requireTargetServer(t, "postgres")
	loadTSBSPostgres(t, "tsbs_queries")
	for _, w := range capWorkloads(t) {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range capabilities {
				t.Run(c.name, func(t *testing.T) { tryCapability(t, w, c) })
			}
		})
	}
}

// TestCrashOnEveryWorkload kills the real PostgreSQL in the middle of each
// workload's run and starts it again: a Crash line with nothing
// acknowledged lost, or a refusal naming CRASH_AT. The runs go one after
// another, alone: each kills the server every test uses.
func TestCrashOnEveryWorkload(t *testing.T) {
	testenv.AloneOn(t, "postgres")
	requireTargetServer(t, "postgres")
	for _, w := range capWorkloads(t) {
		t.Run(w.name, func(t *testing.T) { tryCapability(t, w, crashCapability) })
	}
}

// tryCapability runs workload w with capability c and sees it applied or
// refused.
func tryCapability(t *testing.T, w capWorkload, c capability) {
	want, refused := c.refused[w.name]
	if c.check == nil && !refused {
		workersApplied(t, w)
		return
	}
	dir := t.TempDir()
	js := filepath.Join(dir, "s.json")
	args := append(append([]string{"run", "--quiet", "--data-dir", dir, "--json", js}, w.args...), c.args(w)...)
	r := runBinary(t, dir, 4*time.Minute, nil, args...)
	if refused {
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Fatalf("exit %d, want 2 naming %s\n%s", r.code, want, r.stderr)
		}
		return
	}
	if _, err := os.Stat(js); err != nil {
		t.Fatalf("exit %d, no summary\n%s\n%s", r.code, tail(r.stdout, 30), r.stderr)
	}
	c.check(t, w, r, readSummary(t, js))
	if c.name == "live output" {
		if b, err := os.ReadFile(filepath.Join(dir, "live.ndjson")); err != nil || len(b) == 0 {
			t.Errorf("the live output wrote nothing (%v)", err)
		}
	}
}

func requireCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, code, tail(r.stdout, 30), r.stderr)
	}
}

// workersApplied runs w split between two worker processes of one group,
// and merges them: each worker's share is measured and the merged run
// counts every operation once.
func workersApplied(t *testing.T, w capWorkload) {
	grp := group(t)
	runs := startWorkers(t, grp, 2, nil, append(append([]string{}, w.args...), lasting(w, "3s")...)...)
	var ops int64
	shares := make([]*summary.Summary, len(runs))
	for i, fr := range runs {
		code, s := fr.wait(t, 3*time.Minute)
		shares[i] = s
		if code != 0 || s.Worker == nil || s.Worker.Index != i {
			t.Fatalf("worker %d: exit %d, %+v\n%s", i, code, s.Worker, fr.stderr.String())
		}
		for _, o := range s.Operations {
			ops += o.OKOperations
		}
	}
	r, merged := mergeGroup(t, grp)
	var got int64
	for _, o := range merged.Operations {
		got += o.OKOperations
	}
	if r.code != 0 || got != ops || ops == 0 {
		t.Errorf("merge exit %d: %d operations merged, the workers did %d\n%s", r.code, got, ops, r.stderr)
	}
	if w.name == "tpcc" {
		tpccWorkersMerged(t, shares, merged)
	}
}

// tpccWorkersMerged checks a TPC-C run of two workers on two warehouses:
// each ran its own warehouse, worker 1 left the consistency conditions to
// worker 0, and the merge has one tpmC, from every New-Order over the
// merged measured phase, with the conditions holding and every committed
// New-Order (those rolled back by design aside) found.
func tpccWorkersMerged(t *testing.T, shares []*summary.Summary, merged *summary.Summary) {
	t.Helper()
	for i, s := range shares {
		if w := s.Worker; w.Warehouses != [2]int{i + 1, i + 1} || s.TPCC == nil || s.TPCC.Terminals != 1 {
			t.Errorf("worker %d: share %+v, TPC-C %+v; want warehouse %d and its terminal", i, w, s.TPCC, i+1)
		}
		if by := s.TPCC.ConsistencyBy; (i == 0) != (by == "") || (i == 0) != (len(s.TPCC.Consistency) == 11) {
			t.Errorf("worker %d: %d consistency conditions, checked by %q", i, len(s.TPCC.Consistency), by)
		}
	}
	tp := merged.TPCC
	no := merged.Op("NEW_ORDER")
	if tp == nil || no == nil || no.OKOperations == 0 {
		t.Fatalf("merged TPC-C %+v, New-Orders %+v", tp, no)
	}
	if want := float64(no.OKOperations) / (merged.Elapsed / 60); math.Abs(tp.TpmC-want) > 1e-6*want || tp.Terminals != 2 {
		t.Errorf("merged tpmC %.1f over %.2f s, want %.1f (%d New-Orders); terminals %d", tp.TpmC, merged.Elapsed, want, no.OKOperations, tp.Terminals)
	}
	if n := tp.NewOrders; !tp.Consistent() || len(tp.Consistency) != 11 || n == nil || n.Lost != 0 || n.Committed < no.OKOperations-tp.Rollbacks {
		t.Errorf("merged consistency %+v, New-Orders %+v", tp.Consistency, tp.NewOrders)
	}
}
