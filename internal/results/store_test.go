package results

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// sampleRuns are three runs: two sqlite ones a day apart and a postgres
// one with a failed threshold and failed operations.
func sampleRuns() []*summary.Summary { return sampleRunsAt("", t0) }

// sampleRunsAt are sampleRuns with ids that start with prefix, started
// from base on.
func sampleRunsAt(prefix string, base time.Time) []*summary.Summary {
	a := resultstest.Summary(resultstest.Run{ID: prefix + "20260301-120000-aaaaaa", Started: base, Seconds: 5, Seed: 1,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 200, Points: 100, Latency: 2 * time.Millisecond},
			{Op: 2, OpsPerSec: 50, Points: 10, Latency: 5 * time.Millisecond}}})
	a.Scenario = "load_100%!größe"
	b := resultstest.Summary(resultstest.Run{ID: prefix + "20260302-120000-bbbbbb", Started: base.Add(24 * time.Hour), Seconds: 4, Seed: 2,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 300, Points: 100, Latency: time.Millisecond}}})
	b.Scenario = "hakom-load/write"
	c := resultstest.Summary(resultstest.Run{ID: prefix + "20260303-120000-cccccc", Target: "postgres", Started: base.Add(48 * time.Hour), Seconds: 3, Seed: 3,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 100, Points: 10, Latency: 3 * time.Millisecond, FailPerSec: 1}}})
	c.Thresholds = []summary.ThresholdResult{{Expr: "errors==0", Passed: false, Actual: 3}}
	return []*summary.Summary{a, b, c}
}

// openTemp opens a new SQLite store in a directory it creates.
func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "results.db")
	return openSQLite(t, path, 0), path
}

// openSQLite opens the SQLite store at path, closed when the test ends;
// busy > 0 sets how long its calls wait for another's lock.
func openSQLite(t *testing.T, path string, busy time.Duration) *Store {
	t.Helper()
	loc, err := ParseLocation("", path)
	if err != nil {
		t.Fatal(err)
	}
	if busy > 0 {
		loc.dsn = sqliteDSN(path, busy)
	}
	st, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestSQLiteStore(t *testing.T) {
	st, path := openTemp(t)
	if st.Location().String() != path {
		t.Errorf("location %q, want %q", st.Location(), path)
	}
	runStoreChecks(t, st)
}

// fixture is what runStoreChecks stores: runs whose ids start with a
// prefix of their own and that started a century from now, so that the
// checks hold on a database other tests (and other runs of this one) share.
type fixture struct {
	prefix string
	base   time.Time
	runs   []*summary.Summary
}

// id is a fresh run id of the fixture.
func (fx *fixture) id(name string) string { return fx.prefix + name }

// ours keeps the ids of the fixture's runs, in order.
func (fx *fixture) ours(rs []RunInfo) []string {
	var out []string
	for _, r := range rs {
		if strings.HasPrefix(r.ID, fx.prefix) {
			out = append(out, r.ID)
		}
	}
	return out
}

// runStoreChecks is every check of a store, the same for each dialect. It
// deletes what it stored when the test ends.
func runStoreChecks(t *testing.T, st *Store) {
	now := time.Now().UTC()
	fx := &fixture{prefix: fmt.Sprintf("t%d-", now.UnixNano()), base: now.AddDate(100, 0, 0).Truncate(time.Millisecond)}
	fx.runs = sampleRunsAt(fx.prefix, fx.base)
	t.Cleanup(func() { deleteFixture(t, st, fx) })
	ctx := context.Background()
	for _, s := range fx.runs {
		if err := st.Save(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	checks := []struct {
		name string
		f    func(*testing.T, *Store, *fixture)
	}{
		{"save-get", checkSaveGet},
		{"list", checkList},
		{"resolve", checkResolve},
		{"tables", checkTables},
		{"large-and-unicode", checkLarge},
		{"running", checkRunning},
		{"save-replaces", checkReplace},
		{"journal", checkJournal},
		{"monitor-sessions", checkMonitorSessions},
		{"delete", checkDelete},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.f(t, st, fx) })
	}
}

// deleteFixture deletes the fixture's runs with plain SQL, not with the
// code under test, so that a broken store does not leave runs behind.
func deleteFixture(t *testing.T, st *Store, fx *fixture) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, table := range runTableNames {
		// The prefix is letters, digits and a dash: no LIKE wildcard.
		q := st.d.rebind("DELETE FROM " + table + " WHERE run_id LIKE ?")
		if _, err := st.DB().ExecContext(ctx, q, fx.prefix+"%"); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	}
	q := st.d.rebind("DELETE FROM tsbench_monitors WHERE monitor_id LIKE ?")
	if _, err := st.DB().ExecContext(ctx, q, fx.prefix+"%"); err != nil {
		t.Errorf("cleanup: %v", err)
	}
}

