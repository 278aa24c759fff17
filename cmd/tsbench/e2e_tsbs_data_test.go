package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/tsbs"
)

// TSBS's data files replay: tsbench writes its cpu-only hosts in TSBS's
// influx and timescaledb formats (what tsbs_generate_data writes, tags and
// all), and `run --data` replays each into SQLite and PostgreSQL, every
// point stored (verified) and the query answers checked against the file.
func TestTSBSDataFilesReplay(t *testing.T) {
	const hosts, rows = 4, 90
	g := tsbsGenerator(t, "cpu-only", hosts, "2016-01-01T00:15:00Z")
	dir := t.TempDir()
	files := map[string]string{}
	for _, format := range tsbs.DataFormats {
		var b strings.Builder
		if err := tsbs.WriteData(&b, format, "cpu", g, rows); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "cpu-only."+format)
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files[format] = name
	}
	// The two formats say the same: TSBS's first influx line has every
	// host tag and cpu field.
	first, _, _ := strings.Cut(readText(t, files["influx"]), "\n")
	if !strings.HasPrefix(first, "cpu,hostname=host_0,region=") || !strings.Contains(first, " usage_user=") ||
		!strings.HasSuffix(first, " 1451606400000000000") {
		t.Fatalf("influx line: %s", first)
	}
	onSQLiteAndPostgres(t, func(t *testing.T, target string) {
		for _, format := range tsbs.DataFormats {
			t.Run(format, func(t *testing.T) {
				// --data-format auto: the influx file is known by its
				// extension, the timescaledb file by its header.
				s, stdout := runVerified(t, "--target", target, "--data", files[format], "--set", "DATA_DEVICE_COLUMNS=hostname",
					"--set", "DB_NAME=tsbench_tsbs_data", "--results", "off")
				if want := int64(hosts * rows * len(tsbs.CPUFields)); s.Verify.StoredPoints != want {
					t.Fatalf("stored %d points, want %d", s.Verify.StoredPoints, want)
				}
				if len(s.Verify.Queries) == 0 || s.Verify.Mismatch() {
					t.Fatalf("query answers: %+v\n%s", s.Verify.Queries, tail(stdout, 10))
				}
			})
		}
	})
}

// TSBS's iot files have missing values (empty fields, and tags TSBS left
// empty): a timescaledb file of two trucks replays them as missing points,
// verified, into SQLite and PostgreSQL.
func TestTSBSDataFileMissingValues(t *testing.T) {
	file := filepath.Join(t.TempDir(), "iot.tsdb")
	text := "tags,name string,fleet string,driver string\n" +
		"readings,latitude,longitude,velocity\n" +
		"diagnostics,fuel_state,current_load\n\n" +
		"tags,name=truck_0,fleet=South,driver=Trish\n" +
		"readings,1451606400000000000,72.5,-10.25,\n" +
		"tags,name=truck_0,fleet=South,driver=Trish\n" +
		"diagnostics,1451606400000000000,0.9,1500\n" +
		"tags,name=truck_1,fleet=,driver=Derek\n" +
		"readings,1451606400000000000,,,12\n" +
		"tags,name=truck_0,fleet=South,driver=Trish\n" +
		"readings,1451606410000000000,72.6,-10.2,3\n" +
		"tags,name=truck_1,fleet=,driver=Derek\n" +
		"diagnostics,1451606410000000000,,\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	onSQLiteAndPostgres(t, func(t *testing.T, target string) {
		s, stdout := runVerified(t, "--target", target, "--data", file, "--set", "DATA_DEVICE_COLUMNS=name", "--clients", "1",
			"--set", "DB_NAME=tsbench_tsbs_data", "--results", "off")
		// 2 + 2 + 1 + 3 values; the last line has none.
		if s.Verify.StoredPoints != 8 || s.Verify.Mismatch() {
			t.Fatalf("stored %d points, want 8; answers %+v\n%s", s.Verify.StoredPoints, s.Verify.Queries, tail(stdout, 10))
		}
	})
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// 'tsbench generate --format' writes a TSBS load as TSBS's files (for
// TSBS's loaders); replayed, the iot file stores every value the load
// generates, its missing values left out.
func TestTSBSGenerateFormat(t *testing.T) {
	dir := t.TempDir()
	g := tsbsGenerator(t, "iot", 3, "2016-01-01T00:10:00Z")
	want := int64(3*60*10) - g.MissingCells(g.Schema().Devices, 60)
	keys := []string{"--set", "TSBS_USE_CASE=iot", "--set", "TSBS_PHASE=load", "--set", "TSBS_SCALE=3",
		"--set", "TSBS_START=2016-01-01T00:00:00Z", "--set", "TSBS_END=2016-01-01T00:10:00Z", "--set", "TSBS_LOG_INTERVAL=10s"}
	for _, format := range tsbs.DataFormats {
		file := filepath.Join(dir, "iot."+format)
		r := tsbench(t, nil, append([]string{"generate", "--format", format, "--out", file}, keys...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Wrote 60 rows of 3 trucks") {
			t.Fatalf("generate: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		s, stdout := runVerified(t, "--target", "sqlite", "--data", file, "--set", "DATA_DEVICE_COLUMNS=name", "--clients", "1",
			"--results", "off")
		if s.Verify.StoredPoints != want || s.Verify.Mismatch() {
			t.Fatalf("%s: stored %d points, want %d\n%s", format, s.Verify.StoredPoints, want, tail(stdout, 10))
		}
	}
	if r := tsbench(t, nil, append([]string{"generate", "--format", "csv", "--out", filepath.Join(dir, "x")}, keys...)...); r.code != 2 || !strings.Contains(r.stderr, "allowed: influx, timescaledb") {
		t.Errorf("a bad --format: exit %d: %s", r.code, r.stderr)
	}
}
