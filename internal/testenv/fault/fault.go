// Package fault misbehaves on behalf of tests: it freezes, kills and
// restarts the database servers that the project's scripts started
// (scripts/services/NAME.sh), so that a test can check what tsbench counts
// when a server stalls, crashes, goes away or comes back. A fault applies to
// the server's process and all its descendants (PostgreSQL's backends, a
// JVM's children).
package fault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/testenv"
)

// Service is one server started by scripts/services/NAME.sh.
type Service struct {
	Name   string
	script string
	dir    string // its state directory: the pid file
}

// Find returns the service NAME, which must be running (in CI a missing
// server fails the test; elsewhere it is skipped, see testenv.Require).
func Find(t testing.TB, name string) *Service {
	t.Helper()
	testenv.AwaitService(t, name)
	s := &Service{Name: name, script: filepath.Join(repoRoot(), "scripts", "services", name+".sh"),
		dir: filepath.Join(testenv.ServicesDir(), name)}
	if _, err := s.pid(); err != nil {
		testenv.Require(t, fmt.Sprintf("%s is not running (%v): start it with scripts/services/%s.sh start", name, err, name))
	}
	return s
}

// Script is the path of the service's script: what a restart command
// names.
func (s *Service) Script() string { return s.script }

// repoRoot is the repository's top directory, found from this file's path.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// Executable is the server's program, as its running process has it: a
// test may start a server of its own from it, with flags of its own.
func (s *Service) Executable(t testing.TB) string {
	t.Helper()
	pid, err := s.pid()
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		t.Fatalf("%s: its executable: %v", s.Name, err)
	}
	return exe
}

// pid is the server's main process, from the script's pid file.
func (s *Service) pid() (int, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, "pid"))
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("pid file: %w", err)
	}
	if syscall.Kill(pid, 0) != nil {
		return 0, fmt.Errorf("process %d is gone", pid)
	}
	return pid, nil
}

// Processes returns the server's process and its descendants, parents
// first.
func (s *Service) Processes() ([]int, error) {
	root, err := s.pid()
	if err != nil {
		return nil, err
	}
	children := map[int][]int{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parent(pid); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out, nil
}

// parent reads a process's parent from /proc/PID/stat, whose second field
// (the command, in parentheses) may itself hold spaces.
func parent(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// signal sends sig to the server and its descendants.
func (s *Service) signal(sig syscall.Signal) ([]int, error) {
	pids, err := s.Processes()
	if err != nil {
		return nil, err
	}
	for _, p := range pids {
		if err := syscall.Kill(p, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return pids, fmt.Errorf("%s: signal %v to %d: %w", s.Name, sig, p, err)
		}
	}
	return pids, nil
}

// Freeze stops the server (SIGSTOP) for d and lets it go on (SIGCONT); it
// returns how long the server was actually stopped, from the first stop
// signal to the last continue signal. The server is continued even when
// the test fails.
func (s *Service) Freeze(t testing.TB, d time.Duration) time.Duration {
	t.Helper()
	testenv.Alone(t) // the server is everyone's: no other package's test may use it meanwhile
	start := time.Now()
	pids, err := s.signal(syscall.SIGSTOP)
	defer func() {
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGCONT) //nolint:errcheck // best effort: gone is fine
		}
	}()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(start.Add(d)))
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGCONT) //nolint:errcheck
	}
	return time.Since(start)
}

// Stop freezes the server until the returned function continues it (for a
// stall that lasts past a run's end). The test's cleanup continues it too.
func (s *Service) Stop(t testing.TB) (cont func()) {
	t.Helper()
	testenv.Alone(t) // the server is everyone's: no other package's test may use it meanwhile
	pids, err := s.signal(syscall.SIGSTOP)
	cont = func() {
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGCONT) //nolint:errcheck
		}
	}
	t.Cleanup(cont)
	if err != nil {
		cont()
		t.Fatal(err)
	}
	return cont
}

// Kill crashes the server: SIGKILL to it and its descendants, then waits
// (at most 30 s) until every one of them is gone — reaped too, not a zombie:
// a server's restart takes a PID that still answers signals for a running
// server (PostgreSQL's lock file check does).
func (s *Service) Kill(t testing.TB) {
	t.Helper()
	testenv.Alone(t) // the server is everyone's: no other package's test may use it meanwhile
	pids, err := s.signal(syscall.SIGKILL)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, p := range pids {
		for syscall.Kill(p, 0) == nil {
			if time.Now().After(deadline) {
				t.Fatalf("%s: process %d still there 30 s after SIGKILL", s.Name, p)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// Resume starts the server again on the data it had (the script's resume
// action): a restart after a crash.
func (s *Service) Resume(t testing.TB) { t.Helper(); s.run(t, "resume") }

// Restart gives the server a fresh start on empty data (the script's start
// action), for what follows a test that left it down.
func (s *Service) Restart(t testing.TB) {
	t.Helper()
	s.run(t, "stop")
	s.run(t, "start")
}

func (s *Service) run(t testing.TB, action string) {
	t.Helper()
	testenv.Alone(t) // the server is everyone's: no other package's test may use it meanwhile
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", s.script, action)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", s.script, action, err, out)
	}
}