func checkSaveGet(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	// Saving again replaces, never duplicates.
	if err := st.Save(ctx, fx.runs[0]); err != nil {
		t.Fatal(err)
	}
	for _, s := range fx.runs {
		got, err := st.Get(ctx, s.RunID)
		if err != nil {
			t.Fatal(err)
		}
		assertSameJSON(t, s, got)
	}
}

func checkList(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	runs := fx.runs
	all, err := st.List(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if ids := fx.ours(all); !reflect.DeepEqual(ids, []string{runs[2].RunID, runs[1].RunID, runs[0].RunID}) {
		t.Fatalf("List: %v, want newest first", ids)
	}
	c := all[0]
	if c.ID != runs[2].RunID || c.Status != "threshold-failed" || c.Target != "postgres" || c.Operation != "INGESTION" || c.FailOps != 3 ||
		c.Throughput != runs[2].Operations[0].Throughput || c.P99MS != runs[2].Operations[0].LatencyMS.P99 ||
		!c.Started.Equal(runs[2].Started) || c.ElapsedS != runs[2].Elapsed || c.Hostname != "testhost" {
		t.Errorf("list entry %+v", c)
	}
	filters := []struct {
		f    Filter
		want []string
	}{
		{Filter{Target: "SQLITE"}, []string{runs[1].RunID, runs[0].RunID}},
		{Filter{Target: "sqlit"}, nil}, // exact
		{Filter{Scenario: "hakom"}, []string{runs[1].RunID}},
		{Filter{Scenario: "hakom_"}, nil}, // LIKE wildcards are literal
		{Filter{Scenario: "LOAD_100%!"}, []string{runs[0].RunID}},
		{Filter{Scenario: "load-100"}, nil},
		{Filter{Scenario: "load_100%%"}, nil},
		{Filter{Status: "ok"}, []string{runs[1].RunID, runs[0].RunID}},
		{Filter{Status: "threshold-failed"}, []string{runs[2].RunID}},
		{Filter{Since: fx.base.Add(36 * time.Hour)}, []string{runs[2].RunID}},
		{Filter{Since: fx.base}, []string{runs[2].RunID, runs[1].RunID, runs[0].RunID}},
		{Filter{Limit: 2}, []string{runs[2].RunID, runs[1].RunID}},
		{Filter{Target: "sqlite", Since: fx.base.Add(time.Hour)}, []string{runs[1].RunID}},
	}
	for _, f := range filters {
		got, err := st.List(ctx, f.f)
		if err != nil {
			t.Fatal(err)
		}
		if ids := fx.ours(got); !reflect.DeepEqual(ids, f.want) {
			t.Errorf("List(%+v) = %v, want %v", f.f, ids, f.want)
		}
	}
}

func checkResolve(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	runs := fx.runs
	cases := []struct {
		ref, want, err string
		notFound       bool
	}{
		{ref: runs[1].RunID, want: runs[1].RunID},
		{ref: fx.id("20260302"), want: runs[1].RunID},
		{ref: "latest", want: runs[2].RunID},
		{ref: "LAST", want: runs[2].RunID},
		{ref: "latest~1", want: runs[1].RunID},
		{ref: "last~2", want: runs[0].RunID},
		{ref: fx.id("2026030"), err: "ambiguous"},
		{ref: fx.id("2026030_"), notFound: true}, // a literal underscore
		{ref: fx.id("nope"), notFound: true},
		{ref: "latest~x", err: "latest~N"},
		{ref: " ", err: "empty"},
	}
	for _, c := range cases {
		id, err := st.Resolve(ctx, c.ref)
		switch {
		case c.notFound:
			if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), st.Location().String()) {
				t.Errorf("Resolve(%q) = %q, %v; want not found in %s", c.ref, id, err, st.Location())
			}
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Resolve(%q) = %q, %v; want an error saying %q", c.ref, id, err, c.err)
			}
		case err != nil || id != c.want:
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.ref, id, err, c.want)
		}
	}
	if _, err := st.Get(ctx, fx.id("nope")); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get of an unknown run: %v", err)
	}
}

