package results

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
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

// runs are three stored runs: two sqlite ones a day apart and a postgres
// one with a failed threshold and failed operations.
func sampleRuns() []*summary.Summary {
	a := resultstest.Summary(resultstest.Run{ID: "20260301-120000-aaaaaa", Started: t0, Seconds: 5, Seed: 1,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 200, Points: 100, Latency: 2 * time.Millisecond},
			{Op: 2, OpsPerSec: 50, Points: 10, Latency: 5 * time.Millisecond}}})
	b := resultstest.Summary(resultstest.Run{ID: "20260302-120000-bbbbbb", Started: t0.Add(24 * time.Hour), Seconds: 4, Seed: 2,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 300, Points: 100, Latency: time.Millisecond}}})
	b.Scenario = "hakom-load/write"
	c := resultstest.Summary(resultstest.Run{ID: "20260303-120000-cccccc", Target: "postgres", Started: t0.Add(48 * time.Hour), Seconds: 3, Seed: 3,
		Ops: []resultstest.Op{{Op: workload.Write, OpsPerSec: 100, Points: 10, Latency: 3 * time.Millisecond, FailPerSec: 1}}})
	c.Thresholds = []summary.ThresholdResult{{Expr: "errors==0", Passed: false, Actual: 3}}
	return []*summary.Summary{a, b, c}
}

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "results.db")
	loc, err := ParseLocation("", path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, path
}

func TestSQLiteRoundTrip(t *testing.T) {
	st, path := openTemp(t)
	if st.Location().String() != path {
		t.Errorf("location %q, want %q", st.Location(), path)
	}
	roundTrip(t, st)
}

