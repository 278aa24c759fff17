//go:build !parquet

package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A build without the Parquet reader refuses a Parquet file as bad input,
// naming the file and the build command, rather than reading it as
// another format.
func TestParquetLeftOutRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "readings.parquet")
	if err := os.WriteFile(file, []byte("PAR1 not read PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Import(file, t.TempDir(), ImportOptions{})
	var in *InputError
	if !errors.As(err, &in) || !errors.Is(err, ErrReaderLeftOut) {
		t.Fatalf("Import = %v, want an *InputError that is ErrReaderLeftOut", err)
	}
	for _, want := range []string{"readings.parquet", "go build -tags parquet"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}
