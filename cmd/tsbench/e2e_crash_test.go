package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/testenv/fault"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/workload"
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
	testenv.AloneOn(t, "postgres")
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
	testenv.AloneOn(t, "victoriametrics")
	requireTargetServer(t, "victoriametrics")
	fs := crashServer("victoriametrics", "127.0.0.1:8428", "crash_e2e")
	defer fault.Find(t, "victoriametrics").Restart(t) // fresh, for the tests that follow
	s, r := crashRunOn(t, fs)
	v := s.Verify
	if r.code != 3 || v == nil || v.OK || v.Lost == nil {
		t.Fatalf("exit %d, verify %+v\n%s", r.code, v, r.stdout)
	}
	if !strings.Contains(r.stdout, "Lost: ") || !strings.Contains(r.stdout, "acknowledged points the server does not hold") {
		t.Errorf("the console does not list the loss:\n%s", r.stdout)
	}
	conn, schema := fs.open(t)
	defer conn.Close()
	checkLossMap(t, v, conn, schema)
}

// checkLossMap checks a crash's loss map: its ranges add up to what the
// server lacks, and each of the first ranges, counted by the test itself,
// holds what its rows hold less what the map says is missing.
func checkLossMap(t *testing.T, v *summary.Verify, conn targets.Target, schema *ts.Schema) {
	t.Helper()
	l := v.Lost
	short := v.ExpectedPoints - v.StoredPoints
	var sum int64
	for _, rg := range l.Ranges {
		sum += rg.Points
	}
	if l.Points+l.Unresolved != short || sum != l.Points || l.Points == 0 {
		t.Fatalf("lost %+v: %d mapped + %d unresolved, ranges sum %d; expected − stored = %d", l, l.Points, l.Unresolved, sum, short)
	}
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

// A VictoriaMetrics the test started itself, with flags of its own, on a
// port of its own, and tsbench run from a directory with no service
// scripts (as an installed binary is): --crash kills it and starts it
// again from its own command line, directory and environment, with no
// CRASH_RESTART; the resources sampler follows the new process, and the
// points the server lost are mapped. A server of its own: it runs beside
// the other tests.
func TestCrashRestartsAServerStartedByHand(t *testing.T) {
	inParallel(t)
	vm, exe, port := startPrivateVM(t)
	fs := crashServer("victoriametrics", fmt.Sprintf("127.0.0.1:%d", port), "crash_by_hand")
	settings := fs.settings(fmt.Sprintf("PORT=%d", port))
	dir := t.TempDir()
	out := filepath.Join(dir, "crash.json")
	args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--rate", "300", "--duration", "8s",
		"--crash", "3s", "--no-check"}, setArgs(settings)...)
	r := runBinary(t, t.TempDir(), 3*time.Minute, nil, args...)
	s := readSummary(t, out)
	c := s.Crash
	if c == nil || c.Error != "" || c.PID != int32(vm.Process.Pid) || c.NewPID <= 0 || c.NewPID == c.PID ||
		!strings.Contains(c.RestartedBy, "/proc/") || !strings.HasPrefix(c.Restart, exe) {
		t.Fatalf("exit %d, crash %+v\n%s\n%s", r.code, c, r.stdout, r.stderr)
	}
	requireContains(t, r.stdout, "Crash: server ", "its own command line", fmt.Sprintf("as pid %d", c.NewPID))
	if res := s.Resources; res == nil || res.Server == nil || res.Server.PID != c.NewPID {
		t.Errorf("the resources sampler ends on %+v, want the restarted pid %d", res, c.NewPID)
	}
	v := s.Verify
	if r.code != 3 || v == nil || v.OK || v.Lost == nil {
		t.Fatalf("exit %d, verify %+v\n%s", r.code, v, r.stdout)
	}
	checkLossMapOnVM(t, v, port, "crash_by_hand", settings)
}

// startPrivateVM starts a VictoriaMetrics of the test's own, with flags of
// its own, on a free port, from the executable the project's script
// runs; it is killed when the test ends.
func startPrivateVM(t *testing.T) (vm *exec.Cmd, exe string, port int) {
	t.Helper()
	requireTargetServer(t, "victoriametrics")
	exe = fault.Find(t, "victoriametrics").Executable(t)
	port = testenv.FreePort(t)
	data := t.TempDir()
	logFile, err := os.Create(filepath.Join(data, "vm.log"))
	if err != nil {
		t.Fatal(err)
	}
	vm = exec.Command(exe, "-storageDataPath="+filepath.Join(data, "storage"), fmt.Sprintf("-httpListenAddr=127.0.0.1:%d", port),
		"-retentionPeriod=100y", "-search.disableCache", "-search.latencyOffset=0s")
	vm.Dir, vm.Stdout, vm.Stderr = data, logFile, logFile
	if err := vm.Start(); err != nil {
		t.Fatal(err)
	}
	logFile.Close()
	go vm.Wait() //nolint:errcheck // reaped when a crash kills it
	t.Cleanup(func() { stopListening(t, port) })
	waitPort(t, port, 30*time.Second)
	return vm, exe, port
}

