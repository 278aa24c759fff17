package results

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A monitor's samples go to its file and its store session alike; the
// session ends with the count the store took.
func TestMonitorSinksFileAndStore(t *testing.T) {
	dir := t.TempDir()
	st := openSQLite(t, filepath.Join(dir, "results.db"), time.Second)
	var m MonitorSinks
	m.Stderr = io.Discard
	path := filepath.Join(dir, "db.jsonl")
	if err := m.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	if err := m.Begin(st, MonitorSession{ID: "mon-sinks", Hostname: "db-1", Started: base, IntervalS: 1}); err != nil {
		t.Fatal(err)
	}
	const n = 4
	for i := range n {
		if err := m.Emit(i, monitorSample("db-1", i, base.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if err := m.Finish(&out, n); err != nil {
		t.Fatal(err)
	}
	if want := "Wrote 4 samples to " + path; !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "Stored 4 samples as monitor session mon-sinks") {
		t.Errorf("finish says %q", out.String())
	}
	if w := m.Where(); !strings.Contains(w, path) || !strings.Contains(w, " and ") {
		t.Errorf("where: %q", w)
	}
	m.Close()

	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	lines := 0
	for sc := bufio.NewScanner(fh); sc.Scan(); {
		lines++
	}
	if lines != n {
		t.Errorf("the file has %d lines, want %d", lines, n)
	}
	st = openSQLite(t, filepath.Join(dir, "results.db"), time.Second)
	list, err := st.Monitors(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Samples != n || list[0].Ended.IsZero() {
		t.Errorf("stored sessions: %+v", list)
	}
}
