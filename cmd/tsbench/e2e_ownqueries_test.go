package main

// The user's own queries (--queries, issue 47), run by the binary: a query's
// own latency row and record, answers recomputed here, hostile parameter
// values that stay values, two targets made to disagree on purpose, a
// query-only run on data loaded beforehand, and bad files refused with
// their file:line.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/htmlreport/browser"
	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/testenv"
)

// ownQuery is the record of the named own query in a run's summary.
func ownQuery(t *testing.T, s *summary.Summary, name string) summary.OwnQuery {
	t.Helper()
	if s.QueryFile == nil {
		t.Fatalf("the run recorded no query file")
	}
	for _, q := range s.QueryFile.Queries {
		if q.Name == name {
			return q
		}
	}
	t.Fatalf("the run recorded no own query %s", name)
	return summary.OwnQuery{}
}

// runOwnQueries writes queries as dir's q.yaml and runs them on target,
// its data in dir, with the further flags args, quiet and recording to a
// JSON file: it returns the run's outcome and summary, the run having
// exited 0. Most of the own-query tests run one file this way.
func runOwnQueries(t *testing.T, dir, target, queries string, args ...string) (result, *summary.Summary) {
	t.Helper()
	q := writeInputFile(t, dir, "q.yaml", queries)
	out := filepath.Join(dir, "out.json")
	args = append([]string{"run", "--target", target, "--queries", q, "--data-dir", dir}, args...)
	r := tsbench(t, nil, append(args, "--quiet", "--json", out)...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	return r, readSummary(t, out)
}

// number is a JSON number of an answer's sample as an int64.
func number(t *testing.T, v any) int64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("answer value %v (%T) is not a number", v, v)
	}
	return int64(f)
}

// The issue's own example: SELECT {{n}} + 1 prints its own latency row and
// is recorded in --json, each checked answer being its n plus one.
func TestOwnQuerySelectPlusOne(t *testing.T) {
	inParallel(t)
	r, s := runOwnQueries(t, t.TempDir(), "sqlite",
		"queries:\n  - name: plus_one\n    weight: 2\n    params:\n      n: int 1..100\n    sql: SELECT {{n}} + 1\n", "--loop", "60")
	latency := r.stdout[strings.Index(r.stdout, "Latency (ms) Matrix"):]
	if !strings.Contains(latency, "\nplus_one ") {
		t.Errorf("the Latency matrix has no plus_one row:\n%s", latency)
	}
	op := s.Op("plus_one")
	if op == nil || op.OKOperations == 0 || op.FailOperations != 0 || op.LatencyMS.P99 <= 0 {
		t.Fatalf("plus_one in --json: %+v", op)
	}
	// LOOP 60 with weights 10 (write), 1 (each of Q1..Q10), 2 (plus_one):
	// plus_one is 2/22 of each client's 60 operations.
	want := int64(s.Config["client_number"].(float64)) * 60 * 2 / 22
	if op.OKOperations < want-4 || op.OKOperations > want+4 {
		t.Errorf("plus_one ran %d times, want about %d", op.OKOperations, want)
	}
	oq := ownQuery(t, s, "plus_one")
	if oq.RowsMin != 1 || oq.RowsMax != 1 || len(oq.Answers) == 0 {
		t.Fatalf("rows %d..%d, %d answers", oq.RowsMin, oq.RowsMax, len(oq.Answers))
	}
	for _, a := range oq.Answers {
		n, err := strconv.ParseInt(a.Params["n"], 10, 64)
		if err != nil || n < 1 || n > 100 {
			t.Fatalf("parameter n = %q", a.Params["n"])
		}
		if a.Rows != 1 || number(t, a.Sample[0][0]) != n+1 {
			t.Errorf("n = %d answered %v, want %d", n, a.Sample, n+1)
		}
	}
}

