package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/testenv"
)

var monitorStoredLine = regexp.MustCompile(`Stored (\d+) samples as monitor session (mon-\S+) in `)

// background is a tsbench process that runs beside a test, as 'tsbench
// monitor' does on a database host.
type background struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
}

// startBackground starts tsbench with args; the process is killed when the
// test ends, unless interrupt ended it first.
func startBackground(t *testing.T, env []string, args ...string) *background {
	t.Helper()
	b := &background{cmd: exec.Command(binary, args...)}
	b.cmd.Env = append(os.Environ(), env...)
	b.cmd.Stdout, b.cmd.Stderr = &b.stdout, &b.stderr
	startKilledAtEnd(t, b.cmd)
	return b
}

// interrupt stops the process as Ctrl-C does and returns its output; the
// test fails when the process does not exit 0.
func (b *background) interrupt(t *testing.T) (stdout, stderr string) {
	t.Helper()
	if err := b.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := b.cmd.Wait(); err != nil {
		t.Fatalf("%v after SIGINT: %v\n%s\n%s", b.cmd.Args[1:], err, b.stdout.String(), b.stderr.String())
	}
	return b.stdout.String(), b.stderr.String()
}

// 'tsbench monitor --store' records a monitor session in the results
// store while a run goes on; 'tsbench report' merges the samples taken
// during the run's measured phase by itself, as many as the store holds
// for that window; 'monitor ls' and 'monitor rm' manage the sessions.
func TestMonitorSessionInStoreMergedIntoReport(t *testing.T) {
	testenv.Alone(t)
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	server := exec.Command("sleep", "60") // a stand-in database server process
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { server.Process.Kill(); server.Wait() }()

	mon := startBackground(t, env, "monitor", "--store", "--pid", strconv.Itoa(server.Process.Pid), "--duration", "2m")
	time.Sleep(1500 * time.Millisecond)
	r := tsbench(t, env, "run", "--quiet", "--duration", "3s", "--loop", "1000000", "--clients", "2", "--devices", "4")
	mustExit(t, r, 0, "run")
	id, _ := storedRun(t, r)
	time.Sleep(1200 * time.Millisecond)
	monOut, monErr := mon.interrupt(t)
	m := monitorStoredLine.FindStringSubmatch(monOut)
	if m == nil {
		t.Fatalf("no 'Stored ... monitor session' line:\n%s\n%s", monOut, monErr)
	}
	n, _ := strconv.Atoi(m[1])
	session := m[2]
	if n < 5 { // 1.5 s + a 3 s run + 1.2 s at one sample a second
		t.Errorf("%d samples stored", n)
	}

	// Listed with its samples, host, server and end.
	r = tsbench(t, env, "monitor", "ls", "--json")
	mustExit(t, r, 0, "monitor ls")
	var sessions []results.MonitorSession
	if err := json.Unmarshal([]byte(r.stdout), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("monitor ls --json: %v\n%s", err, r.stdout)
	}
	host, _ := os.Hostname()
	if s := sessions[0]; s.ID != session || s.Samples != int64(n) || s.Hostname != host || s.ServerPID != int32(server.Process.Pid) ||
		s.ServerName != "sleep" || s.Ended.IsZero() {
		t.Errorf("session %+v, want %s with %d samples", s, session, n)
	}

	// The report merges exactly the samples the store holds for the run's
	// measured phase (a second either side), counted here with plain SQL.
	sum := readSummary(t, filepath.Join(dir, "runs", id, "summary.json"))
	from := sum.MeasureStarted.Add(-time.Second).UnixMilli()
	to := sum.MeasureStarted.Add(time.Duration(sum.Elapsed*float64(time.Second)) + time.Second).UnixMilli()
	db := openDB(t, filepath.Join(dir, "results.db"))
	inWindow := queryInt(t, db, `SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ? AND source = 'monitor'
		AND server_pid = ? AND time_ms BETWEEN ? AND ?`, session, server.Process.Pid, from, to)
	if inWindow < 3 {
		t.Fatalf("only %d monitor samples fall in the run's window", inWindow)
	}
	html := filepath.Join(dir, "report.html")
	r = tsbench(t, env, "report", id, "-o", html)
	mustExit(t, r, 0, "report")
	if want := fmt.Sprintf("run %s: merged %d samples of monitor sessions", id, inWindow); !strings.Contains(r.stderr, want) {
		t.Errorf("report says %q, want %q", r.stderr, want)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d samples from &#39;tsbench monitor&#39; on %s", inWindow, host); !strings.Contains(string(page), want) &&
		!strings.Contains(string(page), strings.ReplaceAll(want, "&#39;", "'")) {
		t.Errorf("report lacks %q", want)
	}
	r = tsbench(t, env, "report", id, "--stored-monitors=false", "-o", html)
	mustExit(t, r, 0, "report --stored-monitors=false")
	if strings.Contains(r.stderr, "merged") {
		t.Errorf("--stored-monitors=false merged: %s", r.stderr)
	}

	// Removed with its samples; removing it again is a usage error.
	mustExit(t, tsbench(t, env, "monitor", "rm", session), 0, "monitor rm")
	if left := queryInt(t, db, "SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ?", session); left != 0 {
		t.Errorf("%d samples left after monitor rm", left)
	}
	r = tsbench(t, env, "monitor", "rm", session)
	mustExit(t, r, 2, "monitor rm again")
	if !strings.Contains(r.stderr, session) {
		t.Errorf("monitor rm of a removed session: %s", r.stderr)
	}
}

// A monitor without anywhere to put its samples, or with a store it cannot
// open, says so before sampling.
func TestMonitorBadDestinations(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}
	r := tsbench(t, env, "monitor", "--duration", "1s")
	mustExit(t, r, 2, "monitor with no destination")
	if !strings.Contains(r.stderr, "--out FILE or --store") {
		t.Errorf("no destination: %s", r.stderr)
	}
	r = tsbench(t, env, "monitor", "--store", "--results", "off", "--duration", "1s")
	mustExit(t, r, 2, "monitor --store with the store off")
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(blocker, "results.db")
	r = tsbench(t, env, "monitor", "--results", store, "--duration", "1s")
	mustExit(t, r, 1, "monitor into a store under a file")
	if !strings.Contains(r.stderr, store) {
		t.Errorf("unopenable store not named: %s", r.stderr)
	}
	r = tsbench(t, env, "monitor", "ls", "--results", "postgres://bench:s3cret@127.0.0.1:1/results")
	mustExit(t, r, 1, "monitor ls of an unreachable store")
	if strings.Contains(r.stderr+r.stdout, "s3cret") || !strings.Contains(r.stderr, "127.0.0.1:1") {
		t.Errorf("unreachable store: %s", r.stderr)
	}
}