// checkLossMapOnVM checks the loss map v against what the VictoriaMetrics
// on port holds of database db, written by a run of settings.
func checkLossMapOnVM(t *testing.T, v *summary.Verify, port int, db string, settings []string) {
	t.Helper()
	d, err := targets.Lookup("victoriametrics")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := d.Open(ctx, targets.Options{Database: db, Host: "127.0.0.1", Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	schema := workload.Schema(configFor(t, settings...))
	if b, ok := conn.(targets.Binder); ok {
		if err := b.Bind(ctx, schema); err != nil {
			t.Fatal(err)
		}
	}
	checkLossMap(t, v, conn, schema)
}

// A fault the user's command makes (CRASH_COMMAND), on a VictoriaMetrics
// the test started by hand on a port of its own, as a user's deployment
// the run did not start: the command kills it, the user's restart command
// starts it again, the run waits until it takes work again, and whatever
// it lost of the acknowledged points is mapped (exit 3) or nothing is
// (exit 0). A server of its own: it runs beside the other tests.
func TestCrashByCommand(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "victoriametrics")
	exe := fault.Find(t, "victoriametrics").Executable(t)
	port, data := testenv.FreePort(t), t.TempDir()
	start := fmt.Sprintf("%s -storageDataPath=%s -httpListenAddr=127.0.0.1:%d -retentionPeriod=100y -search.disableCache "+
		"-search.latencyOffset=0s >>%s 2>&1", exe, filepath.Join(data, "storage"), port, filepath.Join(data, "vm.log"))
	vm := exec.Command("sh", "-c", "exec "+start)
	if err := vm.Start(); err != nil {
		t.Fatal(err)
	}
	go vm.Wait() //nolint:errcheck // reaped when the command kills it
	t.Cleanup(func() { stopListening(t, port) })
	waitPort(t, port, 30*time.Second)

	fs := crashServer("victoriametrics", fmt.Sprintf("127.0.0.1:%d", port), "crash_by_command")
	settings := fs.settings(fmt.Sprintf("PORT=%d", port))
	dir := t.TempDir()
	out := filepath.Join(dir, "crash.json")
	kill := fmt.Sprintf("kill -9 %d", vm.Process.Pid)
	args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--rate", "300", "--duration", "8s",
		"--crash", "3s", "--crash-command", kill, "--crash-restart", start + " &", "--no-check"}, setArgs(settings)...)
	r := runBinary(t, t.TempDir(), 3*time.Minute, nil, args...)
	s := readSummary(t, out)
	c := s.Crash
	if c == nil || c.Error != "" || c.Command != kill || c.PID != 0 || c.BackAfterS <= 0 || c.RestartedBy != "CRASH_RESTART" {
		t.Fatalf("exit %d, crash %+v\n%s\n%s", r.code, c, r.stdout, r.stderr)
	}
	requireContains(t, r.stdout, "Crash: `"+kill+"` (CRASH_COMMAND) run at ", "taking work again ")
	v := s.Verify
	switch {
	case r.code == 0 && v != nil && v.OK:
		t.Logf("nothing lost: %+v", v)
	case r.code == 3 && v != nil && v.Lost != nil:
		checkLossMapOnVM(t, v, port, "crash_by_command", settings)
	default:
		t.Fatalf("exit %d, verify %+v\n%s", r.code, v, r.stdout)
	}
}

// A pause (CRASH_PAUSE) of a VictoriaMetrics of the test's own: stopped
// (SIGSTOP) 2 s into the run for 2 s, then let go on, not killed. The
// writes due meanwhile wait, none fails, the slowest waited about as long
// as the pause, nothing is restarted and nothing acknowledged is lost. A
// server of its own: it runs beside the other tests.
func TestCrashPause(t *testing.T) {
	inParallel(t)
	vm, s, r := runFaultOnPrivateVM(t, "--crash-pause")
	c := s.Crash
	if c.PID != int32(vm.Process.Pid) || c.PauseS != 2 || c.NewPID != 0 {
		t.Fatalf("crash %+v", c)
	}
	requireContains(t, r.stdout, fmt.Sprintf("Pause: server victoria-metrics (pid %d, ", c.PID), "for 2.0 s (SIGSTOP, then SIGCONT)")
}

// A partition (CRASH_PARTITION) between the run and a VictoriaMetrics of
// the test's own: 2 s into the run its connections, which go through
// tsbench's relay, pass nothing for 2 s. The server runs on (the same
// process, not stopped); the writes due meanwhile wait, none fails, the
// slowest waited about as long as the cut, and nothing acknowledged is
// lost. A server of its own: it runs beside the other tests.
func TestCrashPartition(t *testing.T) {
	inParallel(t)
	vm, s, r := runFaultOnPrivateVM(t, "--crash-partition")
	c := s.Crash
	addr := c.Server
	if c.PartitionS != 2 || c.PID != 0 || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("crash %+v", c)
	}
	requireContains(t, r.stdout, "Partition: the run's connections to "+addr+" cut off at ", "for 2.0 s (nothing relayed either way)")
	requireContains(t, r.stderr, "the run's connections go through a relay on 127.0.0.1:", " to "+addr+", which CRASH_PARTITION cuts")
	port, _ := strconv.Atoi(strings.TrimPrefix(addr, "127.0.0.1:"))
	if sp, err := monitor.FindServer("", "127.0.0.1", port, 0); err != nil || sp == nil || sp.PID != int32(vm.Process.Pid) {
		t.Errorf("the server on %s is %+v (%v), want the one started, pid %d", addr, sp, err, vm.Process.Pid)
	}
}