// Values that would break a spliced query (quotes, semicolons, braces,
// comments) are bound: every one is answered as the value it is, and the
// data is intact after the run.
func TestOwnQueriesHostileValuesAreBound(t *testing.T) {
	onSQLiteAndPostgres(t, func(t *testing.T, target string) {
		_, s := runOwnQueries(t, t.TempDir(), target, `queries:
  - name: by_device
    params:
      d: {choice: ["x' OR '1'='1", "d_0'; DROP TABLE points; --", "}{ {{d}}", "a\"b\\", "d_0"]}
    sql: SELECT count(*) FROM series WHERE device = {{d}}
`, "--loop", "100", "--devices", "2", "--clients", "2", "--sensors", "3", "--set", "QUERY_CHECKS=12")
		if op := s.Op("by_device"); op == nil || op.OKOperations == 0 || op.FailOperations != 0 {
			t.Fatalf("by_device: %+v", op)
		}
		if s.Verify == nil || !s.Verify.OK {
			t.Fatalf("the data did not survive the run: %+v", s.Verify)
		}
		seen := map[string]bool{}
		for _, a := range ownQuery(t, s, "by_device").Answers {
			want := int64(0)
			if a.Params["d"] == `"d_0"` {
				want = 3 // the device's three sensors
			}
			if a.Error != "" || number(t, a.Sample[0][0]) != want {
				t.Errorf("d = %s answered %v (%s), want %d", a.Params["d"], a.Sample, a.Error, want)
			}
			seen[a.Params["d"]] = true
		}
		if len(seen) < 3 {
			t.Errorf("12 checked answers drew only %v", seen)
		}
	})
}

