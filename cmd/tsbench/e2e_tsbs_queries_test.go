package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/tsbs"
	"github.com/tsbench/tsbench/internal/tsbs/queryfile"
)

// The TSBS query files the tests run: written by tsbs_generate_queries
// (internal/tsbs/testdata/golden), seed 123, 4 queries each, over
// 2016-01-01 to 2016-01-03 (lastpoint: its first hour).
var tsbsQueryGolden = filepath.Join("..", "..", "internal", "tsbs", "testdata", "golden")

// tsbsQueryData is TSBS's own cpu-only data over the queries' two days, 8
// hosts (the 8-host query types need them), made by tsbs.Exact (equal to
// tsbs_generate_data's, internal/tsbs TestExactGolden).
func tsbsQueryData(t *testing.T) *tsbs.Exact { return tsbsData(t, "cpu-only", 8) }

// tsbsData is TSBS's own data of a use case over the queries' two days.
func tsbsData(t *testing.T, useCase string, scale int) *tsbs.Exact {
	t.Helper()
	g, err := tsbs.NewExact(tsbs.ExactConfig{UseCase: useCase, Seed: 123, Scale: scale,
		Start: time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2016, 1, 3, 0, 0, 0, 0, time.UTC), Interval: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// loadTSBSPostgres loads TSBS's data into database db as
// tsbs_load_timescaledb lays it out on plain PostgreSQL: a tags table (id,
// one TEXT column per tag, ids in order of the hosts) and a cpu table
// (time, tags_id, the hostname too, as --in-table-partition-tag keeps it,
// a DOUBLE PRECISION column per field, additional_tags JSONB left empty),
// with its indexes, so that TSBS's SQL with and without its tags table runs
// as written and `SELECT *` answers TSBS's columns (checked against
// tsbs_load_timescaledb --use-hypertable=false --in-table-partition-tag).
func loadTSBSPostgres(t *testing.T, db string) {
	t.Helper()
	ctx, pg := freshPostgresDB(t, db)
	g := tsbsQueryData(t)
	tagKeys := g.Header().TagKeys
	fields := g.Header().Tables[0].Fields
	ddl := "CREATE TABLE tags (id INTEGER PRIMARY KEY, " + strings.Join(tagKeys, " TEXT, ") + " TEXT);" +
		"CREATE TABLE cpu (time TIMESTAMPTZ, tags_id INTEGER, hostname TEXT, " + strings.Join(fields, " DOUBLE PRECISION, ") + " DOUBLE PRECISION, additional_tags JSONB)"
	if _, err := pg.Exec(ctx, ddl); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	var tagRows, cpuRows [][]any
	for r, ok := g.Next(); ok; r, ok = g.Next() {
		host := r.Tags[0].Value.Str
		id, seen := ids[host]
		if !seen {
			id = len(ids) + 1
			ids[host] = id
			row := []any{id}
			for _, p := range r.Tags {
				row = append(row, p.Value.Text())
			}
			tagRows = append(tagRows, row)
		}
		row := []any{r.Time, id, host}
		for _, p := range r.Fields {
			row = append(row, float64(p.Value.Int))
		}
		cpuRows = append(cpuRows, row)
	}
	if _, err := pg.CopyFrom(ctx, pgx.Identifier{"tags"}, append([]string{"id"}, tagKeys...), pgx.CopyFromRows(tagRows)); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.CopyFrom(ctx, pgx.Identifier{"cpu"}, append([]string{"time", "tags_id", "hostname"}, fields...), pgx.CopyFromRows(cpuRows)); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Exec(ctx, "CREATE INDEX ON cpu (hostname, time DESC); CREATE INDEX ON cpu (time DESC); CREATE INDEX ON tags (hostname); ANALYZE"); err != nil {
		t.Fatal(err)
	}
}

// freshPostgresDB replaces database db on the test PostgreSQL with an empty
// one and connects to it, for a load bounded by the context it returns;
// both end with the test.
func freshPostgresDB(t *testing.T, db string) (context.Context, *pgx.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	admin, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:5433/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db} {
		if _, err := admin.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	pg, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:5433/"+db+"?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close(context.Background()) })
	return ctx, pg
}