// runFaultOnPrivateVM runs 6 s of writes at 300 a second against a
// VictoriaMetrics of the test's own, with the fault flag's fault 2 s in
// for 2 s, and checks what every such fault leaves: exit 0, the fault
// done without an error and the server back after it, no write failed
// though the slowest waited through it, and nothing acknowledged lost.
func runFaultOnPrivateVM(t *testing.T, flag string) (*exec.Cmd, *summary.Summary, result) {
	t.Helper()
	vm, _, port := startPrivateVM(t)
	name := strings.ReplaceAll(strings.TrimPrefix(flag, "--"), "-", "_")
	fs := crashServer("victoriametrics", fmt.Sprintf("127.0.0.1:%d", port), name)
	dir := t.TempDir()
	out := filepath.Join(dir, name+".json")
	args := append([]string{"run", "--quiet", "--data-dir", dir, "--json", out, "--rate", "300", "--duration", "6s",
		"--crash", "2s", flag, "2s", "--no-check"}, setArgs(fs.settings(fmt.Sprintf("PORT=%d", port)))...)
	r := runBinary(t, t.TempDir(), 3*time.Minute, nil, args...)
	s := readSummary(t, out)
	c := s.Crash
	if r.code != 0 || c == nil || c.Error != "" || c.BackAfterS < 2 || s.Verify == nil || !s.Verify.OK || s.Verify.Lost != nil {
		t.Fatalf("exit %d, crash %+v, verify %+v\n%s\n%s", r.code, c, s.Verify, r.stdout, r.stderr)
	}
	w := s.Op("INGESTION")
	if w == nil || w.FailOperations != 0 || w.LatencyMS.Max < 1500 {
		t.Fatalf("writes across a 2 s %s: %+v", flag, w)
	}
	t.Logf("%s at %.2f s, back %.2f s later; %d writes, p99 %.0f ms, max %.0f ms; %d points verified",
		flag, c.KilledAtS, c.BackAfterS, w.OKOperations, w.LatencyMS.P99, w.LatencyMS.Max, s.Verify.StoredPoints)
	return vm, s, r
}

// A crash needs a server of the target's own on this machine, or a fault
// command of the user's; the fault command needs the crash.
func TestCrashRefusals(t *testing.T) {
	inParallel(t)
	for _, c := range []struct{ args, want []string }{
		{[]string{"--target", "sqlite", "--crash", "2s"}, []string{"CRASH_AT", "no server of its own"}},
		{[]string{"--target", "postgres", "--set", "HOST=10.0.0.1", "--crash", "2s"}, []string{"CRASH_AT", "10.0.0.1", "--crash-command"}},
		{[]string{"--target", "postgres", "--crash-command", "true"}, []string{"CRASH_COMMAND", "CRASH_AT (--crash)"}},
		{[]string{"--target", "postgres", "--duration", "5s", "--crash", "9s"}, []string{"CRASH_AT", "before its end"}},
		{[]string{"--target", "postgres", "--crash-pause", "2s"}, []string{"CRASH_PAUSE", "CRASH_AT (--crash)"}},
		{[]string{"--target", "postgres", "--crash", "2s", "--crash-pause", "2s", "--crash-restart", "true"},
			[]string{"CRASH_RESTART = true: not with CRASH_PAUSE = 2s", "goes on where it stopped"}},
		{[]string{"--target", "postgres", "--crash", "2s", "--crash-partition", "2s", "--crash-pause", "1s"},
			[]string{"CRASH_PAUSE = 1s: not with CRASH_PARTITION = 2s", "one fault"}},
		{[]string{"--target", "postgres", "--set", "HOST=127.0.0.1,127.0.0.2", "--crash", "2s", "--crash-partition", "2s"},
			[]string{"CRASH_PARTITION = 2s with several servers"}},
		{[]string{"--target", "postgres", "--workload", "tpcc", "--crash", "2s", "--crash-partition", "2s"},
			[]string{"CRASH_PARTITION = 2s: not with WORKLOAD = tpcc"}},
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

// waitPort waits until something accepts connections on 127.0.0.1:port.
func waitPort(t *testing.T, port int, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing accepts connections on 127.0.0.1:%d after %v", port, limit)
		}
	}
}

// stopListening kills whatever listens on 127.0.0.1:port (a server a test
// started, or its restarted successor) and waits until it is gone.
func stopListening(t *testing.T, port int) {
	sp, err := monitor.FindServer("", "127.0.0.1", port, 0)
	if err != nil || sp == nil {
		return
	}
	_ = syscall.Kill(int(sp.PID), syscall.SIGKILL)
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(int(sp.PID), 0) == nil && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
}
