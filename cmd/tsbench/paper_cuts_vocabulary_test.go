package main

// Paper cuts a new user met (issue 53): a YAML file in the flags' own
// vocabulary runs as written.

import (
	"path/filepath"
	"strings"
	"testing"
)

// newUserYAML is the configuration of issue 53, in the flags' names.
const newUserYAML = `target: sqlite
clients: 4
devices: 50
sensors: 10
duration: 5s
rate: 200
operations:
  write: 1
  Q1: 1
`

func TestFlagVocabularyYAMLRuns(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	file := writeInputFile(t, dir, "bench.yaml", newUserYAML)
	r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir}, "run", "--config", file, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "summary.json"))
	if len(runs) != 1 {
		t.Fatalf("want one saved run, found %v", runs)
	}
	s := readSummary(t, runs[0])
	// The summary keeps IoT-benchmark's names, as stored runs always had.
	for k, want := range map[string]any{"client_number": 4.0, "device_number": 50.0, "sensor_number": 10.0,
		"rate": 200.0, "operation_proportion": "1:1:0:0:0:0:0:0:0:0:0", "db_switch": "sqlite"} {
		if s.Config[k] != want {
			t.Errorf("summary %s = %#v, want %#v", k, s.Config[k], want)
		}
	}
	if w, q := s.Op("INGESTION"), s.Op("PRECISE_POINT"); w == nil || q == nil || w.OKOperations == 0 || q.OKOperations == 0 {
		t.Errorf("want writes and Q1 run, got %+v and %+v", w, q)
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Errorf("verify = %+v", s.Verify)
	}

	conflict := writeInputFile(t, dir, "conflict.yaml", newUserYAML+"client_number: 8\n")
	r = tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir}, "run", "--config", conflict)
	if r.code != 2 || !strings.Contains(r.stderr, "client_number and clients") {
		t.Errorf("clients and client_number in one file: exit %d, stderr %q; want 2 naming both", r.code, r.stderr)
	}
}
