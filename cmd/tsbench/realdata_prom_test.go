package main

// A real Prometheus scrape (the public corpus' prometheus-scrape.prom: 57
// metric names, 248 series, summaries among them, no timestamps), replayed
// by the binary into SQLite: every series is one point, and the
// verification counts them all.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realDataDir is the public corpus' directory: TSBENCH_REALDATA, else
// ~/.cache/tsbench-realdata, where ../shared/realdata/fetch.sh puts it.
func realDataDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("TSBENCH_REALDATA"); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory to find ~/.cache/tsbench-realdata in; set TSBENCH_REALDATA")
	}
	return filepath.Join(home, ".cache", "tsbench-realdata")
}

func TestRealPrometheusScrape(t *testing.T) {
	src := filepath.Join(realDataDir(t), "prometheus-scrape.prom")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%s is missing: bash ../shared/realdata/fetch.sh fetches the corpus", src)
	}
	r := tsbench(t, nil, "run", "--quiet", "--results", "off", "--data-dir", t.TempDir(), "--data", src, "--target", "sqlite", "--clients", "1")
	out := r.stdout + r.stderr
	if r.code != 0 || !strings.Contains(out, "Verify: stored 248 points, expected 248: OK") {
		t.Fatalf("exit %d, want 248 points stored and verified:\n%s", r.code, out)
	}
}
