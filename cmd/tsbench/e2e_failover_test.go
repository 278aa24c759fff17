package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// A PostgreSQL primary killed mid-run and its standby promoted: the run
// follows the database to the standby (target_session_attrs=read-write),
// says so on its Crash line, and verifies what it was acknowledged on the
// promoted node. A synchronous standby had every commit before it was
// acknowledged, so nothing is lost; an asynchronous one may lag, and the
// run reports what it lost (0 included), by device and time, with exit 3
// when there is a loss.
func TestFailoverPostgresPair(t *testing.T) {
	for _, mode := range []struct {
		name        string
		synchronous bool
	}{{"synchronous", true}, {"asynchronous", false}} {
		t.Run(mode.name, func(t *testing.T) {
			inParallel(t)
			pair := testenv.StartPostgresPair(t, mode.synchronous)
			dir := t.TempDir()
			out := filepath.Join(dir, "failover.json")
			promote := pair.Command("promote")
			args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--target", "postgres",
				"--target-url", pair.URL(), "--rate", "200", "--loop", "120", "--crash", "2s", "--crash-restart", promote,
				"--resources=false"}, setArgs(crashShape)...)
			r := tsbench(t, nil, args...)
			s := readSummary(t, out)
			standby := "127.0.0.1:" + strconv.Itoa(pair.Standby)
			c := s.Crash
			if c == nil || c.Error != "" || c.FailedOverTo != standby || c.NewPID == 0 || c.NewPID == c.PID {
				t.Fatalf("crash %+v: want the standby %s promoted\n%s\n%s", c, standby, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "failed over to "+standby) ||
				!strings.Contains(r.stderr, "one database on 2 nodes (target_session_attrs=read-write)") {
				t.Errorf("the output does not tell the failover:\n%s\n%s", r.stdout, r.stderr)
			}
			v := s.Verify
			if v == nil || s.Op("INGESTION") == nil || s.Op("INGESTION").OKOperations == 0 {
				t.Fatalf("exit %d: nothing written or verified: verify %+v\n%s", r.code, v, r.stdout)
			}
			t.Logf("killed pid %d at %.1f s, promoted %s in %.1f s, taking writes %.1f s after the kill; exit %d, verify OK %v, lost %+v",
				c.PID, c.KilledAtS, standby, c.RestartS, c.BackAfterS, r.code, v.OK, v.Lost)
			switch {
			case mode.synchronous && (r.code != 0 && r.code != 1 || !v.OK || v.Lost != nil):
				t.Errorf("a synchronous standby lost acknowledged points: exit %d, verify %+v\n%s", r.code, v, r.stdout)
			case !mode.synchronous && v.Lost != nil && (r.code != 3 || !strings.Contains(r.stdout, "Lost: ")):
				t.Errorf("an asynchronous standby's loss %+v not reported: exit %d\n%s", v.Lost, r.code, r.stdout)
			case !mode.synchronous && v.Lost == nil && (r.code != 0 && r.code != 1 || !v.OK):
				t.Errorf("exit %d, verify %+v\n%s", r.code, v, r.stdout)
			}
			answersRight(t, s, r)
		})
	}
}

// A synchronous pair's primary cut off for 2 s, from the clients and from
// its standby, by the pair's own script (a fault given as a command): its
// address unreachable, so the clients' writes and the standby's stream
// wait, and no commit returns without the standby. After the heal the
// writes go on on the same primary, every acknowledged point is there,
// and the answers checked after the heal are right.
func TestPartitionPostgresPair(t *testing.T) {
	inParallel(t)
	testenv.RequireOwnNamespace(t)
	pair := testenv.StartPostgresPair(t, true, "127.0.0.22", "127.0.0.23")
	dir := t.TempDir()
	out := filepath.Join(dir, "partition.json")
	args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--target", "postgres",
		"--target-url", pair.URL(), "--rate", "200", "--loop", "120", "--crash", "2s",
		"--crash-command", pair.Command("partition primary"), "--crash-restart", pair.Command("heal primary"),
		"--set", "CRASH_DOWN=2s", "--resources=false"}, setArgs(crashShape)...)
	r := tsbench(t, nil, args...)
	s := readSummary(t, out)
	c, primary := s.Crash, pair.PrimaryHost+":"+strconv.Itoa(pair.Primary)
	if c == nil || c.Error != "" || c.Found != "CRASH_COMMAND" || c.BackAfterS < 2 || c.FailedOverTo != "" {
		t.Fatalf("crash %+v: want the primary %s cut off for 2 s and back\n%s\n%s", c, primary, r.stdout, r.stderr)
	}
	v := s.Verify
	if r.code != 0 && r.code != 1 || v == nil || !v.OK || v.Lost != nil || v.StoredPoints == 0 {
		t.Fatalf("exit %d, verify %+v: a synchronous pair lost acknowledged points to a partition\n%s", r.code, v, r.stdout)
	}
	answersRight(t, s, r)
	t.Logf("primary %s cut off at %.1f s, taking writes %.1f s after; %d points stored of %d acknowledged, %d answers checked, exit %d",
		primary, c.KilledAtS, c.BackAfterS, v.StoredPoints, v.ExpectedPoints, len(v.Queries), r.code)
}