// Two targets made to disagree on purpose: the same query file, whose
// text for duckdb adds 2 where sqlite's adds 1. The disagreement is
// reported with a parameter set and each target's answer named by target
// (n=45; sqlite: 46, duckdb: 47), the agreeing query as agreeing, and the
// run exits 3; the combined --json and the one report of both runs say the
// same, the report at its top (read in Chromium), never only "ok".
func TestOwnQueriesDisagreementIsReported(t *testing.T) {
	inParallel(t)
	requireBuiltIn(t, "duckdb")
	dir := t.TempDir()
	q := writeInputFile(t, dir, "q.yaml", `queries:
  - name: off_by_one
    params:
      n: int 1..100
    sqlite: SELECT {{n}} + 1
    duckdb: SELECT {{n}} + 2
  - name: same
    params:
      n: int 1..100
    sql: SELECT {{n}} * 3
`)
	r := tsbench(t, nil, "run", "--target", "sqlite,duckdb", "--queries", q, "--data-dir", dir, "--loop", "40", "--quiet",
		"--json", filepath.Join(dir, "out.json"))
	if r.code != 3 {
		t.Fatalf("exit %d, want 3 (answers disagree)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, r.stdout,
		"targets side by side",
		"Answers of own queries: 1 of 2 query-target pairs agree with sqlite",
		"DISAGREE  off_by_one on duckdb: 5 of 5 parameter sets answered differently, e.g. n=",
		"agree     same on duckdb: 5 of 5 parameter sets",
		"Verdict: Exit status 3: the targets' answers DISAGREE: 1 of 2 query-target pairs differ from sqlite's",
	)
	checkNamedAnswers(t, "console", r.stdout)
	for _, target := range []string{"sqlite", "duckdb"} {
		if s := readSummary(t, filepath.Join(dir, "out-"+target+".json")); s.Target != target || len(ownQuery(t, s, "off_by_one").Answers) != 5 {
			t.Errorf("out-%s.json: target %s", target, s.Target)
		}
	}
	var doc struct {
		Verdict     string
		OK          bool
		Comparisons []ownquery.Comparison `json:"answer_comparisons"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.json")); err != nil || json.Unmarshal(b, &doc) != nil {
		t.Fatalf("out.json, the comparison: %v\n%s", err, b)
	}
	if doc.OK || !strings.Contains(doc.Verdict, "DISAGREE") || len(doc.Comparisons) != 2 || doc.Comparisons[0].Differ != 5 {
		t.Errorf("out.json: %+v", doc)
	}
	for _, c := range doc.Comparisons {
		if c.Differ > 0 {
			checkNamedAnswers(t, "out.json", c.Example)
		}
	}
	i := strings.Index(r.stdout, "Report: ")
	if i < 0 {
		t.Fatalf("no report path printed")
	}
	path := strings.TrimSpace(strings.SplitN(r.stdout[i+len("Report: "):], "\n", 2)[0])
	dom, err := browser.DOM(context.Background(), browser.Require(t), path)
	if err != nil {
		t.Fatal(err)
	}
	top, _, _ := strings.Cut(dom, `id="runs"`) // what the page shows before its table of runs
	checkContains(t, top, `id="verdict-headline" class="verdict bad">Exit status 3: the targets' answers DISAGREE`,
		"DISAGREE  off_by_one on duckdb: 5 of 5 parameter sets answered differently",
		"agree     same on duckdb: 5 of 5 parameter sets", "Verify: ")
	checkNamedAnswers(t, "the report", top)
}

// checkNamedAnswers finds the example of off_by_one's disagreement in text
// and checks that it names each target's answer, and that the answers are
// the queries' own: n + 1 on sqlite, n + 2 on duckdb.
func checkNamedAnswers(t *testing.T, where, text string) {
	t.Helper()
	m := regexp.MustCompile(`n=(\d+); sqlite: (\d+), duckdb: (\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Errorf("%s: no example naming each target's answer (n=N; sqlite: N+1, duckdb: N+2) in:\n%s", where, resTail(text, 3000))
		return
	}
	n, _ := strconv.Atoi(m[1])
	if m[2] != strconv.Itoa(n+1) || m[3] != strconv.Itoa(n+2) {
		t.Errorf("%s: %s: the answers are not n+1 on sqlite and n+2 on duckdb", where, m[0])
	}
}

// A query-only run on a database loaded before: nothing created, written or
// counted; parameters from the data already there (from "<query>").
func TestOwnQueriesQueryOnly(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	load := tsbench(t, nil, "run", "--target", "sqlite", "--data-dir", dir, "--devices", "3", "--clients", "3", "--sensors", "2",
		"--loop", "50", "--quiet", "--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0")
	if load.code != 0 {
		t.Fatalf("load: exit %d\n%s", load.code, load.stderr)
	}
	db := openDB(t, filepath.Join(dir, "sqlite", "test.db"))
	points := queryInt(t, db, "SELECT count(*) FROM points")
	perDevice := map[string]int64{}
	rows, err := db.Query("SELECT s.device, count(*) FROM points p JOIN series s ON s.id = p.series GROUP BY s.device")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d string
		var n int64
		rows.Scan(&d, &n)
		perDevice[d] = n
	}
	rows.Close()
	db.Close()

	r, s := runOwnQueries(t, dir, "sqlite", `queries:
  - name: points_of
    params:
      dev: from "SELECT DISTINCT device FROM series"
    sql: SELECT count(*) FROM points p JOIN series s ON s.id = p.series WHERE s.device = {{dev}}
`, "--query-only", "--loop", "20")
	q := filepath.Join(dir, "q.yaml")
	if !strings.Contains(r.stdout, "Query-only run: the queries of "+q+" on data already stored") {
		t.Errorf("the run does not say it wrote nothing:\n%s", r.stdout)
	}
	if s.Op("INGESTION") != nil || s.Verify != nil || !s.QueryFile.QueryOnly {
		t.Errorf("a query-only run wrote or counted: ingestion %+v, verify %+v", s.Op("INGESTION"), s.Verify)
	}
	for _, a := range ownQuery(t, s, "points_of").Answers {
		dev, _ := strconv.Unquote(a.Params["dev"])
		if got := number(t, a.Sample[0][0]); got != perDevice[dev] || got == 0 {
			t.Errorf("points of %s: %d, the file holds %d", dev, got, perDevice[dev])
		}
	}
	db = openDB(t, filepath.Join(dir, "sqlite", "test.db"))
	defer db.Close()
	if after := queryInt(t, db, "SELECT count(*) FROM points"); after != points {
		t.Errorf("points before %d, after the query-only run %d", points, after)
	}
}

// A bad query file is refused before anything runs, exit 2, naming
// file:line and what is wrong.
func TestOwnQueriesBadFiles(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	cases := []struct{ name, text, want string }{
		{"yaml", "queries:\n  - name: a\n    sql: [\n", "bad.yaml:3: did not find expected node content"},
		{"kind", "queries:\n  - name: a\n    params:\n      n: integer 1..9\n    sql: SELECT {{n}}\n", `bad.yaml:4: query a: parameter n: unknown kind "integer"`},
		{"unbound", "queries:\n  - name: a\n    sql: SELECT {{n}}\n", "bad.yaml:3: query a: sql: {{n}} names no parameter"},
		{"no text", "queries:\n  - name: a\n    influxql: SELECT 1\n", `bad.yaml:2: query a has no text for target sqlite: add a key "sql" (its language) or "sqlite"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeInputFile(t, dir, "bad.yaml", tc.text)
			r := tsbench(t, nil, "run", "--target", "sqlite", "--queries", path, "--data-dir", dir, "--quiet")
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "sqlite")); err == nil {
				t.Fatalf("a refused file left a database behind")
			}
		})
	}
}