// loadTSBSVictoriaMetrics sends TSBS's data in its influx format to
// VictoriaMetrics' InfluxDB write endpoint, as tsbs_load_victoriametrics
// does (cpu's usage_user becomes the series cpu_usage_user), and flushes it.
// VictoriaMetrics has no databases: the series are deleted when the test
// ends, so that no other test meets them.
func loadTSBSVictoriaMetrics(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		match := url.QueryEscape(`{__name__=~"cpu_.+",hostname=~"host_[0-9]+"}`)
		postOK(t, "http://127.0.0.1:8428/api/v1/admin/tsdb/delete_series?match[]="+match, nil)
	})
	postOK(t, "http://127.0.0.1:8428/write", tsbsInflux(t, tsbsQueryData(t)))
	postOK(t, "http://127.0.0.1:8428/internal/force_flush", nil)
}

// tsbsInflux is g's rows in TSBS's influx format.
func tsbsInflux(t *testing.T, g *tsbs.Exact) []byte {
	t.Helper()
	var body bytes.Buffer
	if _, err := tsbs.WriteExact(&body, "influx", g); err != nil {
		t.Fatal(err)
	}
	return body.Bytes()
}

// postOK posts body to a test server and fails the test unless it
// answers 2xx.
func postOK(t *testing.T, url string, body []byte) {
	t.Helper()
	resp, err := http.Post(url, "text/plain", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %s", url, resp.Status)
	}
}

// runTSBSQueryFile runs one golden query file through --tsbs-queries and
// returns its stored summary and output, failing the test unless it
// exited 0.
func runTSBSQueryFile(t *testing.T, target, file string, extra ...string) (*summary.Summary, string) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "run.json")
	args := append([]string{"run", "--target", target, "--tsbs-queries", filepath.Join(tsbsQueryGolden, file),
		"--clients", "2", "--json", js, "--results", "off", "--quiet"}, extra...)
	r := tsbench(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("%s: exit %d\n%s\n%s", file, r.code, tail(r.stdout, 30), r.stderr)
	}
	return readSummary(t, js), r.stdout
}

// tsbsAnswers checks a query-file run: the server's version named, one
// operation, its four queries answered, none failed, rows in all (0: not
// checked), and TSBS's statistics printed.
func tsbsAnswers(t *testing.T, s *summary.Summary, stdout string, rows int64) {
	t.Helper()
	if len(s.Operations) != 1 {
		t.Fatalf("%d operations, want the file's one query type: %+v", len(s.Operations), s.Operations)
	}
	if s.Environment.ServerVersion == "" {
		t.Error("the run names no server version")
	}
	op := s.Operations[0]
	if op.OKOperations != 4 || op.FailOperations != 0 {
		t.Errorf("%s: %d answered, %d failed; want 4 and 0 (%+v)", op.Name, op.OKOperations, op.FailOperations, op.Failures)
	}
	if rows > 0 && op.OKPoints != rows {
		t.Errorf("%s: %d rows in the answers, want %d", op.Name, op.OKPoints, rows)
	}
	if !strings.Contains(stdout, "\nRun complete after 4 queries with ") || !strings.Contains(stdout, "\n"+op.Name+":\nmin: ") ||
		!strings.Contains(stdout, ", count: 4\nall queries") || strings.Contains(stdout, "failed queries:") {
		t.Errorf("no TSBS statistics for %s in:\n%s", op.Name, tail(stdout, 12))
	}
}

// TestTSBSQueryFilesOnPostgres runs every devops query file TSBS wrote for
// its timescaledb format, with and without its tags table, as written, on
// TSBS's data in TSBS's tables, and compares every answer, value by value,
// with the one TSBS's own runner gave on the same data
// (tsbs_run_queries_timescaledb --print-responses, in
// internal/tsbs/testdata/golden/responses). The answers' sizes are also
// counted here from each query's window: TSBS's buckets are on the clock,
// so a window from a random start holds a part-bucket at each end when a
// reading falls in it; lastpoint answers every host,
// groupby-orderby-limit five minutes.
func TestTSBSQueryFilesOnPostgres(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "postgres")
	loadTSBSPostgres(t, "tsbs_queries")
	eachQueryFile(t, "devops_timescaledb*.gob", 30, func(t *testing.T, f string) {
		s, stdout := runTSBSQueryFile(t, "postgres", filepath.Base(f), "--set", "DB_NAME=tsbs_queries", "--print-responses", "--clients", "1")
		tsbsAnswers(t, s, stdout, tsbsExpectedRows(t, f))
		got, _, _ := strings.Cut(stdout, "Create schema cost")
		sameResponses(t, decodeResponses(t, got), decodeResponses(t, goldenResponses(t, f)))
	})
}

