package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/results"
)

// FuzzParseSince: --since takes any text to a time or an error, never a
// panic; a duration back from now never lands in the future.
func FuzzParseSince(f *testing.F) {
	for _, s := range []string{"90m", "24h", "7d", "2w", "1.5d", "2026-11-22", "2026-11-22T10:00:00Z", "d", ".w", "-3d", "1e300w", "-24h"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		got, err := parseSince(v, now)
		if err != nil {
			return
		}
		if got.After(now) && !looksAbsolute(v) {
			t.Fatalf("parseSince(%q) = %v, after now", v, got)
		}
	})
}

// looksAbsolute says v may name a date, which may be in the future: every
// layout parseSince takes starts with a digit and has a '-'. A leading '-'
// is a negative duration ("-24h"), which is not a time back from now.
func looksAbsolute(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && v[0] >= '0' && v[0] <= '9' && strings.Contains(v, "-")
}

// FuzzImportSummary feeds 'runs import' any file: it is refused as "not a
// tsbench summary", or read into a run that every reader of a stored run —
// the console report, the rebuilt matrices, the CSV and HDR-log exports —
// handles without panicking.
func FuzzImportSummary(f *testing.F) {
	f.Add([]byte(`{"schema_version":1,"run_id":"r1","operations":[{"name":"INGESTION","ok_operations":2,"hdr_histogram":"x"}],` +
		`"intervals":[{"t_s":0,"duration_s":1,"ops":[{"name":"INGESTION","ok_operations":2,"hdr_histogram":"HISTFAAAAB14nJNpmSzMwMDAxAABzFCaEUzOmNZgfw"}]}]}`))
	f.Add([]byte(`{"schema_version":1,"run_id":"r2","verify":{"expected_points":-1},"tpcc":{"consistency":[]},"resources":{"samples":[{}]}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"schema_version":1,"run_id":"r3","intervals":[{"ops":[{"name":""}]}],"config":{"a":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "run.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := readSummaryFile(path)
		if err != nil {
			if !strings.Contains(err.Error(), "not a tsbench summary") {
				t.Fatalf("refused without saying why: %v", err)
			}
			return
		}
		if err := report.Console(io.Discard, s); err != nil {
			t.Fatalf("console: %v", err)
		}
		metrics.FromIntervals(s.Intervals)
		results.WriteHDRLog(io.Discard, s)
		results.WriteCSV(dir, s)
		s.Status()
	})
}
