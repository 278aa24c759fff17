package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
)

// freshnessRun runs a 4 s open-model write workload with the freshness
// probe and returns its summary.
func freshnessRun(t *testing.T, dir string, args ...string) (*summary.Summary, result) {
	t.Helper()
	out := filepath.Join(dir, "fresh.json")
	args = append([]string{"run", "--data-dir", dir, "--freshness", "--rate", "100", "--duration", "4s",
		"--clients", "2", "--devices", "2", "--sensors", "4", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0",
		"--set", "FRESHNESS_RATE=20", "--json", out}, args...)
	r := tsbench(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, out)
	f := s.Freshness
	if f == nil || f.Written < 60 || f.Visible != f.Written || f.Unseen != 0 || f.FailedWrites != 0 || f.PollErrors != 0 {
		t.Fatalf("freshness %+v\n%s", f, r.stdout)
	}
	t.Logf("ack→visible p50 %.3f p99 %.3f max %.3f ms; send→visible p50 %.3f ms; poll p50 %.3f p99 %.3f ms; %d points",
		f.AfterAck.P50MS, f.AfterAck.P99MS, f.AfterAck.MaxMS, f.AfterSend.P50MS, f.Polls.P50MS, f.Polls.P99MS, f.Written)
	if !strings.Contains(r.stdout, "Freshness (a probe of 20 writes/s in ") || !strings.Contains(r.stdout, "acknowledged → visible: p50 ") {
		t.Errorf("the console does not tell the freshness:\n%s", r.stdout)
	}
	return s, r
}

// Freshness measures a server that shows each point a known 500 ms after
// acknowledging it (the null target's visible_after) at 500 ms, within
// 10 %, and the stored run's report has it.
func TestFreshnessOfAKnownDelay(t *testing.T) {
	testenv.Alone(t)
	dir := t.TempDir()
	s, _ := freshnessRun(t, dir, "--target", "null", "--set", "target.visible_after=500ms", "--set", "FRESHNESS_POLL=1ms")
	f := s.Freshness
	for name, v := range map[string]float64{"p50": f.AfterAck.P50MS, "p99": f.AfterAck.P99MS} {
		if v < 500 || v > 550 {
			t.Errorf("acknowledged → visible %s %.1f ms, want 500 ms within 10 %%", name, v)
		}
	}
	if !strings.Contains(reportPage(t, dir, s.RunID), `id="freshness-table"`) {
		t.Error("the stored run's report has no freshness table")
	}
}

// On PostgreSQL a point is visible once its INSERT is acknowledged: the
// freshness is about a poll's own latency (a poll in flight finishes,
// the next one sees it), and the probe's own database leaves the run's
// verified count untouched. The bound is loose on purpose (a few polls'
// p99 and 5 ms of scheduling slack on a busy two-core machine): it catches
// a probe that waits or counts from the wrong moment, not jitter.
func TestFreshnessOnPostgres(t *testing.T) {
	testenv.Alone(t)
	requireTargetServer(t, "postgres")
	s, r := freshnessRun(t, t.TempDir(), "--target", "postgres", "--set", "DB_NAME=fresh_e2e")
	f := s.Freshness
	if bound := 3*f.Polls.P99MS + 5; f.AfterAck.P50MS > bound {
		t.Errorf("acknowledged → visible p50 %.3f ms on PostgreSQL, want within 3 polls' p99 + 5 ms (%.3f ms)", f.AfterAck.P50MS, bound)
	}
	if f.Database != "fresh_e2e_freshness" {
		t.Errorf("the probe wrote to %q, want a database of its own", f.Database)
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Errorf("verify %+v: the probe disturbed the run's count\n%s", s.Verify, r.stdout)
	}
}