// eachQueryFile checks every golden query file matching pattern, in a
// subtest of its own, after checking that TSBS wrote want of them.
func eachQueryFile(t *testing.T, pattern string, want int, check func(t *testing.T, file string)) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(tsbsQueryGolden, pattern))
	if len(files) != want {
		t.Fatalf("%d query files %s, want TSBS's %d", len(files), pattern, want)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { check(t, f) })
	}
}

// goldenResponses are the answers TSBS's runner printed for query file f.
func goldenResponses(t *testing.T, f string) string {
	t.Helper()
	return goldenText(t, filepath.Join(tsbsQueryGolden, "responses", strings.TrimSuffix(filepath.Base(f), ".gob")+".json"))
}

// tsbsResponse is one answer as TSBS's --print-responses prints it.
type tsbsResponse struct {
	Query   string           `json:"query"`
	Results []map[string]any `json:"results"`
}

// decodeResponses reads a stream of printed answers.
func decodeResponses(t *testing.T, text string) []tsbsResponse {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	var out []tsbsResponse
	for dec.More() {
		var r tsbsResponse
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("answer %d: %v", len(out)+1, err)
		}
		out = append(out, r)
	}
	return out
}

// sameResponses compares tsbench's answers with TSBS's, query by query and
// value by value: in order where the SQL orders its rows, as multisets
// where it does not (high-cpu's SELECT *, whose order is the plan's).
func sameResponses(t *testing.T, got, want []tsbsResponse) {
	t.Helper()
	if len(got) != len(want) || len(want) != 4 {
		t.Fatalf("%d answers, TSBS's runner gave %d (want 4)", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Query != w.Query {
			t.Errorf("answer %d is to %q, TSBS's to %q", i+1, g.Query, w.Query)
			continue
		}
		gr, wr := rowTexts(t, g.Results), rowTexts(t, w.Results)
		if !strings.Contains(w.Query, "ORDER BY") {
			slices.Sort(gr)
			slices.Sort(wr)
		}
		if len(gr) != len(wr) {
			t.Errorf("answer %d: %d rows, TSBS's %d", i+1, len(gr), len(wr))
			continue
		}
		for k := range wr {
			if gr[k] != wr[k] {
				t.Errorf("answer %d, row %d:\n got  %s\n TSBS %s", i+1, k, gr[k], wr[k])
				break
			}
		}
	}
}

// rowTexts are rows as canonical JSON (keys sorted, numbers as decoded).
func rowTexts(t *testing.T, rows []map[string]any) []string {
	t.Helper()
	out := make([]string, len(rows))
	for i, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// tsbsExpectedRows counts the rows TSBS's SQL answers on tsbsQueryData (8
// hosts, a reading every 10 s over two days) for every query of file: the
// clock buckets of each window that hold a reading, times the hosts the
// answer groups by; 0 where the count depends on the values (high-cpu).
func tsbsExpectedRows(t *testing.T, file string) int64 {
	t.Helper()
	qs, err := queryfile.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	typ := tsbsQueryType(filepath.Base(file))
	var rows int64
	for _, q := range qs {
		switch {
		case strings.HasPrefix(typ, "single-groupby"):
			rows += clockBuckets(t, q.SQL, time.Minute)
		case strings.HasPrefix(typ, "cpu-max-all"):
			rows += clockBuckets(t, q.SQL, time.Hour)
		case strings.HasPrefix(typ, "double-groupby"):
			rows += 8 * clockBuckets(t, q.SQL, time.Hour)
		case typ == "lastpoint":
			rows += 8
		case typ == "groupby-orderby-limit":
			rows += 5
		default:
			return 0
		}
	}
	return rows
}

// sqlWindow matches TSBS's window bounds in its SQL.
var sqlWindow = regexp.MustCompile(`time >= '([^']+)' AND time < '([^']+)'`)

// clockBuckets counts the buckets of size b, aligned on the epoch, that
// hold a reading (every 10 s from midnight) of the SQL's window [s, e).
func clockBuckets(t *testing.T, sql string, b time.Duration) int64 {
	t.Helper()
	m := sqlWindow.FindStringSubmatch(sql)
	if m == nil {
		t.Fatalf("no window in %s", sql)
	}
	const layout = "2006-01-02 15:04:05.999999 -0700"
	s, err1 := time.Parse(layout, m[1])
	e, err2 := time.Parse(layout, m[2])
	if err1 != nil || err2 != nil {
		t.Fatalf("window %q %q: %v %v", m[1], m[2], err1, err2)
	}
	seen := map[int64]bool{}
	for r := s.Truncate(10 * time.Second); r.Before(e); r = r.Add(10 * time.Second) {
		if !r.Before(s) {
			seen[r.Unix()/int64(b/time.Second)] = true
		}
	}
	return int64(len(seen))
}

// TestTSBSQueryFilesOnVictoriaMetrics runs every query file TSBS wrote for
// VictoriaMetrics (its query_range URLs, as written) on TSBS's data loaded
// as TSBS loads it. Each answer is one series per cpu field asked for
// (TSBS aggregates by __name__), and the printed answers are those TSBS's
// runner printed on the same data (tsbs_run_queries_victoriametrics
// --print-responses), line for line but the server's executionTimeMsec.
func TestTSBSQueryFilesOnVictoriaMetrics(t *testing.T) {
	testenv.Alone(t)
	requireTargetServer(t, "victoriametrics")
	loadTSBSVictoriaMetrics(t)
	series := map[string]int64{
		"single-groupby-1-1-1": 4 * 1, "single-groupby-5-1-1": 4 * 5, "single-groupby-5-8-1": 4 * 5,
		"cpu-max-all-1": 4 * 10, "double-groupby-1": 4 * 1 * 8, "double-groupby-5": 4 * 5 * 8, "double-groupby-all": 4 * 10 * 8,
	}
	eachQueryFile(t, "devops_victoriametrics_*.gob", 11, func(t *testing.T, f string) {
		s, stdout := runTSBSQueryFile(t, "victoriametrics", filepath.Base(f), "--print-responses", "--clients", "1")
		tsbsAnswers(t, s, stdout, series[tsbsQueryType(filepath.Base(f))])
		got, _, _ := strings.Cut(stdout, "Create schema cost")
		sameLines(t, withoutTimings(got), withoutTimings(goldenResponses(t, f)))
	})
}

// withoutTimings drops the lines of a VictoriaMetrics answer that say how
// long the server took.
func withoutTimings(answers string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(answers, "\n"), "\n") {
		if !strings.Contains(l, `"executionTimeMsec":`) {
			out = append(out, l)
		}
	}
	return out
}

// sameLines fails the test at the first line where got and want differ.
func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("line %d:\n got  %s\n TSBS %s", i+1, got[i], want[i])
		}
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d lines, TSBS's runner printed %d", len(got), len(want))
	}
}

