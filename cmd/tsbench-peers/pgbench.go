package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// statement is one statement both tools send: pgbench's script and
// tsbench's query file, with the same parameters drawn uniformly.
type statement struct {
	pgbench string // the -f script
	tsbench string // the --queries file
	op      string // tsbench's operation
	// table, when set, creates and fills the statement's table (rows).
	table func(ctx context.Context, pg *pgx.Conn, rows int64) error
}

// windowSeries is how many series the window-max table holds; each has a
// point a second.
const windowSeries = 100

func statements(rows int64) map[string]statement {
	hours := max(rows/windowSeries/3600, 1)
	return map[string]statement{
		"plus-one": {
			pgbench: "\\set n random(1, 100)\nSELECT :n + 1;\n",
			tsbench: "queries:\n  - name: plus_one\n    params:\n      n: int 1..100\n    sql: SELECT {{n}} + 1\n",
			op:      "plus_one",
		},
		// The maximum of one series over one hour: an index range scan
		// of 3,600 points (issue 47's statement, on a table of its own).
		"window-max": {
			pgbench: fmt.Sprintf("\\set s random(1, %d)\n\\set h random(0, %d)\n"+
				"SELECT max(v) FROM peers_points WHERE series = :s AND t >= :h * 3600000 AND t < (:h + 1) * 3600000;\n",
				windowSeries, hours-1),
			tsbench: fmt.Sprintf("queries:\n  - name: window_max\n    params:\n      s: int 1..%d\n      h: int 0..%d\n"+
				"    sql: SELECT max(v) FROM peers_points WHERE series = {{s}} AND t >= {{h}} * 3600000 AND t < ({{h}} + 1) * 3600000\n",
				windowSeries, hours-1),
			op:    "window_max",
			table: fillPoints,
		},
	}
}

// fillPoints makes peers_points hold rows points, a point a second of
// windowSeries series, unless it already does.
func fillPoints(ctx context.Context, pg *pgx.Conn, rows int64) error {
	var have int64
	if err := pg.QueryRow(ctx, "SELECT count(*) FROM peers_points").Scan(&have); err == nil && have == rows {
		return nil
	}
	per := rows / windowSeries
	for _, sql := range []string{
		"DROP TABLE IF EXISTS peers_points",
		"CREATE TABLE peers_points (series int, t bigint, v double precision, PRIMARY KEY (series, t))",
		fmt.Sprintf("INSERT INTO peers_points SELECT s, i * 1000, random() * 100 FROM generate_series(1, %d) s, generate_series(0, %d) i",
			windowSeries, per-1),
		"ANALYZE peers_points",
	} {
		if _, err := pg.Exec(ctx, sql); err != nil {
			return fmt.Errorf("peers_points: %s: %w", strings.Fields(sql)[0], err)
		}
	}
	return nil
}

// checkClientIO refuses a client I/O tsbench has not, and one set a second
// way (--tsbench-arg=--client-io=...), which the table's title would not
// name.
func checkClientIO(io string, extra repeated) error {
	if io != "auto" && io != "goroutines" && io != "epoll" {
		return usage{fmt.Sprintf("--client-io %q: allowed: auto, goroutines, epoll", io)}
	}
	for _, a := range extra {
		if strings.Contains(strings.ToLower(a), "client-io") || strings.Contains(strings.ToUpper(a), "CLIENT_IO") ||
			strings.Contains(strings.ToLower(a), "client-loops") || strings.Contains(strings.ToUpper(a), "CLIENT_LOOPS") {
			return usage{fmt.Sprintf("--tsbench-arg %q: tsbench's client I/O is --client-io's, its loops --threads'", a)}
		}
	}
	return nil
}

// comparePgbench runs pgbench and tsbench on one statement, taking turns.
func comparePgbench(args []string, stdout, stderr io.Writer) error {
	c, err := parsePgbenchFlags(args, stderr)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "tsbench-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := c.prepare(dir); err != nil {
		return err
	}
	peers, tsbs, err := takeTurns(c.turns, stderr, "pgbench", c.pgbenchTurn, c.tsbenchTurn)
	if err != nil {
		return err
	}
	mode := c.clientIO
	if chosen := tsbs[len(tsbs)-1].ClientIO; chosen != mode {
		mode += " (" + chosen + ")"
	}
	title := fmt.Sprintf("%s, %d clients, pgbench -j %d, tsbench --client-io %s, %v a turn, %s", c.which, c.clients, c.threads, mode, c.duration, c.url)
	writeTable(stdout, title, "pgbench", peers, tsbs, []column{
		{"queries/s", func(m measurement) float64 { return m.Rate }, "%.0f"},
		{"CPU µs/query", func(m measurement) float64 { return m.cpuPerOp() }, "%.1f"},
		{"p50 ms", func(m measurement) float64 { return m.P50 }, "%.3f"},
		{"p99 ms", func(m measurement) float64 { return m.P99 }, "%.3f"},
	})
	writeClientWait(stdout, tsbs)
	return nil
}