// checkTables checks the plain tables SQL users query.
func checkTables(t *testing.T, st *Store, fx *fixture) {
	s := fx.runs[0]
	id := s.RunID
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_operations WHERE run_id = ?", id); n != 2 {
		t.Errorf("operations rows %d, want 2", n)
	}
	var ivRows int64
	for _, iv := range s.Intervals {
		ivRows += int64(len(iv.Ops))
	}
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_intervals WHERE run_id = ? AND operation <> ''", id); n != ivRows {
		t.Errorf("interval rows %d, want %d", n, ivRows)
	}
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ?", id); n != int64(len(s.Resources.Samples)) {
		t.Errorf("resource rows %d, want %d", n, len(s.Resources.Samples))
	}
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_thresholds WHERE run_id = ? AND passed = 0", fx.runs[2].RunID); n != 1 {
		t.Errorf("threshold rows %d, want 1", n)
	}
	// The series and the samples are kept once, in their tables, not
	// also in the summary.
	var body string
	if err := st.DB().QueryRow(st.d.rebind("SELECT summary_json FROM tsbench_runs WHERE run_id = ?"), id).Scan(&body); err != nil {
		t.Fatal(err)
	}
	var lean summary.Summary
	if err := json.Unmarshal([]byte(body), &lean); err != nil || len(s.Intervals) == 0 || len(s.Resources.Samples) == 0 ||
		len(lean.Intervals) != 0 || lean.Resources == nil || len(lean.Resources.Samples) != 0 {
		t.Errorf("summary_json holds %d intervals and %+v (%v)", len(lean.Intervals), lean.Resources, err)
	}
	// Samples merged from a database host come back as they went in.
	merged := *s
	res := *s.Resources
	merged.RunID, merged.Resources = fx.id("with-remote"), &res
	for i := range 3 {
		res.Remote = append(res.Remote, monitorSample("db-host", i, fx.base.Add(time.Duration(i)*time.Second)))
	}
	assertSaved(t, st, &merged)
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ? AND source = 'remote'", merged.RunID); n != 3 {
		t.Errorf("remote resource rows %d, want 3", n)
	}

	var hist string
	q := st.d.rebind("SELECT hdr_histogram FROM tsbench_operations WHERE run_id = ? AND name = ?")
	if err := st.DB().QueryRow(q, id, "INGESTION").Scan(&hist); err != nil {
		t.Fatal(err)
	}
	h, err := metrics.Decode(hist)
	if err != nil || h.TotalCount() != s.Operations[0].OKOperations {
		t.Fatalf("stored histogram: %v", err)
	}
}

