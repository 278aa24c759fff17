package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/disk"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/sysinfo"
	"github.com/tsbench/tsbench/internal/testenv"
)

func requireLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("resource sampling is tested on Linux")
	}
}

// spin burns CPU for d.
func spin(d time.Duration) {
	end := time.Now().Add(d)
	x := 0
	for time.Now().Before(end) {
		for i := 0; i < 100000; i++ {
			x += i ^ x
		}
	}
	_ = x
}

// startChild starts a sleep below this process, which then has a tree as a
// server has, until the test ends.
func startChild(tb testing.TB) {
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { child.Process.Kill(); child.Wait() })
}

func TestSamplerRates(t *testing.T) {
	requireLinux(t)
	startChild(t)
	s := NewSampler(Options{Host: true, Tool: true, Server: int32(os.Getpid())})
	ctx := context.Background()
	// The sampler reads its CPU counters somewhere inside Sample, so each
	// of its readings is bracketed by getrusage before and after the call.
	t0 := time.Now()
	before0 := sysinfo.SelfUsage()
	first := s.Sample(ctx, t0)
	after0 := sysinfo.SelfUsage()
	if first.Tool == nil || first.Tool.CPUPercent != 0 || first.Host == nil || first.Host.MemTotalBytes == 0 || first.Tool.RSSBytes == 0 {
		t.Fatalf("baseline sample %+v", first)
	}
	// Burn at least 300 ms of CPU (however busy the machine is), so that
	// the clock-tick resolution of /proc stays a small part of it.
	for w0 := time.Now(); sysinfo.CPUSince(after0) < 0.3 && time.Since(w0) < 10*time.Second; {
		spin(20 * time.Millisecond)
	}
	now := time.Now()
	before1 := sysinfo.SelfUsage()
	second := s.Sample(ctx, now)
	after1 := sysinfo.SelfUsage()
	// /proc/PID/stat gives user and system time in whole clock ticks
	// (10 ms each), truncated separately: a difference of two readings
	// may be off by up to two ticks either way.
	const slack = 0.02
	dt := now.Sub(t0).Seconds()
	lo := before1.CPUSeconds - after0.CPUSeconds - slack
	hi := after1.CPUSeconds - before0.CPUSeconds + slack
	if got := second.Tool.CPUPercent * dt / 100; got < lo || got > hi {
		t.Errorf("tool CPU %.3f s over %.3f s, getrusage brackets it in [%.3f, %.3f] s", got, dt, lo, hi)
	}
	if second.Host.CPUPercent <= 0 || second.Host.CPUPercent > 100 || second.Host.Cores < 1 {
		t.Errorf("host %+v", second.Host)
	}
	// The "server" here is this process: it has the sleep child below it,
	// which adds no CPU of its own.
	if second.Server == nil || second.Server.Processes < 2 || second.Server.CPUPercent*dt/100 < lo || second.Server.CPUPercent*dt/100 > hi {
		t.Errorf("server tree %+v", second.Server)
	}
	if len(s.Errors()) != 0 {
		t.Errorf("errors %v", s.Errors())
	}
}

func TestSumDisksSkipsPartitions(t *testing.T) {
	io := map[string]disk.IOCountersStat{
		"sda": {ReadBytes: 100, WriteBytes: 10}, "sda1": {ReadBytes: 60, WriteBytes: 6}, "nvme0n1": {ReadBytes: 5},
		"nvme0n1p2": {ReadBytes: 5}, "loop0": {ReadBytes: 1000}, "dm-0": {WriteBytes: 7}, "vdb": {WriteBytes: 1},
	}
	if r, w := sumDisks(io); r != 105 || w != 11 {
		t.Errorf("sumDisks = %d, %d; want 105, 11", r, w)
	}
}

func TestRecorder(t *testing.T) {
	requireLinux(t)
	rec := NewRecorder(&summary.ServerProcess{PID: int32(os.Getpid()), Name: "self", Source: "test"})
	var live []summary.ResourceSample
	rec.OnSample = testenv.InSequence(t, "sample", &live)
	start := time.Now()
	rec.Start(start)
	for i := 1; i <= 3; i++ {
		u0 := sysinfo.SelfUsage()
		for sysinfo.CPUSince(u0) < 0.03 {
			spin(10 * time.Millisecond)
		}
		rec.Tick(time.Now())
		time.Sleep(20 * time.Millisecond)
	}
	rec.Tick(time.Now()) // may be dropped or taken; never blocks
	res := rec.Stop(time.Now())
	rec.Tick(time.Now()) // after Stop: ignored
	if res == nil || len(res.Samples) < 3 || res.Server == nil || res.Server.Name != "self" {
		t.Fatalf("resources %+v", res)
	}
	prev := 0.0
	for _, s := range res.Samples {
		if s.T <= prev || s.Tool == nil || s.Host == nil || s.Server == nil {
			t.Fatalf("sample %+v after t=%v", s, prev)
		}
		prev = s.T
	}
	// Every sample the loop took was handed over as it was kept; only the
	// last one, taken by Stop, comes with the result alone.
	if len(live) < 2 || len(live) > len(res.Samples) {
		t.Fatalf("%d samples handed over live, %d kept", len(live), len(res.Samples))
	}
	for i := range live {
		if !live[i].Time.Equal(res.Samples[i].Time) || *live[i].Tool != *res.Samples[i].Tool {
			t.Errorf("sample %d: live %+v, kept %+v", i, live[i], res.Samples[i])
		}
	}
	if res.Samples[0].Tool.CPUPercent <= 0 {
		t.Errorf("first kept sample has no CPU rate: %+v", res.Samples[0].Tool)
	}
	if r := (&Recorder{}).Stop(time.Now()); r != nil {
		t.Errorf("Stop without Start: %+v", r)
	}
}

