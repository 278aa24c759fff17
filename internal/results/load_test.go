package results

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/report"
)

// A file is read without opening the store; a stored run's ref opens it,
// and what the store says comes back unchanged.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "run.json")
	if err := os.WriteFile(good, []byte(`{"schema_version":1,"run_id":"r1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "other.json")
	if err := os.WriteFile(bad, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	refuse := errors.New("no store")
	open := func(context.Context) (*Store, error) { return nil, refuse }
	runs, err := Load(context.Background(), []string{good}, open)
	if err != nil || len(runs) != 1 || runs[0].RunID != "r1" {
		t.Fatalf("file: %v %v", runs, err)
	}
	var fe *SummaryFileError
	if _, err := Load(context.Background(), []string{bad}, open); !errors.As(err, &fe) || !strings.Contains(err.Error(), "not a tsbench summary") {
		t.Errorf("not a summary: %v", err)
	}
	if _, err := Load(context.Background(), []string{good, "latest"}, open); !errors.Is(err, refuse) {
		t.Errorf("stored run: %v", err)
	}
	if IsSummaryFile("latest") || IsSummaryFile(dir) || !IsSummaryFile(good) {
		t.Error("IsSummaryFile")
	}
	if AnyStored([]string{good}) || !AnyStored([]string{good, "latest"}) {
		t.Error("AnyStored")
	}
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
		s, err := ReadSummaryFile(path)
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
		WriteHDRLog(io.Discard, s)
		WriteCSV(dir, s)
		s.Status()
	})
}