// loadTSBSInfluxDB writes TSBS's data in its influx format into database
// db of InfluxDB, as tsbs_load_influx does, and drops it when the test ends.
func loadTSBSInfluxDB(t *testing.T, db string, g *tsbs.Exact) {
	t.Helper()
	const influx = "http://127.0.0.1:8086"
	postOK(t, influx+"/query?q="+url.QueryEscape("CREATE DATABASE "+db), nil)
	t.Cleanup(func() { postOK(t, influx+"/query?q="+url.QueryEscape("DROP DATABASE "+db), nil) })
	postOK(t, influx+"/write?db="+db, tsbsInflux(t, g))
}

// TestTSBSQueryFilesOnInfluxDB runs every devops and iot query file TSBS
// wrote for its influx format (InfluxQL over /query) on TSBS's data loaded
// as TSBS's loader loads it (devops: 8 hosts; iot: 4 trucks, with TSBS's
// dropped, late and cleared entries), and compares each answer, value by
// value, with the one TSBS's own runner printed on the same data
// (tsbs_run_queries_influx --print-responses, in
// internal/tsbs/testdata/golden/responses).
func TestTSBSQueryFilesOnInfluxDB(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "influxdb")
	loadTSBSInfluxDB(t, "tsbs_queries", tsbsQueryData(t))
	loadTSBSInfluxDB(t, "tsbs_queries_iot", tsbsData(t, "iot", 4))
	check := func(db string) func(t *testing.T, f string) {
		return func(t *testing.T, f string) {
			s, stdout := runTSBSQueryFile(t, "influxdb", filepath.Base(f), "--set", "DB_NAME="+db, "--print-responses", "--clients", "1")
			tsbsAnswers(t, s, stdout, 0)
			got, _, _ := strings.Cut(stdout, "Create schema cost")
			want := prefixedJSON(t, goldenResponses(t, f))
			if g := prefixedJSON(t, got); len(g) != 4 || !slices.Equal(g, want) {
				for i := range min(len(g), len(want)) {
					if g[i] != want[i] {
						t.Fatalf("answer %d differs from TSBS's runner's:\n got  %.300s\n TSBS %.300s", i+1, g[i], want[i])
					}
				}
				t.Fatalf("%d answers, TSBS's runner gave %d (want 4)", len(g), len(want))
			}
		}
	}
	eachQueryFile(t, "devops_influx_*.gob", 15, check("tsbs_queries"))
	eachQueryFile(t, "iot_influx_*.gob", 12, check("tsbs_queries_iot"))
}

