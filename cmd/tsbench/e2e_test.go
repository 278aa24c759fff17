package main

// End-to-end tests: they build the real binary once, run it as a user would,
// then open the SQLite file it wrote and check the stored rows — counts, and
// values recomputed from the generator — and the query answers against
// independent SQL over the same file.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/workload"
	_ "modernc.org/sqlite"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tsbench-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "tsbench")
	// -buildvcs=auto: stamp the commit (for --version) even where GOFLAGS
	// turns stamping off, as it may on CI machines. The binary has the
	// build tags this test binary has (go test -tags duckdb, or GOFLAGS as
	// CI's), so that both agree on the targets built in, and always the
	// Parquet reader, which the replay tests feed.
	build := exec.Command("go", "build", "-buildvcs=auto", "-tags="+withTag(buildTags(), dataset.ParquetTag), "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build tsbench:", err)
		os.Exit(1)
	}
	code := testenv.Run(m)
	writeCPULedger()
	os.RemoveAll(dir)
	os.Exit(code)
}

// withTag adds tag to a comma-separated list of build tags.
func withTag(tags, tag string) string {
	if tags == "" {
		return tag
	}
	if slices.Contains(strings.Split(tags, ","), tag) {
		return tags
	}
	return tags + "," + tag
}

// buildTags are the build tags this test binary was built with.
func buildTags() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-tags" {
				return s.Value
			}
		}
	}
	return ""
}

type result struct {
	code           int
	stdout, stderr string
}

// tsbench runs the binary with a time bound and returns its outcome.
func tsbench(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runBinary(t, "", 3*time.Minute, env, args...)
}

// runBinary runs the binary in working directory dir ("" for the test's),
// bounded by limit, and fails the test on a stack trace: bad input must
// never panic.
func runBinary(t *testing.T, dir string, limit time.Duration, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	noteCPU(t, cmd.ProcessState)
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run tsbench %v in %q: %v", args, dir, err)
	}
	if printedStackTrace(r.stderr) {
		t.Fatalf("tsbench %v printed a stack trace:\n%s", args, r.stderr)
	}
	return r
}

// stackTrace matches what Go's runtime prints when a program panics or
// dies: a goroutine's header ("goroutine 1 [running]:"), "panic: " or
// "fatal error: " at a line's start. A message of the tool's own that
// merely says "goroutine" is not one.
var stackTrace = regexp.MustCompile(`(?m)^(goroutine \d+ \[|panic: |fatal error: )`)

// printedStackTrace reports whether stderr holds a Go stack trace.
func printedStackTrace(stderr string) bool { return stackTrace.MatchString(stderr) }

func readSummary(t *testing.T, path string) *summary.Summary {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s summary.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return &s
}

func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file: %v", err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryInt(t *testing.T, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// configFor rebuilds, in the test, the configuration the binary used, from
// the same key=value settings.
func configFor(t *testing.T, settings ...string) *config.Config {
	t.Helper()
	c, err := config.FromArgs(settings...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func setArgs(settings []string) []string {
	var args []string
	for _, s := range settings {
		args = append(args, "--set", s)
	}
	return args
}

var matrixRows = []string{"INGESTION", "PRECISE_POINT", "TIME_RANGE", "VALUE_RANGE", "AGG_RANGE", "AGG_VALUE",
	"AGG_RANGE_VALUE", "GROUP_BY", "LATEST_POINT", "RANGE_QUERY_DESC", "VALUE_RANGE_QUERY_DESC"}

// The README's default command: no arguments, embedded SQLite, both
// matrices, verification, and a database whose every row is the generator's.
func TestDefaultRun(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	start := time.Now()
	r := tsbench(t, []string{"TSBENCH_DATA_DIR=" + dir}, "run")
	took := time.Since(start)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("default run took %s", took)
	for _, want := range append([]string{"Result Matrix", "Latency (ms) Matrix", "SLOWEST_THREAD"}, matrixRows...) {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "summary.json"))
	if len(runs) != 1 {
		t.Fatalf("want one saved run, found %v", runs)
	}
	s := readSummary(t, runs[0])
	if s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints != s.Verify.ExpectedPoints {
		t.Fatalf("verify = %+v", s.Verify)
	}
	w := s.Op("INGESTION")
	if w == nil || w.OKPoints == 0 || w.OKPoints != s.Verify.ExpectedPoints {
		t.Fatalf("INGESTION row %+v does not match verified points %d", w, s.Verify.ExpectedPoints)
	}
	for _, f := range []string{"result.csv", "latency.csv", "intervals.csv"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(runs[0]), f)); err != nil {
			t.Errorf("CSV output: %v", err)
		}
	}

	cfg := configFor(t)
	db := openDB(t, filepath.Join(dir, "sqlite", "test.db"))
	if n := queryInt(t, db, "SELECT count(*) FROM points"); n != w.OKPoints {
		t.Fatalf("points table holds %d rows, tsbench acknowledged %d", n, w.OKPoints)
	}
	checkStoredValues(t, db, cfg)
}