// roundTrip saves the sample runs, lists them with every filter, reads
// them back exactly and checks the plain tables; shared by every dialect.
func roundTrip(t *testing.T, st *Store) {
	ctx := context.Background()
	runs := sampleRuns()
	for _, s := range runs {
		if err := st.Save(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	// Saving again replaces, never duplicates.
	if err := st.Save(ctx, runs[0]); err != nil {
		t.Fatal(err)
	}
	all, err := st.List(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if ids := infoIDs(all); !reflect.DeepEqual(ids, []string{runs[2].RunID, runs[1].RunID, runs[0].RunID}) {
		t.Fatalf("List: %v, want newest first", ids)
	}
	c := all[0]
	if c.Status != "threshold-failed" || c.Target != "postgres" || c.Operation != "INGESTION" || c.FailOps != 3 ||
		c.Throughput != runs[2].Operations[0].Throughput || c.P99MS != runs[2].Operations[0].LatencyMS.P99 || !c.Started.Equal(runs[2].Started) {
		t.Errorf("list entry %+v", c)
	}
	filters := []struct {
		f    Filter
		want []string
	}{
		{Filter{Target: "SQLITE"}, []string{runs[1].RunID, runs[0].RunID}},
		{Filter{Scenario: "hakom"}, []string{runs[1].RunID}},
		{Filter{Scenario: "hakom_"}, nil}, // LIKE wildcards are literal
		{Filter{Since: t0.Add(36 * time.Hour)}, []string{runs[2].RunID}},
		{Filter{Limit: 2}, []string{runs[2].RunID, runs[1].RunID}},
		{Filter{Status: "ok"}, []string{runs[1].RunID, runs[0].RunID}},
		{Filter{Target: "sqlite", Since: t0.Add(time.Hour)}, []string{runs[1].RunID}},
	}
	for _, f := range filters {
		got, err := st.List(ctx, f.f)
		if err != nil {
			t.Fatal(err)
		}
		if ids := infoIDs(got); !reflect.DeepEqual(ids, f.want) {
			t.Errorf("List(%+v) = %v, want %v", f.f, ids, f.want)
		}
	}
	for _, s := range runs {
		got, err := st.Get(ctx, s.RunID)
		if err != nil {
			t.Fatal(err)
		}
		assertSameRun(t, s, got)
	}
	for ref, want := range map[string]string{"latest": runs[2].RunID, "latest~1": runs[1].RunID, "last~2": runs[0].RunID,
		"20260302": runs[1].RunID} {
		if id, err := st.Resolve(ctx, ref); err != nil || id != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", ref, id, err, want)
		}
	}
	if _, err := st.Resolve(ctx, "2026030"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := st.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown run: %v", err)
	}
	if _, err := st.Resolve(ctx, "latest~9"); !errors.Is(err, ErrNotFound) {
		t.Errorf("latest~9: %v", err)
	}
	// The plain tables hold what SQL users query.
	db := st.DB()
	count := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		if err := db.QueryRow(st.d.rebind(q), args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	id := runs[0].RunID
	if n := count("SELECT COUNT(*) FROM tsbench_operations WHERE run_id = ?", id); n != 2 {
		t.Errorf("operations rows %d, want 2", n)
	}
	var ivRows int64
	for _, iv := range runs[0].Intervals {
		ivRows += int64(len(iv.Ops))
	}
	if n := count("SELECT COUNT(*) FROM tsbench_intervals WHERE run_id = ?", id); n != ivRows {
		t.Errorf("interval rows %d, want %d", n, ivRows)
	}
	if n := count("SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ?", id); n != int64(len(runs[0].Resources.Samples)) {
		t.Errorf("resource rows %d, want %d", n, len(runs[0].Resources.Samples))
	}
	if n := count("SELECT COUNT(*) FROM tsbench_thresholds WHERE run_id = ? AND passed = 0", runs[2].RunID); n != 1 {
		t.Errorf("threshold rows %d, want 1", n)
	}
	var hist string
	if err := db.QueryRow(st.d.rebind("SELECT hdr_histogram FROM tsbench_operations WHERE run_id = ? AND name = ?"), id, "INGESTION").Scan(&hist); err != nil {
		t.Fatal(err)
	}
	h, err := metrics.Decode(hist)
	if err != nil || h.TotalCount() != runs[0].Operations[0].OKOperations {
		t.Errorf("stored histogram: %v, count %d", err, h.TotalCount())
	}
	if gone, err := st.Delete(ctx, runs[1].RunID[:10]); err != nil || gone != runs[1].RunID {
		t.Fatalf("Delete: %q %v", gone, err)
	}
	if n := count("SELECT COUNT(*) FROM tsbench_intervals WHERE run_id = ?", runs[1].RunID); n != 0 {
		t.Errorf("deleted run left %d interval rows", n)
	}
}

func infoIDs(rs []RunInfo) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func assertSameRun(t *testing.T, want, got *summary.Summary) {
	t.Helper()
	// JSON normalises a few things (time zones, number types in Config).
	if !got.Started.Equal(want.Started) || !got.MeasureStarted.Equal(want.MeasureStarted) {
		t.Errorf("%s: times differ", want.RunID)
	}
	got.Started, got.MeasureStarted = want.Started, want.MeasureStarted
	for i := range got.Resources.Samples {
		got.Resources.Samples[i].Time = want.Resources.Samples[i].Time
	}
	got.Config = want.Config
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: stored run differs:\nwant %+v\ngot  %+v", want.RunID, want, got)
	}
}

func TestLockedStoreFailsClearly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.db")
	loc, _ := ParseLocation(path, "")
	loc.dsn = sqliteDSN(path, 200*time.Millisecond)
	st, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Another process holds the write lock.
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	err = st.Save(context.Background(), sampleRuns()[0])
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
	s := sampleRuns()[0]
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
		if err == io.EOF || h == nil {
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
	if Status(runs[0]) != "ok" || Status(runs[2]) != "threshold-failed" {
		t.Errorf("statuses %s %s", Status(runs[0]), Status(runs[2]))
	}
	s := *runs[0]
	s.Interrupted = true
	if Status(&s) != "interrupted" {
		t.Error("interrupted")
	}
	s = *runs[0]
	s.Verify = &summary.Verify{ExpectedPoints: 2, StoredPoints: 1}
	if Status(&s) != "verify-failed" {
		t.Error("verify")
	}
	s = *runs[0]
	s.Operations = s.Operations[1:]
	if h := Headline(&s); h == nil || h.Name != s.Operations[0].Name {
		t.Errorf("headline without writes: %+v", h)
	}
}