// prefixedJSON reads answers printed as "ID n: " lines of indented JSON
// (TSBS's HTTP runners' --print-responses) and returns each as compact
// canonical JSON, so that they compare value by value.
func prefixedJSON(t *testing.T, text string) []string {
	t.Helper()
	var plain strings.Builder
	for line := range strings.Lines(text) {
		if _, rest, ok := strings.Cut(line, ": "); ok && strings.HasPrefix(line, "ID ") {
			line = rest
		}
		plain.WriteString(line)
	}
	dec := json.NewDecoder(strings.NewReader(plain.String()))
	var out []string
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("answer %d: %v", len(out)+1, err)
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	return out
}

// TestTSBSQueryFileRefusals: a file that is not TSBS's, one whose format
// the target cannot run, a workload key the query-file run would leave
// unused, or TSBS's runner keys without a file, are bad input (exit 2)
// naming the key and what to do instead.
func TestTSBSQueryFileRefusals(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	notTSBS := writeInputFile(t, dir, "q.sql", "SELECT 1;\n")
	lastpoint := filepath.Join(tsbsQueryGolden, "devops_timescaledb_lastpoint_seed123_scale4_1h_q4.gob")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "sqlite", "--tsbs-queries", notTSBS}, "TSBS_QUERY_FILE = \"" + notTSBS + "\""},
		{[]string{"--target", "sqlite", "--tsbs-queries", filepath.Join(dir, "missing.gob")}, "no such file"},
		{[]string{"--target", "sqlite", "--tsbs-queries", filepath.Join(tsbsQueryGolden, "devops_victoriametrics_cpu-max-all-1_seed123_scale4_2d_q4.gob")},
			"run on victoriametrics"},
		{[]string{"--target", "sqlite", "--tsbs-queries", lastpoint, "--find-max", "x.p99<1s"}, "FIND_MAX (--find-max)"},
		{[]string{"--target", "sqlite", "--tsbs-queries", lastpoint, "--duration", "5s"}, "use --max-queries N"},
		{[]string{"--target", "sqlite", "--tsbs-queries", lastpoint, "--data", notTSBS}, "DATA = " + notTSBS + ": not with TSBS_QUERY_FILE"},
		{[]string{"--target", "sqlite", "--burn-in", "3"}, "TSBS_BURN_IN = 3: not with WORKLOAD = timeseries: it applies to a TSBS query file"},
		{[]string{"--target", "sqlite", "--print-responses"}, "TSBS_PRINT_RESPONSES = true: not with WORKLOAD = timeseries: it applies to a TSBS query file"},
	} {
		r := tsbench(t, nil, append([]string{"run", "--results", "off"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 with %q: %s", tc.args, r.code, tc.want, r.stderr)
		}
	}
}

// TestTSBSQueryFileBurnInAndLimit: of the file's 4 queries, --max-queries 3
// runs three and --burn-in 1 leaves the first out of the measurement.
func TestTSBSQueryFileBurnInAndLimit(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "postgres")
	loadTSBSPostgres(t, "tsbs_queries_burn")
	s, _ := runTSBSQueryFile(t, "postgres", "devops_timescaledb_lastpoint_seed123_scale4_1h_q4.gob",
		"--set", "DB_NAME=tsbs_queries_burn", "--burn-in", "1", "--max-queries", "3")
	if op := s.Operations[0]; op.OKOperations != 2 || op.OKPoints != 2*8 {
		t.Errorf("measured %d queries (%d rows), want 2 (16 rows): 3 run, the first burnt in", op.OKOperations, op.OKPoints)
	}
	if len(s.Phases) != 1 || s.Phases[0].Name != "burn-in" || s.Phases[0].Operations != 1 {
		t.Errorf("phases %+v, want one burn-in of 1 query", s.Phases)
	}
}

// tsbsQueryType is the query type in a golden file's name,
// devops_<format>_<type>_seed123_....
func tsbsQueryType(name string) string {
	name, _, _ = strings.Cut(name, "_seed")
	i := strings.LastIndex(name, "_")
	return name[i+1:]
}
