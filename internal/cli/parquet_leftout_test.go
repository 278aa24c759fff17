//go:build !parquet

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In a build without the Parquet reader, a Parquet file is refused with
// the build that reads it, and no hint suggests 'tsbench data inspect',
// which the same build refuses too (with the same build line).
func TestParquetLeftOutHint(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x.parquet")
	if err := os.WriteFile(file, []byte("PAR1 not read PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--quiet", "--data-dir", dir, "--target", "sqlite", "--data", file},
		{"data", "inspect", file},
	} {
		var out, errb bytes.Buffer
		code := Main(args, &out, &errb)
		msg := errb.String()
		if code != ExitUsage || !strings.Contains(msg, "go build -tags parquet") || strings.Contains(msg, "data inspect") {
			t.Errorf("%s: exit %d, want 2 with the build line and no 'data inspect' hint:\n%s", strings.Join(args, " "), code, msg)
		}
	}
}
