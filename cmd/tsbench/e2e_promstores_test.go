package main

// End-to-end tests of the stores written as Prometheus agents write
// (remote write) and asked in PromQL: VictoriaMetrics through its
// remote-write path, Prometheus, Grafana Mimir and Thanos. Each runs a
// mixed workload verified and answer-checked on every write path it
// offers, measures its freshness, and is killed mid-run and restarted.

import (
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/testenv/fault"
)

// promStores are the remote-write targets; the VictoriaMetrics target
// joins them with write_path=remote-write.
var promStores = []string{"prometheus", "mimir", "thanos"}

// noTextSet keeps TEXT sensors out: the stores keep float64 values only.
var noTextSet = []string{"--set", "INSERT_DATATYPE_PROPORTION=1:1:1:1:1:0"}

// A mixed workload on every remote-write target and write path: every
// acknowledged point counted back, the query checks (5 of each kind)
// agreeing with the generator.
func TestRemoteWriteRuns(t *testing.T) {
	inParallel(t)
	for _, target := range append([]string{"victoriametrics"}, promStores...) {
		d, err := targets.Lookup(target)
		if err != nil {
			t.Fatal(err)
		}
		for _, wp := range d.WritePaths {
			if target == "victoriametrics" && wp != "remote-write" {
				continue // its import is TestRunOnEveryServer's
			}
			t.Run(target+"/"+wp, func(t *testing.T) {
				requireTargetServer(t, target)
				args := append([]string{"--target", target, "--loop", verifiedLoops, "--set", "target.write_path=" + wp,
					"--set", "DB_NAME=rw_e2e"}, noTextSet...)
				s, stdout := runVerified(t, args...)
				if len(s.Operations) != 11 || s.Environment.ServerVersion == "" || s.Failed() {
					t.Fatalf("%d operation rows, server version %q", len(s.Operations), s.Environment.ServerVersion)
				}
				if n := len(s.Verify.Queries); n != 50 || s.Verify.Mismatch() || !strings.Contains(stdout, "Query answers: 50 of 50 agree") {
					t.Fatalf("%d query checks, mismatch %v:\n%s", n, s.Verify.Mismatch(), tail(stdout, 12))
				}
				t.Logf("%s on %s: %s", wp, target, s.Environment.ServerVersion)
			})
		}
	}
}

// A write path a target does not offer is refused before the run, exit
// 2, naming the option and what the target takes.
func TestRemoteWritePathRefused(t *testing.T) {
	inParallel(t)
	for _, c := range []struct{ target, path, want string }{
		{"victoriametrics", "remote-write-v2", "import, remote-write"},
		{"thanos", "remote-write-v2", "remote-write"},
		{"prometheus", "import", "remote-write, remote-write-v2, otlp"},
		// OTLP is the prometheus workload's; a time series run refuses it.
		{"victoriametrics", "otlp", "write_path = otlp: not with WORKLOAD = timeseries"},
	} {
		r := tsbench(t, nil, "run", "--data-dir", t.TempDir(), "--target", c.target, "--set", "target.write_path="+c.path)
		if r.code != 2 || !strings.Contains(r.stderr, "target.write_path") || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s write_path=%s: exit %d\n%s", c.target, c.path, r.code, r.stderr)
		}
	}
}

// Freshness: a point is visible once the store acknowledged it (the
// stores answer from the head their append wrote), so the probe measures
// about a poll's latency, and the probe's own database leaves the run's
// count whole.
func TestRemoteWriteFreshness(t *testing.T) {
	testenv.Alone(t)
	for _, target := range promStores {
		t.Run(target, func(t *testing.T) {
			requireTargetServer(t, target)
			s, r := freshnessRun(t, t.TempDir(), append([]string{"--target", target, "--set", "DB_NAME=fresh_e2e"}, noTextSet...)...)
			f := s.Freshness
			if bound := 3*f.Polls.P99MS + 5; f.AfterAck.P50MS > bound {
				t.Errorf("acknowledged → visible p50 %.3f ms, want within 3 polls' p99 + 5 ms (%.3f ms)", f.AfterAck.P50MS, bound)
			}
			if s.Verify == nil || !s.Verify.OK {
				t.Errorf("verify %+v: the probe disturbed the run's count\n%s", s.Verify, r.stdout)
			}
		})
	}
}

// Killed 3 s into a run and restarted by its script's resume, each store
// replays its write-ahead log: what it acknowledged is there (a write the
// kill interrupted may have failed for good: exit 1), verified by the
// run's count. Each crash starts from a fresh server and leaves one, and
// writes recent data (START_TIME a minute ago, rows 1 ms apart): restarted
// on data years back written out of order, Prometheus and Mimir replay it
// into their in-order head, whose span then reaches back years, and
// compact those years one empty two-hour block at a time (Prometheus in
// the background, minutes of CPU; Mimir before it says it is ready,
// longer than a run waits).
func TestRemoteWriteCrash(t *testing.T) {
	testenv.AloneOn(t)
	for _, target := range promStores {
		t.Run(target, func(t *testing.T) {
			t.Parallel() // each store is killed and restarted alone
			testenv.HoldServer(t, target)
			requireTargetServer(t, target)
			svc := fault.Find(t, target)
			svc.Restart(t)       // no data years back from the tests before
			defer svc.Restart(t) // nor for the tests that follow
			fs := crashServer(target, addrOf(t, target), "crash_e2e")
			start := time.Now().Add(-time.Minute).UTC().Truncate(time.Second).Format(time.RFC3339)
			fs.shape = append(append([]string(nil), crashShape...), "START_TIME="+start, "POINT_STEP=1")
			s, r := crashRunOn(t, fs) // DOUBLE sensors only
			if r.code != 0 && r.code != 1 || s.Verify == nil || !s.Verify.OK || s.Verify.Lost != nil {
				t.Fatalf("exit %d, verify %+v\n%s", r.code, s.Verify, tail(r.stdout, 30))
			}
			t.Logf("%s: verify %+v", target, s.Verify)
		})
	}
}