// --explain keeps each query's plan with the run, on SQLite and PostgreSQL.
func TestOwnQueriesExplain(t *testing.T) {
	onSQLiteAndPostgres(t, func(t *testing.T, target string) {
		r, s := runOwnQueries(t, t.TempDir(), target, `queries:
  - name: window_max
    params:
      dev: device
      w: window 10m
    sql: SELECT max(p.v) FROM points p JOIN series s ON s.id = p.series WHERE s.device = {{dev}} AND p.t >= {{w.start}} AND p.t < {{w.end}}
`, "--explain", "--loop", "30")
		plan := ownQuery(t, s, "window_max").Plan
		want := map[string]string{"sqlite": "SEARCH", "postgres": "Scan"}[target]
		if !strings.Contains(plan, want) || !strings.Contains(r.stdout, "plan (EXPLAIN):") {
			t.Errorf("plan %q lacks %q; output:\n%s", plan, want, r.stdout)
		}
	})
}

// CLIENT_IO=epoll serves a query-only run's clients from event loops (two
// here, of one and two clients): every execution's rows are counted by a
// loop (generate_series(1, n),
// n drawn in 1..50: 1 to 50 rows), none fails, and the checked answers
// agree; where the loops do not serve the run, CLIENT_IO and CLIENT_LOOPS
// are refused before anything runs, exit 2, naming them. CLIENT_IO = auto,
// the default, takes the loops where they serve the run, and says so.
func TestOwnQueriesClientLoop(t *testing.T) {
	testenv.Alone(t)
	epoll := []string{"--query-only", "--client-io", "epoll"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append([]string{"--target", "sqlite"}, epoll...), "serves postgres alone"},
		{append([]string{"--target", "timescaledb"}, epoll...), "serves postgres alone"},
		{[]string{"--target", "postgres", "--client-io", "epoll"}, "query-only run"},
		{append([]string{"--target", "postgres", "--set", "HOST=127.0.0.1,127.0.0.2"}, epoll...), "several hosts"},
		{append([]string{"--target", "postgres", "--query-url", "postgres://127.0.0.1:5433/test"}, epoll...), "QUERY_URL"},
		{[]string{"--target", "postgres", "--query-only", "--client-io", "goroutines", "--client-loops", "2"}, "CLIENT_LOOPS = 2: not with CLIENT_IO = goroutines"},
		{[]string{"--target", "sqlite", "--query-only", "--client-loops", "2"},
			"CLIENT_LOOPS = 2: not with CLIENT_IO = goroutines (CLIENT_IO = auto chose it: DB_SWITCH = sqlite"},
		{append([]string{"--target", "postgres", "--set", "TLS=on"}, epoll...), "TLS = on: the event loop reads and writes its sockets itself"},
		{append([]string{"--target", "postgres", "--clients", "4", "--client-loops", "5"}, epoll...), "CLIENT_LOOPS = 5: more event loops than clients"},
	} {
		dir := t.TempDir()
		q := writeInputFile(t, dir, "q.yaml", "queries:\n  - name: one\n    sql: SELECT 1\n")
		r := tsbench(t, nil, append([]string{"run", "--queries", q, "--data-dir", dir, "--quiet"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "CLIENT_") || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 saying %q\n%s", c.args, r.code, c.want, r.stderr)
		}
	}
	dir := t.TempDir()
	if r := tsbench(t, nil, "run", "--workload", "tpcc", "--target", "postgres", "--client-io", "epoll", "--data-dir", dir); r.code != 2 ||
		!strings.Contains(r.stderr, "CLIENT_IO = epoll") {
		t.Errorf("TPC-C with CLIENT_IO = epoll: exit %d, want 2 naming it\n%s", r.code, r.stderr)
	}

	// CLIENT_IO = auto, the default, takes a goroutine a client where the
	// loops do not serve the run, and says nothing.
	r, s := runOwnQueries(t, t.TempDir(), "sqlite", "queries:\n  - name: one\n    sql: SELECT 1\n", "--query-only", "--loop", "5")
	if s.Config["client_io"] != "goroutines" || strings.Contains(r.stderr, "CLIENT_IO") {
		t.Errorf("auto on sqlite: client_io %v\n%s", s.Config["client_io"], r.stderr)
	}

	requireTargetServer(t, "postgres")
	// Where they serve it, auto takes the loops, and a note says so.
	r, s = runOwnQueries(t, t.TempDir(), "postgres", "queries:\n  - name: one\n    sql: SELECT 1\n", "--query-only", "--clients", "2", "--loop", "50")
	if op := s.Op("one"); s.Config["client_io"] != "epoll" || !strings.Contains(r.stderr, "CLIENT_IO = auto: event loops serve") ||
		op == nil || op.OKOperations != 100 {
		t.Errorf("auto on postgres: client_io %v, %+v\n%s", s.Config["client_io"], op, r.stderr)
	}
	// A goroutine a client ends its latencies at the answers' arrival too
	// (arrival.Dial on pgx's connections), and prints the client wait.
	r, s = runOwnQueries(t, t.TempDir(), "postgres", "queries:\n  - name: one\n    sql: SELECT 1\n", "--query-only", "--clients", "2",
		"--loop", "200", "--client-io", "goroutines")
	if op := s.Op("one"); op == nil || op.OKOperations != 400 || op.ClientWaitMS == nil || !strings.Contains(s.LatencyClock, "SO_TIMESTAMPNS") ||
		!strings.Contains(r.stdout, "Latency ends at each answer's arrival") {
		t.Errorf("goroutines on postgres: clock %q, %+v\n%s", s.LatencyClock, op, r.stdout)
	}
	_, s = runOwnQueries(t, t.TempDir(), "postgres", `queries:
  - name: series
    params:
      n: int 1..50
    sql: SELECT g FROM generate_series(1, {{n}}::int) g
`, "--query-only", "--clients", "3", "--duration", "2s", "--client-io", "epoll", "--client-loops", "2")
	op := s.Op("series")
	if op == nil || op.OKOperations < 500 || op.FailOperations != 0 {
		t.Fatalf("series: %+v", op)
	}
	if s.Config["client_io"] != "epoll" {
		t.Errorf("the run recorded client_io %v", s.Config["client_io"])
	}
	oq := ownQuery(t, s, "series")
	if oq.RowsMin != 1 || oq.RowsMax != 50 || oq.RowsMedian < 20 || oq.RowsMedian > 30 {
		t.Errorf("rows per execution %d / %d / %d, want 1 / about 25 / 50", oq.RowsMin, oq.RowsMedian, oq.RowsMax)
	}
	for _, a := range oq.Answers {
		if n, _ := strconv.ParseInt(a.Params["n"], 10, 64); a.Rows != n || a.Error != "" {
			t.Errorf("n = %s answered %d rows (%s)", a.Params["n"], a.Rows, a.Error)
		}
	}
}
