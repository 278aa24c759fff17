package spark

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/analytics/analyticstest"
	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/postgres"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// testDB is the database the tests write to: their own, so that they never
// drop the tables of another package's tests running at the same time.
const testDB = "tsbench_spark"

// The das-events scenario's five analytics queries, run by Spark against
// PostgreSQL over JDBC (tags in JSONB, read by Spark as text), twice each,
// give the generator's answers. Spark against MariaDB is cmd/tsbench's
// TestSparkAwayFromCheckout, through the whole command: a second Spark
// job here (a JVM's start and a MariaDB load, about 25 CPU-seconds of a
// CPU-bound CI run) checked the same answers again.
func TestPostgres(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	engine := requireSpark(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	pg, err := pgx.Connect(ctx, "host=127.0.0.1 port=5433 dbname=postgres user=postgres password=postgres sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(context.Background())
	var n int
	if err := pg.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", testDB).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		if _, err := pg.Exec(ctx, "CREATE DATABASE "+testDB); err != nil && !strings.Contains(err.Error(), "already exists") {
			t.Fatal(err)
		}
	}
	runEngine(ctx, t, engine, "postgres", targets.Options{Database: testDB})
}

func requireSpark(t *testing.T) Engine {
	t.Helper()
	e, err := Engine{}.Locate()
	if err != nil {
		testenv.Require(t, "Spark is not installed ("+err.Error()+")")
	}
	return e
}