// writeClientWait says what ended tsbench's latencies and how long its
// answers then waited for its client, the medians of its turns: what the
// tool added beside what it measured.
func writeClientWait(w io.Writer, tsbs []measurement) {
	last := tsbs[len(tsbs)-1]
	if last.Clock == "" {
		return
	}
	var p50, p99 []float64
	for _, m := range tsbs {
		p50, p99 = append(p50, m.WaitP50), append(p99, m.WaitP99)
	}
	fmt.Fprintf(w, "tsbench's latency ends at %s; its client wait, medians of its turns: p50 %.3f ms, p99 %.3f ms\n",
		last.Clock, median(p50), median(p99))
}

// pgbenchCompare is a pgbench comparison: its options, then the tools,
// the statement and the files both turns read.
type pgbenchCompare struct {
	host, user, db, which  string
	clientIO               string // tsbench's CLIENT_IO, as asked
	port, clients, threads int
	turns                  int
	rows                   int64
	duration               time.Duration
	extra                  repeated
	stderr                 io.Writer
	st                     statement
	pgbench, tsbench, url  string
	dir, script, queries   string
}

func parsePgbenchFlags(args []string, stderr io.Writer) (*pgbenchCompare, error) {
	c := &pgbenchCompare{stderr: stderr}
	fs := flag.NewFlagSet("pgbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pgbenchPath := fs.String("pgbench", "", "pgbench's path (default: on PATH, else Debian's PostgreSQL's)")
	tsbenchPath := fs.String("tsbench", "", "tsbench's path (default: beside this command, else on PATH)")
	fs.StringVar(&c.host, "host", "127.0.0.1", "the server's host")
	fs.IntVar(&c.port, "port", 5433, "the server's port")
	fs.StringVar(&c.user, "user", "postgres", "the user (no password: trust)")
	fs.StringVar(&c.db, "db", "test", "the database")
	fs.StringVar(&c.which, "statement", "plus-one", "plus-one (SELECT n + 1) or window-max (max(v) over one hour of one series)")
	fs.Int64Var(&c.rows, "rows", 1_000_000, "window-max: points in its table")
	fs.IntVar(&c.clients, "clients", 4, "connections of each tool")
	fs.IntVar(&c.threads, "threads", 2, "pgbench's threads (-j)")
	fs.StringVar(&c.clientIO, "client-io", "auto", "tsbench's client I/O: auto (tsbench's default: epoll for this run on Linux), "+
		"goroutines (a goroutine a client) or epoll (event loops, as many as pgbench's threads)")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "each turn's length")
	fs.IntVar(&c.turns, "turns", 2, "turns each tool takes")
	fs.Var(&c.extra, "tsbench-arg", "an argument more for tsbench run (repeatable), e.g. --tsbench-arg=--set --tsbench-arg=KEY=VALUE")
	if err := fs.Parse(args); err != nil {
		return nil, usage{err.Error()}
	}
	if err := checkClientIO(c.clientIO, c.extra); err != nil {
		return nil, err
	}
	var ok bool
	if c.st, ok = statements(c.rows)[c.which]; !ok {
		return nil, usage{fmt.Sprintf("--statement %q: allowed: plus-one, window-max", c.which)}
	}
	var err error
	if c.pgbench, err = findTool(*pgbenchPath, "pgbench", "/usr/lib/postgresql/*/bin/pgbench"); err != nil {
		return nil, err
	}
	if c.tsbench, err = tsbenchBinary(*tsbenchPath); err != nil {
		return nil, err
	}
	c.url = fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", c.user, c.host, c.port, c.db)
	return c, nil
}

