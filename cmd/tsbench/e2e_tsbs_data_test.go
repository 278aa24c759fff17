package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// TSBS's data files replay: tsbench writes its cpu-only hosts in TSBS's
// influx and timescaledb formats (what tsbs_generate_data writes, tags and
// all), and `run --data` replays each into SQLite and PostgreSQL, every
// point stored (verified) and the query answers checked against the file.
func TestTSBSDataFilesReplay(t *testing.T) {
	const hosts, rows = 4, 90
	files := writeTSBSCPUFiles(t, hosts, rows, "2016-01-01T00:15:00Z")
	// The two formats say the same: TSBS's first influx line has every
	// host tag and cpu field.
	first, _, _ := strings.Cut(testenv.ReadText(t, files["influx"]), "\n")
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

// writeTSBSCPUFiles writes rows of TSBS's cpu-only hosts, up to end, in
// each of TSBS's data formats into a temporary directory, and returns each
// file by format: the files the replay tests give `run --data`.
func writeTSBSCPUFiles(t *testing.T, hosts, rows int, end string) map[string]string {
	t.Helper()
	g := tsbsGenerator(t, "cpu-only", hosts, end)
	dir := t.TempDir()
	files := map[string]string{}
	for _, format := range tsbs.DataFormats {
		var b strings.Builder
		if err := tsbs.WriteData(&b, format, "cpu", g, int64(rows)); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "cpu-only."+format)
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files[format] = name
	}
	return files
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

// 'tsbench generate --format' with TSBS's flags writes, for cpu-only and
// iot, the bytes tsbs_generate_data writes with the same flags: the golden
// files TSBS itself wrote (internal/tsbs/testdata/golden). The cpu-only file
// replays into SQLite, every point verified; the iot file, where TSBS
// leaves some rows without a truck name, is refused by the replay with the
// line named rather than misread; devops, which tsbench does not
// reproduce, is written with tsbench's own values and says so.
func TestTSBSGenerateFormat(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	golden := filepath.Join("..", "..", "internal", "tsbs", "testdata", "golden")
	keys := func(useCase string) []string {
		return []string{"--set", "TSBS_USE_CASE=" + useCase, "--set", "TSBS_PHASE=load", "--set", "TSBS_SCALE=4", "--set", "TSBS_SEED=123",
			"--set", "TSBS_START=2016-01-01T00:00:00Z", "--set", "TSBS_END=2016-01-01T01:00:00Z", "--set", "TSBS_LOG_INTERVAL=10s"}
	}
	rows := map[string]string{"cpu-only": "Wrote 1440 rows of 4 hosts", "iot": "Wrote 2607 rows of 4 trucks"}
	for _, useCase := range tsbs.ExactUseCases {
		for _, format := range tsbs.DataFormats {
			file := filepath.Join(dir, useCase+"."+format)
			r := tsbench(t, nil, append([]string{"generate", "--format", format, "--out", file}, keys(useCase)...)...)
			if r.code != 0 || !strings.Contains(r.stdout, rows[useCase]) || !strings.Contains(r.stdout, "TSBS's rows, seed 123") {
				t.Fatalf("generate %s %s: exit %d\n%s\n%s", useCase, format, r.code, r.stdout, r.stderr)
			}
			want := goldenText(t, filepath.Join(golden, useCase+"_seed123_scale4_1h_10s."+format))
			if got := testenv.ReadText(t, file); got != want {
				t.Errorf("%s %s: %d bytes differ from TSBS's %d (first line of each: %.120q, %.120q)", useCase, format,
					len(got), len(want), got, want)
			}
		}
	}
	s, stdout := runVerified(t, "--target", "sqlite", "--data", filepath.Join(dir, "cpu-only.timescaledb"),
		"--set", "DATA_DEVICE_COLUMNS=hostname", "--clients", "1", "--results", "off")
	if want := int64(1440 * len(tsbs.CPUFields)); s.Verify.StoredPoints != want || s.Verify.Mismatch() {
		t.Fatalf("cpu-only: stored %d points, want %d\n%s", s.Verify.StoredPoints, want, tail(stdout, 10))
	}
	r := tsbench(t, nil, "run", "--target", "sqlite", "--data", filepath.Join(dir, "iot.timescaledb"),
		"--set", "DATA_DEVICE_COLUMNS=name", "--clients", "1", "--results", "off")
	if r.code != 2 || !strings.Contains(r.stderr, "no tag name (DATA_DEVICE_COLUMNS)") {
		t.Errorf("iot replay: exit %d, want 2 naming the row without a truck name: %s", r.code, r.stderr)
	}
	r = tsbench(t, nil, append([]string{"generate", "--format", "influx", "--out", filepath.Join(dir, "devops.influx")}, keys("devops")...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "Wrote 1440 rows of 4 hosts (devops, tsbench's values)") {
		t.Errorf("generate devops: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := tsbench(t, nil, append([]string{"generate", "--format", "csv", "--out", filepath.Join(dir, "x")}, keys("iot")...)...); r.code != 2 || !strings.Contains(r.stderr, "allowed: influx, timescaledb") {
		t.Errorf("a bad --format: exit %d: %s", r.code, r.stderr)
	}
}

// goldenText is a golden file's text, unzipped from NAME.gz where TSBS's
// output was stored gzipped.
func goldenText(t *testing.T, name string) string {
	t.Helper()
	if _, err := os.Stat(name); err == nil {
		return testenv.ReadText(t, name)
	}
	f, err := os.Open(name + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