func TestFindServer(t *testing.T) {
	requireLinux(t)
	dir := t.TempDir()
	t.Setenv("TSBENCH_SERVICES_DIR", dir)
	self := int32(os.Getpid())
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "pid"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("postgres", strconv.Itoa(int(self))+"\n")
	write("mariadb", strconv.Itoa(int(self)))
	write("questdb", "999999999") // stale
	// The case: the service script's pid file names another live
	// process (pid 1) than the one listening on the target's port.
	write("victoriametrics", "1")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	freePort := testenv.FreePort(t) // a port nobody listens on
	// A listener on IPv6's loopback alone is in the kernel's other table.
	ln6, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Fatalf("listen on [::1]: %v", err)
	}
	defer ln6.Close()
	port6 := ln6.Addr().(*net.TCPAddr).Port

	listening := fmt.Sprintf("listening on port %d", port)
	pgFile := filepath.Join(dir, "postgres", "pid")
	tests := []struct {
		name, service, host string
		port                int
		pid                 int32
		wantPID             int32  // 0: nil
		wantSource          string // checked as a suffix
		wantErr             bool
	}{
		{name: "listener", service: "nosuchservice", host: "127.0.0.1", port: port, wantPID: self, wantSource: listening},
		{name: "IPv6 listener", service: "nosuchservice", host: "::1", port: port6, wantPID: self,
			wantSource: fmt.Sprintf("listening on port %d", port6)},
		{name: "listener before pid file", service: "victoriametrics", host: "localhost", port: port, wantPID: self, wantSource: listening},
		{name: "no listener: pid file", service: "postgres", host: "127.0.0.1", port: freePort, wantPID: self, wantSource: pgFile},
		{name: "no port: pid file", service: "postgres", host: "127.0.0.1", wantPID: self, wantSource: pgFile},
		{name: "a service named apart from its target (mysql)", service: "mariadb", port: freePort, wantPID: self, wantSource: "mariadb/pid"},
		{name: "no listener, no pid file", service: "nosuchservice", host: "127.0.0.1", port: freePort},
		{name: "stale pid file", service: "questdb"},
		{name: "no service (embedded)", service: ""},
		{name: "remote host", service: "postgres", host: "db.example.com", port: port},
		{name: "--server-pid", service: "sqlite", port: port, pid: self, wantPID: self, wantSource: "--server-pid"},
		{name: "--server-pid of no process", service: "sqlite", pid: 999999999, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := FindServer(tc.service, tc.host, tc.port, tc.pid)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if tc.wantPID == 0 {
				if sp != nil {
					t.Errorf("got %+v, want nil", sp)
				}
				return
			}
			if sp == nil || sp.PID != tc.wantPID || !strings.HasSuffix(sp.Source, tc.wantSource) {
				t.Errorf("got %+v, want pid %d from %q", sp, tc.wantPID, tc.wantSource)
			}
		})
	}
}

