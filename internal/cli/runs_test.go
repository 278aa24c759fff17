package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Time{
		"24h":                  now.Add(-24 * time.Hour),
		"90m":                  now.Add(-90 * time.Minute),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"2w":                   now.Add(-14 * 24 * time.Hour),
		"1.5d":                 now.Add(-36 * time.Hour),
		"2026-03-01T08:00:00Z": time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC),
		"2026-03-01":           time.Date(2026, 3, 1, 0, 0, 0, 0, time.Local),
	}
	for in, want := range cases {
		got, err := parseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "yesterday", "7x"} {
		if _, err := parseSince(bad, now); err == nil {
			t.Errorf("parseSince(%q) accepted", bad)
		}
	}
}

func TestResultsSpec(t *testing.T) {
	t.Setenv(resultsEnv, "")
	if spec, def, off := resultsSpec("", "/d"); spec != "" || def != filepath.Join("/d", "results.db") || off {
		t.Errorf("default: %q %q %v", spec, def, off)
	}
	t.Setenv(resultsEnv, "postgres://u@h/db")
	if spec, _, _ := resultsSpec("", "/d"); spec != "postgres://u@h/db" {
		t.Errorf("from the environment: %q", spec)
	}
	if spec, _, _ := resultsSpec("/x.db", "/d"); spec != "/x.db" {
		t.Errorf("the flag wins: %q", spec)
	}
	if _, _, off := resultsSpec("off", "/d"); !off {
		t.Error("off")
	}
}

func TestResourceLine(t *testing.T) {
	if resourceLine(nil) != "" {
		t.Error("no resources")
	}
	r := &summary.Resources{Server: &summary.ServerProcess{PID: 7, Name: "postgres"}, Samples: []summary.ResourceSample{
		{Tool: &summary.ProcessUsage{CPUPercent: 50, RSSBytes: 100 << 20}, Server: &summary.ProcessUsage{CPUPercent: 100, RSSBytes: 1 << 30},
			Host: &summary.HostUsage{CPUPercent: 50, Cores: 4, MemUsedBytes: 2 << 30}},
		{Tool: &summary.ProcessUsage{CPUPercent: 150, RSSBytes: 120 << 20}, Server: &summary.ProcessUsage{CPUPercent: 300, RSSBytes: 1 << 30},
			Host: &summary.HostUsage{CPUPercent: 100, Cores: 4, MemUsedBytes: 3 << 30}},
	}}
	line := resourceLine(r)
	for _, want := range []string{"tool 1.00 cores mean, 1.50 peak", "server (postgres, pid 7) 2.00 cores mean, 3.00 peak", "host (4 cores) 3.00 cores mean, 4.00 peak"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
}

// The commands are registered, and a store that does not exist yet is
// reported as such rather than created by a read.
func TestRunsWithoutStore(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(resultsEnv, "")
	var out, errb bytes.Buffer
	code := Main([]string{"runs", "--data-dir", dir}, &out, &errb)
	if code != ExitFailure || !strings.Contains(errb.String(), "no results store at "+filepath.Join(dir, "results.db")) {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "results.db")); err == nil {
		t.Error("listing created the store")
	}
	for _, args := range [][]string{{"report", "--help"}, {"compare", "--help"}, {"monitor", "--help"}, {"runs", "export", "--help"}} {
		out.Reset()
		if code := Main(args, &out, &errb); code != 0 || !strings.Contains(out.String(), "Usage:") {
			t.Errorf("%v: exit %d", args, code)
		}
	}
	if code := Main([]string{"monitor"}, &out, &errb); code != ExitUsage {
		t.Errorf("monitor without --out: exit %d", code)
	}
	if code := Main([]string{"compare", "a"}, &out, &errb); code != ExitUsage {
		t.Errorf("compare with one run: exit %d", code)
	}
}
