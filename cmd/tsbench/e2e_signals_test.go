package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/results"
	"github.com/tsbench/tsbench/internal/testenv"
)

// A reader that stops early (tsbench run | head -n 2) neither kills the run
// by SIGPIPE nor leaves it half-recorded: the run is stored as ok before
// anything is printed, and the exit status is the run's own.
func TestClosedStdoutKeepsTheRun(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	cmd := exec.Command(binary, "run", "--target", "null", "--loop", "50", "--quiet")
	cmd.Env = append(os.Environ(), "TSBENCH_DATA_DIR="+dir, "TSBENCH_RESULTS=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	for i := 0; i < 2 && lines.Scan(); i++ {
	}
	out.Close() // what head does after its two lines
	waitBounded(t, cmd, 60*time.Second)
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit %d (%v), want 0: the run finished", code, cmd.ProcessState)
	}
	r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir, "TSBENCH_RESULTS="}, "runs", "--json")
	var listed []results.RunInfo
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed) != 1 {
		t.Fatalf("runs --json: %v\n%s", err, r.stdout)
	}
	if listed[0].Status != "ok" || listed[0].Points == 0 {
		t.Fatalf("stored run %+v, want status ok with its points", listed[0])
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "summary.json")); len(files) != 1 {
		t.Fatalf("run directory: %v", files)
	}
}

// A second Ctrl-C aborts the operations in flight at once; the run is kept
// as interrupted, and verification is reported skipped, never as a failure
// of the database (it would only have counted an aborted run).
func TestSecondInterruptAborts(t *testing.T) {
	testenv.Alone(t)
	fr := startRun(t, "--duration", "60s", "--loop", "100000000", "--batch-size", "2000")
	time.Sleep(3 * time.Second)
	fr.cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(20 * time.Millisecond)
	fr.cmd.Process.Signal(syscall.SIGINT)
	waitBounded(t, fr.cmd, 30*time.Second)
	if code := fr.cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, fr.output())
	}
	if strings.Contains(fr.stdout.String(), "FAILED") {
		t.Fatalf("an aborted run printed a failed verification:\n%s", fr.stdout.String())
	}
	s := readSummary(t, fr.json)
	if !s.Interrupted || s.Verify == nil || (s.Verify.Skipped == "" && !s.Verify.OK) {
		t.Fatalf("interrupted=%v verify=%+v", s.Interrupted, s.Verify)
	}
	if w := s.Op("INGESTION"); w == nil || w.OKOperations == 0 {
		t.Fatal("the aborted run lost its measurements")
	}
}

func waitBounded(t *testing.T, cmd *exec.Cmd, limit time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		t.Fatalf("tsbench did not end within %v", limit)
	}
}