// checkStoredValues compares every stored point of a sample of series with
// the generator's value for its row.
func checkStoredValues(t *testing.T, db *sql.DB, cfg *config.Config) {
	t.Helper()
	schema := workload.Schema(cfg)
	g, err := gen.New(schema, workload.GenOptions(cfg))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT s.device_index, p.series, p.t, p.v FROM points p JOIN series s ON s.id = p.series
		WHERE p.series % 7 = 0 ORDER BY p.series, p.t`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checked := 0
	for rows.Next() {
		var dev, series, ts int64
		var v any
		if err := rows.Scan(&dev, &series, &ts, &v); err != nil {
			t.Fatal(err)
		}
		sensor := int(series % int64(len(schema.Sensors)))
		k, exact := g.RowAt(ts)
		if !exact {
			t.Fatalf("series %d has timestamp %d off the %d ms grid", series, ts, cfg.PointStep)
		}
		want := g.Value(int(dev), sensor, k)
		if !sameValue(v, want) {
			t.Fatalf("device %d sensor %d row %d: stored %v (%T), generator %v (%T)", dev, sensor, k, v, v, want, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no stored point was checked")
	}
	t.Logf("checked %d stored values against the generator", checked)
}

// sameValue compares a value read from SQLite with the generated one.
func sameValue(stored, want any) bool {
	n, isInt := stored.(int64)
	f, isFloat := stored.(float64)
	switch w := want.(type) {
	case bool:
		return isInt && (n == 1) == w
	case int32:
		return isInt && n == int64(w)
	case int64:
		return isInt && n == w
	case float32:
		return isFloat && f == float64(w)
	case float64:
		return isFloat && f == w
	case string:
		s, ok := stored.(string)
		return ok && s == w
	}
	return false
}

// Seed 002's CRRC write test (table 2-3) from a config.properties, scaled down
// through LOOP: 100 clients, 100 trains x 3,000 DOUBLE sensors, batch 1.
func TestPropertiesCRRCScaledDown(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	props := filepath.Join(dir, "config.properties")
	os.WriteFile(props, []byte(`# seed 002, table 2-3 (IoT-benchmark user guide)
DB_SWITCH=IoTDB-013-SESSION_BY_TABLET
HOST=127.0.0.1
PORT=6667
BENCHMARK_WORK_MODE=testWithDefaultPath
OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0
CLIENT_NUMBER=100
GROUP_NUMBER=10
DEVICE_NUMBER=100
SENSOR_NUMBER=3000
INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0
POINT_STEP=500
OP_MIN_INTERVAL=0
IS_OUT_OF_ORDER=false
BATCH_SIZE_PER_WRITE=1
LOOP=3
TEST_DATA_PERSISTENCE=MySQL
TEST_DATA_STORE_IP=127.0.0.1
TEST_DATA_STORE_PORT=3306
TEST_DATA_STORE_DB=demo
TEST_DATA_STORE_USER=root
TEST_DATA_STORE_PW=admin
REMARK=demo
`), 0o644)
	js := filepath.Join(dir, "out.json")
	r := tsbench(t, nil, "run", "--properties", props, "--target", "sqlite", "--data-dir", dir, "--json", js, "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "admin") {
		t.Fatal("TEST_DATA_STORE_PW leaked into the output")
	}
	s := readSummary(t, js)
	w := s.Op("INGESTION")
	const want = 100 * 3 * 3000 // devices x LOOP x sensors, batch 1
	if w == nil || w.OKOperations != 300 || w.OKPoints != want {
		t.Fatalf("INGESTION = %+v, want 300 operations and %d points", w, want)
	}
	if s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints != want {
		t.Fatalf("verify = %+v", s.Verify)
	}
	db := openDB(t, filepath.Join(dir, "sqlite", "test.db"))
	if n := queryInt(t, db, "SELECT count(DISTINCT device) FROM series"); n != 100 {
		t.Fatalf("%d devices stored, want 100", n)
	}
	if n := queryInt(t, db, "SELECT count(DISTINCT grp) FROM devices"); n != 10 {
		t.Fatalf("%d groups stored, want 10 (GROUP_NUMBER)", n)
	}
	if n := queryInt(t, db, "SELECT count(*) FROM series WHERE type <> 'DOUBLE'"); n != 0 {
		t.Fatalf("%d series are not DOUBLE", n)
	}
	if strings.Contains(s.Config["password"].(string), "root") {
		t.Fatal("PASSWORD is not redacted in the JSON config")
	}
}

// The end-to-end runs fail on a stack trace, and only on one: the tool's
// own notes may name goroutines.
func TestPrintedStackTrace(t *testing.T) {
	inParallel(t)
	for _, c := range []struct {
		stderr string
		want   bool
	}{
		{"panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n", true},
		{"fatal error: all goroutines are asleep - deadlock!\n", true},
		{"tsbench: run 1\ngoroutine 17 [chan receive]:\n", true},
		{"tsbench: note: CLIENT_IO = auto: a goroutine a client serves the connections\n", false},
		{"tsbench: warning: a client's goroutine [1] waited\n", false},
		{"tsbench: no panic: here\n", false},
		{"", false},
	} {
		if got := printedStackTrace(c.stderr); got != c.want {
			t.Errorf("printedStackTrace(%q) = %v, want %v", c.stderr, got, c.want)
		}
	}
}
