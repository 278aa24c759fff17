package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestExport(t *testing.T) {
	dir := t.TempDir()
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, RunID: "r1", Target: "null"}
	var b bytes.Buffer
	if err := Export(&b, s, "json", ""); err != nil || !strings.Contains(b.String(), `"run_id": "r1"`) {
		t.Errorf("json to stdout: %q %v", b.String(), err)
	}
	b.Reset()
	path := filepath.Join(dir, "r1.json")
	if err := Export(&b, s, "json", path); err != nil || b.String() != "Wrote "+path+"\n" {
		t.Errorf("json to a file: %q %v", b.String(), err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
	b.Reset()
	if err := Export(&b, s, "csv", filepath.Join(dir, "csv")); err != nil || !strings.Contains(b.String(), "result.csv") {
		t.Errorf("csv: %q %v", b.String(), err)
	}
	b.Reset()
	hlog := filepath.Join(dir, "r1.hlog")
	if err := Export(&b, s, "hdr", hlog); err != nil || !strings.Contains(b.String(), "histograms)") {
		t.Errorf("hdr: %q %v", b.String(), err)
	}
	if err := Export(&b, s, "xml", ""); err == nil || !strings.Contains(err.Error(), "allowed: csv, json, hdr") {
		t.Errorf("an unknown format: %v", err)
	}
	if !KnownExportFormat("hdr") || KnownExportFormat("xml") {
		t.Error("KnownExportFormat")
	}
}
