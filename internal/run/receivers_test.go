package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/spec"
)

// Every kind opens; one that cannot be opened is a warning (the run goes
// on without it), or an error with Required.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	var specs []spec.Spec
	for _, v := range []string{"prometheus-rw=http://127.0.0.1:1/api/v1/write", "influxdb=http://127.0.0.1:1/db",
		"otlp=http://127.0.0.1:1/v1/metrics", "json=" + filepath.Join(dir, "a.ndjson"), "csv=" + filepath.Join(dir, "a.csv")} {
		s, err := spec.Parse(v)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	exp, warnings, err := openReceivers(specs, output.Labels{RunID: "r"}, output.Options{}, "test")
	if err != nil || exp == nil || len(warnings) != 0 {
		t.Fatalf("openReceivers: %v, %v, %v", exp, warnings, err)
	}
	reports, _ := exp.Finish(nil)
	if len(reports) != len(specs) {
		t.Errorf("%d reports for %d receivers", len(reports), len(specs))
	}
	for _, f := range []string{"a.ndjson", "a.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	bad := []spec.Spec{{Kind: "json", Where: filepath.Join(dir, "missing", "x.ndjson")}}
	exp, warnings, err = openReceivers(bad, output.Labels{}, output.Options{}, "test")
	if err != nil || exp != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "goes on without it") {
		t.Errorf("unopenable file: %v, %q, %v", exp, warnings, err)
	}
	if _, _, err = openReceivers(bad, output.Labels{}, output.Options{Required: true}, "test"); err == nil || !strings.Contains(err.Error(), "x.ndjson") {
		t.Errorf("unopenable file with Required: %v", err)
	}
}