func count(t *testing.T, st *Store, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := st.DB().QueryRow(st.d.rebind(q), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// checkLarge stores what outgrows small column types: a summary and
// histograms over MySQL's 64 KB TEXT, labels over 255 characters, and
// text that a latin1 column rejects.
func checkLarge(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	s := resultstest.Summary(resultstest.Run{ID: fx.id("large"), Started: fx.base.Add(-time.Hour), Seconds: 2, Seed: 9,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 100, Points: 10, Latency: time.Millisecond}}})
	big := strings.Repeat("QUJDREVGR0g=", 12_000) // 144 KB
	s.Operations[0].Histogram = big
	s.Intervals[1].Ops[0].Histogram = big
	s.Environment.ServerVersion = strings.Repeat("PostgreSQL 15.4 (Debian) on x86_64, compiled by gcc ", 8)
	s.Environment.Hostname = strings.Repeat("h", 300)
	s.Environment.CPUModel = "Intel® Xeon® — 雪 🚀"
	s.Scenario = "größe ✓ " + strings.Repeat("s", 300)
	s.Thresholds = []summary.ThresholdResult{{Expr: "p99<5ms ✓", Passed: true, Actual: 1, Reason: strings.Repeat("r", 1000)}}
	assertSaved(t, st, s)
	running := *s
	running.RunID = fx.id("large-running")
	if err := st.Begin(ctx, &running); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendInterval(ctx, running.RunID, len(s.Intervals), s.Intervals[1]); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(ctx, running.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(append([]summary.Interval(nil), s.Intervals...), s.Intervals[1]); !reflect.DeepEqual(got.Intervals, want) {
		t.Errorf("running run's intervals with a large histogram differ")
	}
}

func checkDelete(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	id := fx.runs[1].RunID
	if gone, err := st.Delete(ctx, fx.id("20260302")); err != nil || gone != id {
		t.Fatalf("Delete: %q %v", gone, err)
	}
	for _, table := range runTableNames {
		if n := count(t, st, "SELECT COUNT(*) FROM "+table+" WHERE run_id = ?", id); n != 0 {
			t.Errorf("deleted run left %d rows in %s", n, table)
		}
	}
	if _, err := st.Get(ctx, id); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get of a deleted run: %v", err)
	}
	if _, err := st.Delete(ctx, id); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete again: %v", err)
	}
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_intervals WHERE run_id = ?", fx.runs[0].RunID); n == 0 {
		t.Error("Delete removed another run's rows")
	}
}

// assertSaved saves run and checks that the store gives it back as it was.
func assertSaved(t *testing.T, st *Store, run *summary.Summary) {
	t.Helper()
	if err := st.Save(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(context.Background(), run.RunID)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, run, got)
}

// assertSameJSON compares runs by their JSON encodings: what the store
// keeps is the encoding, which normalises time zones and number types.
func assertSameJSON(t *testing.T, want, got *summary.Summary) {
	t.Helper()
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w, g) {
		t.Errorf("%s: stored run differs:\nwant %s\ngot  %s", want.RunID, diffAt(w, g), diffAt(g, w))
	}
}

// diffAt is a's text around where it first differs from b.
func diffAt(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return string(a[max(0, i-80):min(len(a), i+80)])
}

func TestLockedStoreFailsClearly(t *testing.T) {
	st, path := lockedStore(t, 200*time.Millisecond)
	resultstest.LockSQLite(t, path) // another process holds the write lock
	err := st.Save(context.Background(), sampleRuns()[0])
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(strings.ToLower(err.Error()), "lock") {
		t.Fatalf("Save on a locked store: %v; want an error naming %s and the lock", err, path)
	}
}

func TestUnwritableStore(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	loc, _ := ParseLocation(filepath.Join(file, "results.db"), "")
	if _, err := Open(context.Background(), loc); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("Open under a file: %v", err)
	}
}