// runEngine writes 20 devices x 50 events through the real target, then runs
// das-events' analytics on Spark twice each and checks every answer.
func runEngine(ctx context.Context, t *testing.T, e Engine, name string, o targets.Options) {
	t.Helper()
	qs := analyticstest.DASQueries(t)
	const rows = 50
	_, g := analyticstest.Load(ctx, t, name, o, analyticstest.Events{Start: 1_451_606_400_000, Devices: 20, Seed: 3, Batch: rows,
		Tags: analyticstest.DASTags}, 1)
	e.Log = testLog{t}
	t0 := time.Now()
	out, err := e.Run(ctx, name, o, g, rows, qs, 2)
	t.Logf("Spark job on %s took %.1f s", e.Master, time.Since(t0).Seconds())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(qs) {
		t.Fatalf("%d outcomes for %d queries", len(out), len(qs))
	}
	for _, o := range out {
		t.Logf("%-22s runs %d, seconds %.3f, result rows %d, checked %v", o.Name, o.Runs, o.Seconds, o.Rows, o.Checked)
		if !o.Checked || o.Error != "" || o.Runs != 2 || len(o.Seconds) != 2 || o.Rows == 0 {
			t.Errorf("%s: %+v", o.Name, o)
		}
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// A missing Spark install is an error that names the install script.
func TestLocateMissing(t *testing.T) {
	t.Setenv("TSBENCH_SPARK_SUBMIT", "")
	t.Setenv("TSBENCH_CACHE_DIR", t.TempDir())
	_, err := Engine{}.Locate()
	if err == nil || !strings.Contains(err.Error(), InstallScript) {
		t.Fatalf("Locate without an install: %v, want an error naming %s", err, InstallScript)
	}
}

// The password reaches the job in its environment only: not on the command
// line, and never in an error, even when the job prints it.
func TestPasswordStaysSecret(t *testing.T) {
	const secret = "s3cret-Pw"
	dir := t.TempDir()
	submit := filepath.Join(dir, "spark-submit")
	script := `#!/bin/sh
echo "args: $*" >&2
[ "$TSBENCH_SPARK_PASSWORD" = "` + secret + `" ] && echo '{"name": "count", "run": 0, "seconds": 0.25}'
echo "env: $TSBENCH_SPARK_PASSWORD" >&2
exit 3
`
	if err := os.WriteFile(submit, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	job := filepath.Join(dir, "job.py")
	if err := os.WriteFile(job, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := storeFor("mysql", targets.Options{User: "bench", Password: secret, Database: "events"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(st.jdbcURL, secret) {
		t.Fatalf("JDBC URL %q holds the password", st.jdbcURL)
	}
	var log strings.Builder
	e := Engine{Master: "local[1]", Submit: submit, Jars: []string{"a.jar"}, Job: job, DriverMemory: "1g", Log: &log}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines, err := e.submit(ctx, st, []jobQuery{{Name: "count", Kind: "COUNT_ROWS", Table: ResultTable("count")}}, 1)
	if len(lines) != 1 || lines[0].Seconds == nil || *lines[0].Seconds != 0.25 {
		t.Errorf("lines %+v: the job did not get the password in its environment", lines)
	}
	if err == nil {
		t.Fatal("a failing job gave no error")
	}
	for what, text := range map[string]string{"error": err.Error(), "log": log.String()} {
		if strings.Contains(text, secret) {
			t.Errorf("the password is in the %s: %s", what, text)
		}
	}
	if !strings.Contains(log.String(), "--user bench") || !strings.Contains(log.String(), "env: ********") {
		t.Errorf("log %q: want the arguments and the redacted password", log.String())
	}
}

// Result tables have plain lower-case names (PostgreSQL folds unquoted ones).
func TestResultTable(t *testing.T) {
	for in, want := range map[string]string{"cityUsage": "tsbench_spark_cityusage", "peak-Range x": "tsbench_spark_peak_range_x"} {
		if got := ResultTable(in); got != want {
			t.Errorf("ResultTable(%q) = %q, want %q", in, got, want)
		}
	}
}

// fakeSubmit is a spark-submit that prints the job file it was given to
// standard error and reports one run of "count" when that file starts
// with want.
func fakeSubmit(t *testing.T, want string) string {
	t.Helper()
	submit := filepath.Join(t.TempDir(), "spark-submit")
	script := `#!/bin/sh
for a; do case "$a" in *.py) job=$a;; esac; done
echo "job: $job" >&2
head -n 1 "$job" | grep -qF '` + want + `' && echo '{"name": "count", "run": 0, "seconds": 0.5}'
exit 0
`
	if err := os.WriteFile(submit, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return submit
}

// submitOnce runs e's job once on a fake store and returns the job's lines
// and Spark's log.
func submitOnce(t *testing.T, e Engine) ([]jobLine, string) {
	t.Helper()
	st, err := storeFor("mysql", targets.Options{Database: "events"})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	e.Master, e.Jars, e.DriverMemory, e.Log = "local[1]", []string{"a.jar"}, "1g", &log
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	lines, err := e.submit(ctx, st, []jobQuery{{Name: "count", Kind: "COUNT_ROWS", Table: ResultTable("count")}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return lines, log.String()
}

// Without TSBENCH_SPARK_JOB the job built into the binary runs, from a
// temporary file that is gone once the job ends: no checkout is needed.
func TestBuiltInJob(t *testing.T) {
	t.Setenv("TSBENCH_SPARK_JOB", "")
	t.Chdir(t.TempDir()) // nothing of the checkout around
	e, err := Engine{Submit: fakeSubmit(t, `"""The das-events analytics phase`), Jars: []string{"a.jar"}}.Locate()
	if err != nil {
		t.Fatal(err)
	}
	if e.Job != "" {
		t.Fatalf("Locate chose job %q, want the built-in one", e.Job)
	}
	lines, log := submitOnce(t, e)
	if len(lines) != 1 {
		t.Fatalf("lines %+v, log %q: spark-submit did not get the built-in job", lines, log)
	}
	job := strings.TrimSpace(strings.TrimPrefix(log, "job: "))
	if filepath.Base(job) != "das_analytics.py" {
		t.Fatalf("log %q: want the job's path", log)
	}
	if _, err := os.Stat(job); !os.IsNotExist(err) {
		t.Errorf("the job's temporary file %s is still there (%v)", job, err)
	}
}

// TSBENCH_SPARK_JOB replaces the built-in job, also as a path relative to
// the working directory; one that names no file is an error that says so.
func TestJobOverride(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("mine.py", []byte("# my job\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TSBENCH_SPARK_JOB", "mine.py")
	e, err := Engine{Submit: fakeSubmit(t, "# my job"), Jars: []string{"a.jar"}}.Locate()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "mine.py"); e.Job != want {
		t.Fatalf("Locate chose job %q, want %q", e.Job, want)
	}
	if lines, log := submitOnce(t, e); len(lines) != 1 {
		t.Fatalf("lines %+v, log %q: spark-submit did not get TSBENCH_SPARK_JOB", lines, log)
	}
	t.Setenv("TSBENCH_SPARK_JOB", "missing.py")
	if _, err := (Engine{Submit: e.Submit, Jars: e.Jars}).Locate(); err == nil || !strings.Contains(err.Error(), "missing.py") {
		t.Fatalf("Locate with a missing TSBENCH_SPARK_JOB: %v, want an error naming it", err)
	}
}
