package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv/fault"
	"github.com/tsbench/tsbench/internal/ts"
)

// crashShape is the data of a crash run: 8 devices of 10 DOUBLE sensors,
// 100 rows a write, 300 writes a second for 8 s, the server killed at 3 s.
var crashShape = []string{"DEVICE_NUMBER=8", "CLIENT_NUMBER=4", "SENSOR_NUMBER=10", "BATCH_SIZE_PER_WRITE=100",
	"OPERATION_PROPORTION=1", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0", "RETRIES=8", "WRITE_OPERATION_TIMEOUT_MS=20000"}

// crashRunOn runs the crash on target (service script svc) and returns
// the run's summary and output.
func crashRunOn(t *testing.T, fs *faultServer) (*summary.Summary, result) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "crash.json")
	restart := "bash " + fault.Find(t, fs.service).Script() + " resume"
	args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--rate", "300", "--duration", "8s",
		"--crash", "3s", "--crash-restart", restart, "--resources=false", "--no-check"}, setArgs(fs.settings())...)
	r := tsbench(t, nil, args...)
	s := readSummary(t, out)
	c := s.Crash
	if c == nil || c.Error != "" || c.PID == 0 || c.KilledAtS < 2.9 || c.KilledAtS > 4 || c.BackAfterS <= 0 || !strings.Contains(c.Found, "port") {
		t.Fatalf("crash %+v\n%s\n%s", c, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Crash: server ") || !strings.Contains(r.stdout, "restarted by `"+restart+"`") {
		t.Errorf("the console does not tell the crash:\n%s", r.stdout)
	}
	t.Logf("killed pid %d (%s) at %.1f s, back after %.1f s; verify %+v", c.PID, c.Process, c.KilledAtS, c.BackAfterS, s.Verify)
	return s, r
}

func crashServer(target, addr, db string) *faultServer {
	return &faultServer{target: target, service: target, addr: addr, db: db, shape: crashShape}
}

// A server killed mid-run that keeps what it acknowledged (PostgreSQL,
// its WAL fsynced at commit) loses nothing: the run verifies OK and maps
// no loss. Writes sent while it was down may have failed for good (exit 1).
func TestCrashPostgresLosesNothing(t *testing.T) {
	requireTargetServer(t, "postgres")
	fs := crashServer("postgres", "127.0.0.1:5433", "crash_e2e")
	s, r := crashRunOn(t, fs)
	if r.code != 0 && r.code != 1 || s.Verify == nil || !s.Verify.OK || s.Verify.Lost != nil {
		t.Fatalf("exit %d, verify %+v\n%s", r.code, s.Verify, r.stdout)
	}
}

// VictoriaMetrics keeps recent points in memory and flushes them every few
// seconds: killed 3 s into the run it loses acknowledged points. The run
// says how many and where, exits 3, and its map is checked against the
// server by the test's own counts.
func TestCrashVictoriaMetricsLossIsMapped(t *testing.T) {
	requireTargetServer(t, "victoriametrics")
	fs := crashServer("victoriametrics", "127.0.0.1:8428", "crash_e2e")
	defer fault.Find(t, "victoriametrics").Restart(t) // fresh, for the tests that follow
	s, r := crashRunOn(t, fs)
	v := s.Verify
	if r.code != 3 || v == nil || v.OK || v.Lost == nil {
		t.Fatalf("exit %d, verify %+v\n%s", r.code, v, r.stdout)
	}
	l := v.Lost
	short := v.ExpectedPoints - v.StoredPoints
	var sum int64
	for _, rg := range l.Ranges {
		sum += rg.Points
	}
	if l.Points+l.Unresolved != short || sum != l.Points || l.Points == 0 {
		t.Fatalf("lost %+v: %d mapped + %d unresolved, ranges sum %d; expected − stored = %d", l, l.Points, l.Unresolved, sum, short)
	}
	if !strings.Contains(r.stdout, "Lost: ") || !strings.Contains(r.stdout, "acknowledged points the server does not hold") {
		t.Errorf("the console does not list the loss:\n%s", r.stdout)
	}
	// Each mapped range, counted by the test: what it holds is what the
	// range's rows hold less what the map says is missing.
	conn, schema := fs.open(t)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sensors := int64(len(schema.Sensors))
	for _, rg := range l.Ranges[:min(len(l.Ranges), 5)] {
		var dev *ts.Device
		for i := range schema.Devices {
			if schema.Devices[i].Name == rg.Device {
				dev = &schema.Devices[i]
			}
		}
		if dev == nil {
			t.Fatalf("range of unknown device %q", rg.Device)
		}
		n, err := conn.Count(ctx, ts.CountRange{Devices: []*ts.Device{dev}, Start: rg.From, End: rg.To})
		if err != nil {
			t.Fatal(err)
		}
		if want := (rg.ToRow-rg.FromRow)*sensors - rg.Points; n != want {
			t.Errorf("range %+v: the server holds %d points, the map says %d", rg, n, want)
		}
	}
	t.Logf("lost %d of %d acknowledged points in %d ranges; first %+v", l.Points, v.ExpectedPoints, len(l.Ranges), l.Ranges[0])
}

// A crash needs a server of the target's own on this machine.
func TestCrashRefusals(t *testing.T) {
	for _, c := range []struct{ args, want []string }{
		{[]string{"--target", "sqlite", "--crash", "2s"}, []string{"CRASH_AT", "no server of its own"}},
		{[]string{"--target", "postgres", "--set", "HOST=10.0.0.1", "--crash", "2s"}, []string{"CRASH_AT", "10.0.0.1"}},
		{[]string{"--target", "postgres", "--duration", "5s", "--crash", "9s"}, []string{"CRASH_AT", "before its end"}},
	} {
		r := tsbench(t, nil, append([]string{"run", "--data-dir", t.TempDir()}, c.args...)...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", c.args, r.code, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, r.stderr)
			}
		}
	}
}