func TestRunWritesLinesAndMerge(t *testing.T) {
	requireLinux(t)
	var buf bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 750*time.Millisecond)
	defer cancel()
	n, err := Run(ctx, Options{Host: true}, 200*time.Millisecond, JSONLines(&buf))
	if err != nil || n < 2 {
		t.Fatalf("Run: %d samples, %v", n, err)
	}
	host, _ := os.Hostname()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var s summary.ResourceSample
	if err := json.Unmarshal([]byte(lines[0]), &s); err != nil || s.Hostname != host || s.Host == nil || s.Tool != nil {
		t.Fatalf("line %q: %v", lines[0], err)
	}

	// A torn last line (the monitor was killed) is ignored; a bad line in
	// the middle is an error.
	path := filepath.Join(t.TempDir(), "m.jsonl")
	os.WriteFile(path, []byte(buf.String()+`{"time":"2026-`), 0o644)
	got, err := ReadFile(path)
	if err != nil || len(got) != n {
		t.Fatalf("ReadFile: %d samples, %v", len(got), err)
	}
	os.WriteFile(path, []byte("garbage\n"+buf.String()), 0o644)
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("bad first line: %v", err)
	}

	// Merge keeps the samples within the measured phase (a second either
	// side) and counts their time from its start.
	start := got[0].Time.Add(-100 * time.Millisecond)
	run := &summary.Summary{MeasureStarted: start, Elapsed: 0.15}
	if k := Merge(run, got); k == 0 || k == n && got[n-1].Time.Sub(start) > 1150*time.Millisecond {
		t.Errorf("merged %d of %d", k, n)
	}
	if run.Resources == nil || run.Resources.Remote[0].T < 0 || run.Resources.Remote[0].Hostname != host {
		t.Errorf("merged %+v", run.Resources)
	}
	// The same samples again (from the store and a file both) add nothing.
	before := len(run.Resources.Remote)
	if k := Merge(run, got); k != 0 || len(run.Resources.Remote) != before {
		t.Errorf("merging the same samples again added %d", k)
	}
	if k := Merge(&summary.Summary{MeasureStarted: start.Add(time.Hour), Elapsed: 1}, got); k != 0 {
		t.Errorf("merged %d samples from another time", k)
	}
	if k := Merge(&summary.Summary{}, got); k != 0 {
		t.Errorf("merged %d samples into a run without a start", k)
	}
}

// TestDescendantsBothWays builds a tree of three processes below a shell
// and finds it through the kernel's child lists and through every
// process's parent: both must name the same three.
func TestDescendantsBothWays(t *testing.T) {
	requireLinux(t)
	if !haveChildLists() {
		t.Fatal("this kernel keeps no /proc/PID/task/TID/children lists; the test needs them to compare")
	}
	sh := exec.Command("sh", "-c", `sleep 30 & sh -c "sleep 30 & wait" & wait`)
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // one group, killed whole
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { syscall.Kill(-sh.Process.Pid, syscall.SIGKILL); sh.Wait() }()
	root := int32(sh.Process.Pid)
	ctx := context.Background()
	var scanned []int32
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if scanned = scanParents(ctx, root); len(scanned) == 3 {
			break
		}
	}
	if len(scanned) != 3 {
		t.Fatalf("scanning parents found %v below %d, want 3 processes", scanned, root)
	}
	listed, ok := childLists(root)
	slices.Sort(scanned)
	slices.Sort(listed)
	if !ok || !slices.Equal(listed, scanned) {
		t.Errorf("child lists found %v (ok %v), scanning parents %v", listed, ok, scanned)
	}
	if got := descendants(ctx, root); !slices.Equal(got, scanned) {
		t.Errorf("descendants = %v, want %v", got, scanned)
	}
	if got, _ := childLists(1 << 30); len(got) != 0 {
		t.Errorf("a pid that does not exist has descendants %v", got)
	}
}

// BenchmarkSample is one sample of the host, the tool and a server (this
// process with a child), as the recorder takes once a second:
// go test -run '^$' -bench Sample -benchmem ./internal/monitor
func BenchmarkSample(b *testing.B) {
	startChild(b)
	s := NewSampler(Options{Host: true, Tool: true, Server: int32(os.Getpid())})
	ctx := context.Background()
	for b.Loop() {
		s.Sample(ctx, time.Now())
	}
}

// diskCounters reads the same counts as gopsutil's disk.IOCounters, without
// its udev look-ups: each between two of gopsutil's taken around it (which
// leaves out the devices that never did anything).
func TestDiskCountersMatchGopsutil(t *testing.T) {
	requireLinux(t)
	ctx := context.Background()
	before, err := disk.IOCountersWithContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := diskCounters(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, err := disk.IOCountersWithContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 {
		t.Fatal("gopsutil lists no disk")
	}
	for name, g := range got {
		b, a := before[name], after[name]
		if _, ok := before[name]; !ok && (g.ReadBytes != 0 || g.WriteBytes != 0) {
			t.Errorf("%s: read %d written %d, which gopsutil does not list", name, g.ReadBytes, g.WriteBytes)
		}
		if g.ReadBytes < b.ReadBytes || g.ReadBytes > a.ReadBytes || g.WriteBytes < b.WriteBytes || g.WriteBytes > a.WriteBytes {
			t.Errorf("%s: read %d written %d, gopsutil before %d/%d, after %d/%d", name, g.ReadBytes, g.WriteBytes,
				b.ReadBytes, b.WriteBytes, a.ReadBytes, a.WriteBytes)
		}
	}
	for name := range before {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: listed by gopsutil, not read", name)
		}
	}
}