func TestParseLocation(t *testing.T) {
	cases := []struct {
		spec, dialect, display string
	}{
		{"", "sqlite", "/data/results.db"},
		{"/tmp/r.db", "sqlite", "/tmp/r.db"},
		{"sqlite:/tmp/r.db", "sqlite", "/tmp/r.db"},
		{"postgres://bench:s3cret@db.example:5432/results?sslmode=disable", "postgres", "postgres://bench:xxxxx@db.example:5432/results?sslmode=disable"},
		{"postgresql://bench@db/results", "postgres", "postgresql://bench@db/results"},
		{"mysql://root:hunter2@127.0.0.1:3307/test", "mysql", "mysql://root:xxxxx@127.0.0.1:3307/test"},
		{"postgres://u@h/db?password=topsecret", "postgres", "postgres://u@h/db?password=xxxxx"},
	}
	for _, c := range cases {
		loc, err := ParseLocation(c.spec, "/data/results.db")
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		if loc.Dialect != c.dialect || loc.String() != c.display {
			t.Errorf("%q: %s %q, want %s %q", c.spec, loc.Dialect, loc.String(), c.dialect, c.display)
		}
		for _, secret := range []string{"s3cret", "hunter2", "topsecret"} {
			if strings.Contains(loc.String(), secret) {
				t.Errorf("%q: display shows the password", c.spec)
			}
		}
	}
	if loc, _ := ParseLocation("mysql://root:hunter2@127.0.0.1:3307/test?tls=false", ""); !strings.Contains(loc.dsn, "root:hunter2@tcp(127.0.0.1:3307)/test") {
		t.Errorf("mysql dsn %q", loc.dsn)
	}
	for _, bad := range []string{"redis://x:pw@h/1", "mysql://root:pw@h:1/"} {
		_, err := ParseLocation(bad, "")
		if err == nil || strings.Contains(err.Error(), "pw@") {
			t.Errorf("ParseLocation(%q) = %v; want an error without the password", bad, err)
		}
	}
}

// An unreachable database fails at once, naming the URL without its password.
func TestUnreachableDSN(t *testing.T) {
	for _, spec := range []string{"postgres://bench:s3cret@127.0.0.1:1/results", "mysql://root:s3cret@127.0.0.1:1/results"} {
		loc, err := ParseLocation(spec, "")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err = Open(ctx, loc)
		cancel()
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1") {
			t.Errorf("Open(%s) = %v; want an error naming the address, not the password", Redact(spec), err)
		}
	}
}

func TestExportCSV(t *testing.T) {
	s := sampleRuns()[0]
	dir := t.TempDir()
	files, err := WriteCSV(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files %v", files)
	}
	f, _ := os.Open(filepath.Join(dir, ResourcesCSV))
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != len(s.Resources.Samples)+1 || rows[1][0] != "local" || rows[1][4] == "" {
		t.Fatalf("resources.csv: %v %v", err, rows[:2])
	}
}