// prepare fills the statement's table, if it has one, and writes
// pgbench's script and tsbench's query file into dir.
func (c *pgbenchCompare) prepare(dir string) error {
	if c.st.table != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		pg, err := pgx.Connect(ctx, c.url)
		if err != nil {
			return err
		}
		err = c.st.table(ctx, pg, c.rows)
		pg.Close(ctx)
		if err != nil {
			return err
		}
	}
	c.dir, c.script, c.queries = dir, filepath.Join(dir, "q.sql"), filepath.Join(dir, "q.yaml")
	for path, text := range map[string]string{c.script: c.st.pgbench, c.queries: c.st.tsbench} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// pgbenchTurn is one turn of pgbench, its latencies from its -l logs.
func (c *pgbenchCompare) pgbenchTurn() (measurement, error) {
	turn, err := os.MkdirTemp(c.dir, "pgbench-")
	if err != nil {
		return measurement{}, err
	}
	out, cpu, err := child(turn, c.stderr, c.pgbench, "-h", c.host, "-p", strconv.Itoa(c.port), "-U", c.user, "-n", "-f", c.script,
		"-c", strconv.Itoa(c.clients), "-j", strconv.Itoa(c.threads), "-T", strconv.Itoa(int(c.duration.Seconds())),
		"-M", "prepared", "-l", c.db)
	if err != nil {
		return measurement{}, err
	}
	return pgbenchResult(string(out), turn, cpu)
}

// tsbenchTurn is one turn of tsbench running the query file alone.
func (c *pgbenchCompare) tsbenchTurn() (measurement, error) {
	turn, err := os.MkdirTemp(c.dir, "tsbench-")
	if err != nil {
		return measurement{}, err
	}
	args := []string{"--target", "postgres", "--target-url", c.url, "--queries", c.queries, "--query-only",
		"--clients", strconv.Itoa(c.clients), "--duration", c.duration.String(), "--client-io", c.clientIO}
	if c.clientIO == "epoll" || c.clientIO == "auto" && runtime.GOOS == "linux" {
		args = append(args, "--client-loops", strconv.Itoa(min(c.threads, c.clients)))
	}
	s, cpu, err := tsbenchRun(c.tsbench, turn, c.stderr, append(args, c.extra...)...)
	if err != nil {
		return measurement{}, err
	}
	op := s.Op(c.st.op)
	if op == nil || op.OKOperations == 0 || s.Elapsed <= 0 {
		return measurement{}, fmt.Errorf("tsbench ran no %s", c.st.op)
	}
	chosen, _ := s.Config["client_io"].(string)
	if chosen == "" {
		return measurement{}, errors.New("tsbench's summary names no client_io")
	}
	m := measurement{Rate: float64(op.OKOperations) / s.Elapsed, Ops: op.OKOperations, CPU: cpu,
		P50: op.LatencyMS.P50, P99: op.LatencyMS.P99, ClientIO: chosen, Clock: s.LatencyClock}
	if w := op.ClientWaitMS; w != nil {
		m.WaitP50, m.WaitP99 = w.P50, w.P99
	}
	return m, nil
}

var (
	pgbenchTPS       = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
	pgbenchProcessed = regexp.MustCompile(`(?m)^number of transactions actually processed: ([0-9]+)`)
)

// pgbenchResult reads pgbench's rate and count from its output, and its
// latencies from the -l logs in dir (a line per transaction, the third
// field its latency in microseconds).
func pgbenchResult(out, dir string, cpu time.Duration) (measurement, error) {
	tps, processed := pgbenchTPS.FindStringSubmatch(out), pgbenchProcessed.FindStringSubmatch(out)
	if tps == nil || processed == nil {
		return measurement{}, fmt.Errorf("pgbench printed no tps and count: %s", lastLine(out))
	}
	m := measurement{CPU: cpu}
	m.Rate, _ = strconv.ParseFloat(tps[1], 64)
	m.Ops, _ = strconv.ParseInt(processed[1], 10, 64)
	lats, err := pgbenchLatencies(dir)
	if err != nil {
		return m, err
	}
	if len(lats) == 0 {
		return m, fmt.Errorf("pgbench wrote no -l log in %s", dir)
	}
	slices.Sort(lats)
	m.P50, m.P99 = lats[len(lats)/2]/1000, lats[len(lats)*99/100]/1000
	return m, nil
}

func pgbenchLatencies(dir string) ([]float64, error) {
	logs, err := filepath.Glob(filepath.Join(dir, "pgbench_log.*"))
	if err != nil {
		return nil, err
	}
	var lats []float64
	for _, path := range logs {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 3 {
				continue
			}
			if us, err := strconv.ParseFloat(fields[2], 64); err == nil {
				lats = append(lats, us)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return lats, nil
}
