package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Thresholds gate a run as k6's do: a failing one exits 99, passing ones
// exit 0, both are listed and saved in the JSON summary; a malformed one
// exits 2 before anything runs.
func TestThresholds(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	base := []string{"run", "--quiet", "--loop", "20", "--data-dir", dir}
	js := filepath.Join(dir, "pass.json")
	r := tsbench(t, nil, append(base, "--json", js, "--threshold", "INGESTION.p99<60s", "--threshold", "errors==0",
		"--threshold", "INGESTION.throughput>1")...)
	if r.code != 0 || !strings.Contains(r.stdout, "passed  errors==0") {
		t.Fatalf("passing thresholds: exit %d\n%s", r.code, tail(r.stdout, 8))
	}
	if s := readSummary(t, js); len(s.Thresholds) != 3 || !s.Thresholds[2].Passed || s.Thresholds[2].Actual <= 1 {
		t.Fatalf("saved thresholds %+v", s.Thresholds)
	}
	js = filepath.Join(dir, "fail.json")
	r = tsbench(t, nil, append(base, "--json", js, "--threshold", "INGESTION.p99<1us")...)
	if r.code != 99 || !strings.Contains(r.stdout, "FAILED  INGESTION.p99<1us") {
		t.Fatalf("failing threshold: exit %d, want 99\n%s", r.code, tail(r.stdout, 8))
	}
	if s := readSummary(t, js); len(s.Thresholds) != 1 || s.Thresholds[0].Passed {
		t.Fatalf("saved thresholds %+v", s.Thresholds)
	}
	// Also from YAML, listed with the flags' own.
	yml := filepath.Join(dir, "gate.yaml")
	if err := os.WriteFile(yml, []byte("thresholds:\n  - errors==0\n  - INGESTION.max<1us\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = tsbench(t, nil, append(base, "--config", yml, "--threshold", "INGESTION.ok_operations>0")...)
	if r.code != 99 || !strings.Contains(r.stdout, "passed  errors==0") || !strings.Contains(r.stdout, "FAILED  INGESTION.max<1us") ||
		!strings.Contains(r.stdout, "passed  INGESTION.ok_operations>0") {
		t.Fatalf("YAML thresholds: exit %d, want 99\n%s", r.code, tail(r.stdout, 8))
	}
	r = tsbench(t, nil, append(base, "--threshold", "INGESTION.p98<5ms")...)
	if r.code != 2 || !strings.Contains(r.stderr, "p98") {
		t.Fatalf("malformed threshold: exit %d\n%s", r.code, r.stderr)
	}
}
