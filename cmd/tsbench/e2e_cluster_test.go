package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
)

// ringShape is the data of a run against a three-node ring: 2 clients a
// node, writes only, 150 of 100 rows each at 200 a second (about 4.5 s),
// retried through a node's outage.
var ringShape = []string{"DEVICE_NUMBER=12", "CLIENT_NUMBER=6", "SENSOR_NUMBER=10", "BATCH_SIZE_PER_WRITE=100",
	"OPERATION_PROPORTION=1", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0", "RETRIES=8", "WRITE_OPERATION_TIMEOUT_MS=20000"}

// A Thanos Receive ring with a replication factor of 3 promises that one
// node lost, by a kill or a partition, loses no acknowledged sample and
// leaves every answer complete. The run hits the node CRASH_NODE names
// (the kill finds the process listening at that node's address, not the
// other nodes' on the same port), the clients of the other nodes run on,
// verification counts through node 1's Query, and the answers are checked
// after: a kill of node 3 restarted as it ran, then node 2 cut off from
// every other address for 2 s by the ring's own script (a fault given as a
// command).
func TestClusterThanosRingFaults(t *testing.T) {
	inParallel(t)
	ring := testenv.StartThanosRing(t, "127.0.0.12", "127.0.0.13", "127.0.0.14")
	hosts := strings.Join(ring.Hosts, ",")
	run := func(t *testing.T, db string, fault ...string) (*summary.Summary, result) {
		dir := t.TempDir()
		out := filepath.Join(dir, "ring.json")
		args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--target", "thanos",
			"--set", "HOST=" + hosts, "--set", "target.query_port=" + strconv.Itoa(testenv.ThanosQueryPort),
			"--set", "DB_NAME=" + db, "--rate", "200", "--loop", "150", "--crash", "1s", "--resources=false"},
			append(setArgs(ringShape), fault...)...)
		r := tsbench(t, nil, args...)
		if _, err := os.Stat(out); err != nil {
			t.Fatalf("exit %d, no summary: %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
		}
		s := readSummary(t, out)
		if s.Crash == nil || s.Crash.Error != "" || len(s.Hosts) != 3 {
			t.Fatalf("exit %d: crash %+v, hosts %+v\n%s\n%s", r.code, s.Crash, s.Hosts, r.stdout, r.stderr)
		}
		keptItsPromise(t, s, r)
		return s, r
	}
	t.Run("kill", func(t *testing.T) {
		s, r := run(t, "ring_kill", "--crash-node", "3")
		c, node3 := s.Crash, ring.Hosts[2]+":"+strconv.Itoa(testenv.ThanosWritePort)
		if c.Node != "3 of 3" || c.Server != node3 || c.PID == 0 || c.NewPID == 0 || c.NewPID == c.PID ||
			!strings.Contains(c.Restart, "--remote-write.address="+node3+" ") {
			t.Errorf("crash %+v: want node 3's Receive (%s) killed and restarted", c, node3)
		}
		if !strings.Contains(r.stdout, "Fault on node 3 of 3 ("+node3+")") {
			t.Errorf("the console does not name the node:\n%s", r.stdout)
		}
	})
	t.Run("partition", func(t *testing.T) {
		testenv.RequireOwnNamespace(t)
		s, _ := run(t, "ring_partition", "--crash-node", "2", "--crash-command", ring.Command("partition 2"),
			"--crash-restart", ring.Command("heal 2"), "--set", "CRASH_DOWN=2s")
		if c := s.Crash; c.Node != "2 of 3" || c.Found != "CRASH_COMMAND" || c.BackAfterS < 2 {
			t.Errorf("crash %+v: want node 2 cut off by the command for 2 s", c)
		}
	})
}

// answersRight checks, for a run where no write failed for good and
// nothing was lost, that its answers were checked after the fault and
// every one was right (a run with failed writes has no expected answers:
// a device's stored rows may not be its first ones).
func answersRight(t *testing.T, s *summary.Summary, r result) {
	t.Helper()
	v, op := s.Verify, s.Op("INGESTION")
	if v == nil || op == nil || op.FailOperations > 0 || v.Lost != nil {
		return
	}
	if len(v.Queries) == 0 {
		t.Errorf("exit %d: no answer checked after the fault (%s)\n%s", r.code, v.QueriesSkipped, r.stdout)
	}
	for _, q := range v.Queries {
		if !q.OK {
			t.Errorf("answer %+v wrong after the fault", q)
		}
	}
}

// keptItsPromise checks what a ring of replication factor 3 promises
// when one node fails: every acknowledged point stored, none lost, and
// every answer checked after the run right when no write failed for good.
func keptItsPromise(t *testing.T, s *summary.Summary, r result) {
	t.Helper()
	v := s.Verify
	if v == nil || !v.OK || v.Lost != nil || v.StoredPoints == 0 {
		t.Fatalf("exit %d: verify %+v: a ring of 3 replicas lost acknowledged points\n%s", r.code, v, r.stdout)
	}
	failed := int64(0)
	for _, h := range s.Hosts {
		failed += h.FailedOperations
	}
	switch {
	case failed == 0 && r.code != 0:
		t.Errorf("exit %d with no write failed: want 0\n%s", r.code, r.stdout)
	case failed > 0 && r.code != 1:
		t.Errorf("exit %d with %d writes failed for good: want 1\n%s", r.code, failed, r.stdout)
	}
	answersRight(t, s, r)
	t.Logf("%s: %d points stored of %d acknowledged, %d writes failed for good, %d answers checked; back after %.1f s",
		s.Crash.Node, v.StoredPoints, v.ExpectedPoints, failed, len(v.Queries), s.Crash.BackAfterS)
}