func TestHDRLogReadsBack(t *testing.T) {
	// Without per-interval histograms the log has one per operation.
	s := sampleRuns()[0]
	s.MeasureStarted = s.MeasureStarted.Add(345 * time.Millisecond) // a real start has milliseconds
	for i := range s.Intervals {
		for j := range s.Intervals[i].Ops {
			s.Intervals[i].Ops[j].Histogram = ""
		}
	}
	var buf bytes.Buffer
	n, err := WriteHDRLog(&buf, s)
	if err != nil || n != len(s.Operations) {
		t.Fatalf("WriteHDRLog: %d, %v", n, err)
	}
	text := buf.String()
	for _, want := range []string{"#[Histogram log format version 1.3]", "#[StartTime: ", "#[BaseTime: ", "Tag=INGESTION,0.000,5.000,"} {
		if !strings.Contains(text, want) {
			t.Errorf("log lacks %q:\n%s", want, text)
		}
	}
	r := hdrhistogram.NewHistogramLogReader(&buf)
	var got []*hdrhistogram.Histogram
	for {
		h, err := r.NextIntervalHistogram()
		if errors.Is(err, io.EOF) || h == nil {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, h)
	}
	if len(got) != len(s.Operations) {
		t.Fatalf("read back %d histograms, want %d", len(got), len(s.Operations))
	}
	for i, h := range got {
		o := s.Operations[i]
		if h.Tag() != o.Name || h.TotalCount() != o.OKOperations {
			t.Errorf("histogram %d: tag %q count %d, want %s %d", i, h.Tag(), h.TotalCount(), o.Name, o.OKOperations)
		}
		// The log's base time keeps the start's milliseconds.
		if start := s.MeasureStarted.UnixMilli(); s.MeasureStarted.IsZero() || h.StartTimeMs() < start-1 || h.StartTimeMs() > start+1 {
			t.Errorf("histogram %d starts at %d ms, the run's measured phase at %d ms", i, h.StartTimeMs(), start)
		}
	}

	// With per-interval histograms the log has one per operation and second.
	s2 := sampleRuns()[1]
	for i := range s2.Intervals {
		for j := range s2.Intervals[i].Ops {
			s2.Intervals[i].Ops[j].Histogram = s2.Operations[0].Histogram
		}
	}
	buf.Reset()
	if n, err := WriteHDRLog(&buf, s2); err != nil || n != len(s2.Intervals) {
		t.Fatalf("per-interval log: %d, %v", n, err)
	}
	if !strings.Contains(buf.String(), "Tag=INGESTION,1.000,1.000,") {
		t.Errorf("per-interval log:\n%s", buf.String())
	}
}

func TestStatusAndHeadline(t *testing.T) {
	runs := sampleRuns()
	if runs[0].Status() != "ok" || runs[2].Status() != "threshold-failed" {
		t.Errorf("statuses %s %s", runs[0].Status(), runs[2].Status())
	}
	s := *runs[0]
	s.Interrupted = true
	if s.Status() != "interrupted" {
		t.Error("interrupted")
	}
	s = *runs[0]
	s.Verify = &summary.Verify{ExpectedPoints: 2, StoredPoints: 1}
	if s.Status() != "verify-failed" {
		t.Error("verify")
	}
	s = *runs[0]
	s.Operations = s.Operations[1:]
	if h := Headline(&s); h == nil || h.Name != s.Operations[0].Name {
		t.Errorf("headline without writes: %+v", h)
	}
}

// Workers read back by stage, in index order, with what they registered;
// an index registered twice at a stage is refused, naming the first.
func TestWorkerRows(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, w := range []WorkerRow{
		{Group: "g", Index: 1, Stage: "schema", Workers: 2, RunID: "run-1", Hostname: "h1", At: at},
		{Group: "g", Index: 0, Stage: "schema", Workers: 2, RunID: "run-0", Hostname: "h0", At: at.Add(time.Second)},
		{Group: "g", Index: 0, Stage: "ready", Workers: 2, RunID: "run-0", At: at.Add(2 * time.Second)},
		{Group: "other", Index: 0, Stage: "schema", Workers: 1, RunID: "run-x", At: at},
	} {
		if err := st.RegisterWorker(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	schema, err := st.WorkerRows(ctx, "g", "schema")
	if err != nil || len(schema) != 2 || schema[0].Index != 0 || schema[1].Index != 1 {
		t.Fatalf("stage schema: %+v %v", schema, err)
	}
	if w := schema[1]; w.RunID != "run-1" || w.Hostname != "h1" || !w.At.Equal(at) || w.Workers != 2 || w.Group != "g" {
		t.Errorf("worker 1: %+v", w)
	}
	if all, err := st.WorkerRows(ctx, "g", ""); err != nil || len(all) != 3 {
		t.Fatalf("every stage: %+v %v", all, err)
	}
	err = st.RegisterWorker(ctx, WorkerRow{Group: "g", Index: 1, Stage: "schema", Workers: 2, RunID: "run-again", At: at})
	if !errors.Is(err, ErrWorkerTaken) || !strings.Contains(err.Error(), "run run-1 on h1") {
		t.Fatalf("a second worker 1: %v", err)
	}
}
