package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily/sqltest"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
)

// The tests against the real servers of scripts/services, through the SQL
// targets' shared tests (sqltest): Debian 12's PostgreSQL 15 (postgres.sh,
// the target's default port) and 18.6 (postgres-18.sh, beside it).
var (
	server  = targettest.Server{Name: "postgres", Addr: "127.0.0.1:5433"}
	current = targettest.Server{Name: "postgres-18", Addr: "127.0.0.1:5435", Port: 5435}
	// releases are the servers the conformance suite, the analytics, the
	// fleet questions and the own statements run on; the tests of one
	// setting (TLS, database creation, limits) run on server only.
	releases = []targettest.Server{server, current}
)

var writePaths = []string{"copy", "insert"}

// Both layouts with both write paths pass the conformance suite, names
// case included, against both releases, in a database of its own: the
// end-to-end tests' runs, beside it in CI, write "test"'s points table
// (a CI run saw it dropped under the suite's queries).
func TestConformance(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		srv.Conformance(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"}},
			map[string][]string{"layout": {"narrow", "wide"}, "write_path": writePaths})
	})
}

// The timescaledb driver's SQL (hypertable, time_bucket) passes the suite
// against the TimescaleDB-enabled PGlite build started by
// scripts/services/timescaledb.sh — a check of correctness, not speed. Both
// layouts, with the insert path: the copy path brings the PGlite server down
// (it exits within the first batches), so copy is checked against
// PostgreSQL only.
func TestConformanceTimescaleDB(t *testing.T) {
	targettest.Server{Name: "timescaledb", Addr: "127.0.0.1:5434"}.Conformance(t,
		targettest.Suite{Driver: TimescaleDriver}, map[string][]string{"layout": {"narrow", "wide"}})
}

// The analytics queries answer what the generator computes, on both
// releases.
func TestAnalytics(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		sqltest.Analytics(t, srv, "postgres", targets.Options{Database: "tsbench_analytics"})
	})
}

// BenchmarkWritePath compares the write paths on the same data in one run:
// go test -run '^$' -bench WritePath -count 3 ./internal/targets/postgres/
func BenchmarkWritePath(b *testing.B) {
	server.BenchmarkWrite(b, Driver, targets.Options{Database: "test"}, map[string][]string{"write_path": writePaths})
}

// BenchmarkWideWritePath is BenchmarkWritePath on layout=wide:
// go test -run '^$' -bench WideWritePath -count 3 ./internal/targets/postgres/
func BenchmarkWideWritePath(b *testing.B) {
	server.BenchmarkWrite(b, Driver, targets.Options{Database: "test"},
		map[string][]string{"layout": {"wide"}, "write_path": writePaths})
}

// BenchmarkRowSource is the per-point cost of walking a dense batch for
// COPY and INSERT, without a server: the sparse check must not show here.
func BenchmarkRowSource(b *testing.B) {
	batch := &ts.Batch{Times: make([]int64, 1000)}
	for c := 0; c < 10; c++ {
		batch.Columns = append(batch.Columns, ts.Column{Type: ts.Double, Doubles: make([]float64, 1000)})
	}
	var r rowSource
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.reset(batch, 1)
		for r.Next() {
			if _, err := r.Values(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The target connects over TLS as asked, against a PostgreSQL that takes
// TLS connections only: verified against the test's own CA, refused with
// another CA, another host name or the system CAs, and refused in
// plaintext. TLS asked of the server without TLS (scripts/services' plain
// PostgreSQL) is ErrNoTLS: tsbench does not fall back to plaintext.
func TestTLS(t *testing.T) {
	sqltest.TLS(t, server, Driver, testenv.StartPostgresTLS(t), testenv.PostgresTLSPort, openSQL,
		"SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
		targettest.TLSCase{Name: "system CAs", TLS: targets.TLS{Mode: "on"}, Want: "certificate"},
		targettest.TLSCase{Name: "plaintext", TLS: targets.TLS{Mode: "off"}, Want: "no encryption"})
}

// A DB_NAME that does not exist yet is created, once, even when several
// clients open it at the same time, and by the database/sql access (TPC-C);
// a user who may not create databases gets an error that names the target,
// the database and the createdb command that creates it.
func TestCreateDatabase(t *testing.T) {
	sqltest.CreateDB{
		Admin: func(ctx context.Context) (*sql.DB, error) {
			return sql.Open("pgx", "host=127.0.0.1 port=5433 dbname=postgres user=postgres password=postgres sslmode=disable")
		},
		Drop: func(name string) string {
			return "DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)"
		},
		Exists:  "SELECT count(*) FROM pg_database WHERE datname = $1",
		Current: "SELECT current_database()",
		TargetCurrent: func(ctx context.Context, tg targets.Target) (name string, err error) {
			err = tg.(*Target).c.pg.QueryRow(ctx, "SELECT current_database()").Scan(&name)
			return name, err
		},
		NoCreate: []string{"CREATE ROLE %s LOGIN NOCREATEDB"},
		DropUser: "DROP ROLE IF EXISTS %s",
		Refused: func(name, _ string) []string {
			return []string{"postgres: ", "permission denied", "createdb -h 127.0.0.1 -p 5433 -U postgres " + name}
		},
	}.Run(t, server, Driver)
}

// The wide layout refuses schemas wider than PostgreSQL's column limit with a
// message that names the limit and the way out (seed 002's trains have 3,000
// sensors).
func TestWideRefusesTooManySensors(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{Database: "test", Extra: map[string]string{"layout": "wide"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: "d_0"}}}
	for i := 0; i < 3000; i++ {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: ts.Double})
	}
	err = conn.Setup(ctx, s, true)
	if !errors.Is(err, targets.ErrUnsupported) || !strings.Contains(err.Error(), "1,600") || !strings.Contains(err.Error(), "layout=narrow") {
		t.Fatalf("Setup with 3,000 sensors: %v", err)
	}
}

// Every iot question, each fleet and window, answers what fleet.Answer
// computes, on both layouts of both releases.
func TestFleetQuestions(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		for _, layout := range []string{"narrow", "wide"} {
			t.Run(layout, func(t *testing.T) {
				targettest.FleetQuestions(t, Driver, srv.Options(targets.Options{Extra: map[string]string{"layout": layout}}))
			})
		}
	})
}

// The same on data with every kind answered, times before 1970, empty
// cells and missing periods (targettest.FleetEdges).
func TestFleetEdges(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		for _, layout := range []string{"narrow", "wide"} {
			t.Run(layout, func(t *testing.T) {
				targettest.FleetEdges(t, Driver, srv.Options(targets.Options{Extra: map[string]string{"layout": layout}}))
			})
		}
	})
}

// The timescaledb driver answers them too, on the hypertables, against the
// PGlite build of scripts/services/timescaledb.sh.
func TestFleetQuestionsTimescaleDB(t *testing.T) {
	srv := targettest.Server{Name: "timescaledb", Addr: "127.0.0.1:5434"}
	srv.Require(t)
	for _, layout := range []string{"narrow", "wide"} {
		t.Run(layout, func(t *testing.T) {
			// The edge data around the epoch only: around 2016-01-01, or
			// the coming midnight, the PGlite build stops answering while
			// the narrow layout writes it (truck_2's batch across the
			// midnight, every time), which PostgreSQL does not.
			o := targets.Options{Extra: map[string]string{"layout": layout}}
			targettest.FleetQuestionsAround(t, TimescaleDriver, o, 0)
		})
	}
}

// ServerText keeps NUMERIC and INTERVAL as the server's own text, as a
// database/sql client (TSBS's runner) prints them, with bound parameters
// still bound; without it NUMERIC is a number. Both releases print them
// alike.
func TestRunStatementServerText(t *testing.T) {
	targettest.EachServer(t, releases, runStatementServerText)
}

func runStatementServerText(t *testing.T, srv targettest.Server) {
	ctx := t.Context()
	tg := srv.OwnTexts(ctx, t, Driver, "tsbench_own", targettest.Texts).(targets.StatementRunner)
	text := "SELECT 24::numeric(20,16) AS n, interval '1 day 10:30' AS d, NULL::numeric AS z, $1::float8 AS f"
	for _, c := range []struct {
		serverText bool
		want       []any
	}{
		{true, []any{"24.0000000000000000", "1 day 10:30:00", nil, 1.5}},
		{false, []any{int64(24), nil, nil, 1.5}},
	} {
		rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text, Args: []any{1.5}, ServerText: c.serverText})
		if err != nil {
			t.Fatal(err)
		}
		got := rows.Values[0]
		for i, w := range c.want {
			if i == 1 && !c.serverText {
				continue // pgx's own interval value
			}
			if got[i] != w {
				t.Errorf("ServerText %v: column %s = %#v, want %#v", c.serverText, rows.Columns[i], got[i], w)
			}
		}
	}
}

// Each server names its release, as the run reports it; the timescaledb
// driver names the extension's version beside it.
func TestServerVersion(t *testing.T) {
	version := func(t *testing.T, d *targets.Driver, o targets.Options) string {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := d.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		v, err := conn.(targets.Versioner).ServerVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	want := map[string]string{"postgres": "PostgreSQL 15.", "postgres-18": "PostgreSQL 18.6"}
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		if v := version(t, Driver, srv.Options(targets.Options{Database: "test"})); !strings.HasPrefix(v, want[srv.Name]) ||
			strings.ContainsAny(v, "()") {
			t.Errorf("server version %q, want %q and the release alone", v, want[srv.Name])
		}
	})
	t.Run("timescaledb", func(t *testing.T) {
		targettest.RequireServer(t, "timescaledb", "127.0.0.1:5434")
		if v := version(t, TimescaleDriver, targets.Options{}); !regexp.MustCompile(`^PostgreSQL \d+\.\d+, TimescaleDB \d+\.`).MatchString(v) {
			t.Errorf("server version %q, want PostgreSQL's and TimescaleDB's", v)
		}
	})
}

// A measured execution (CountOnly, pgwire.Counted) counts the rows the
// whole answer holds, with every parameter type a query file binds (an
// empty text stays a text, not NULL); a statement the server refuses fails
// and leaves the connection usable; a session that ends is re-opened and
// its statements prepared again. On both releases.
func TestRunStatementCountOnly(t *testing.T) {
	targettest.EachServer(t, releases, runStatementCountOnly)
}

func runStatementCountOnly(t *testing.T, srv targettest.Server) {
	ctx := t.Context()
	tg := srv.OwnTexts(ctx, t, Driver, "tsbench_own", targettest.Texts).(*Target)
	count := func(text string, args ...any) (int64, error) { return countOnly(ctx, tg, text, args...) }
	for _, c := range []struct {
		text string
		args []any
		want int64
	}{
		// First: no buffer kept yet for the empty text to be appended to.
		{"SELECT 1 WHERE $1::text = ''", []any{""}, 1},
		{"SELECT g FROM generate_series(1, $1::int) g WHERE g % $2 = 0", []any{int64(100), int64(7)}, 14},
		{"SELECT g FROM generate_series(1, 10) g WHERE g < $1::float8", []any{3.5}, 3},
		{"SELECT 1 WHERE $1::text IS NULL", []any{nil}, 1},
		{"SELECT * FROM points WHERE t < 0", nil, 0},
		{"SELECT g FROM generate_series(1, $1::bigint) g", []any{int64(5000)}, 5000},
	} {
		got, err := count(c.text, c.args...)
		if err != nil {
			t.Fatalf("%s %v: %v", c.text, c.args, err)
		}
		whole := targettest.RunOwn(ctx, t, tg, c.text, c.args...)
		if got != c.want || whole.Count != c.want {
			t.Errorf("%s %v: counted %d rows, the whole answer %d, want %d", c.text, c.args, got, whole.Count, c.want)
		}
	}
	if _, err := count("SELECT 1 / $1::int", int64(0)); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Fatalf("1 / 0: err = %v, want the server's division by zero", err)
	}
	if got, err := count("SELECT 1 / $1::int", int64(1)); err != nil || got != 1 {
		t.Fatalf("1 / 1 after a refused execution: %d rows, %v", got, err)
	}
	if _, err := count("SELECT $1::int", int64(1), int64(2)); err == nil || !strings.Contains(err.Error(), "2 parameters bound") {
		t.Fatalf("two values for one placeholder: err = %v", err)
	}

	preparedBounded(ctx, t, tg, count)

	// An execution past its context's deadline is interrupted (the
	// context is watched on the socket, pgwire.Counted) and says so; the
	// next one runs, on a new session.
	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	start := time.Now()
	_, err := countOnly(tctx, tg, "SELECT pg_sleep($1::float8)", 30.0)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Fatalf("a 30 s sleep under a 300 ms deadline: %v after %v, want DeadlineExceeded at once", err, time.Since(start))
	}
	reconnected(t, count)

	// End the session from another connection: the next execution fails
	// as a connection failure, the one after it runs on a new session.
	pid := targettest.RunOwn(ctx, t, tg, "SELECT pg_backend_pid()").Values[0][0]
	admin, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@%s/tsbench_own?sslmode=disable", srv.Addr))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	prepares := tg.c.counted.Prepares()
	reconnected(t, count)
	if got := tg.c.counted.Prepares(); got != prepares+1 {
		t.Errorf("prepares %d after the new session, want %d (the text prepared again)", got, prepares+1)
	}
}

// preparedBounded: a session keeps no more texts prepared than the limit,
// on the client and on the server, and a text deallocated to make room is
// prepared again when it next runs, with the same answer.
func preparedBounded(ctx context.Context, t *testing.T, tg *Target, count func(string, ...any) (int64, error)) {
	t.Helper()
	const limit = 3
	tg.c.counted.Limit = limit
	defer func() { tg.c.counted.Limit = 0 }()
	text := func(i int) string { return fmt.Sprintf("SELECT g FROM generate_series(1, %d) g", i+1) }
	for i := range 8 {
		if got, err := count(text(i)); err != nil || got != int64(i+1) {
			t.Fatalf("%s: %d rows, %v", text(i), got, err)
		}
	}
	held := targettest.RunOwn(ctx, t, tg, "SELECT name FROM pg_prepared_statements WHERE name LIKE 'tsbench_counted_%'")
	if held.Count != limit {
		t.Errorf("the session holds %d of tsbench's statements (%v), want the limit, %d", held.Count, held.Values, limit)
	}
	// Held: 5, 6, 7. Running 5 makes 6 the least recently run, so the
	// text 0, deallocated and prepared again, takes 6's place, not 5's.
	prepares := tg.c.counted.Prepares()
	for _, i := range []int{5, 0, 5, 7} {
		if got, err := count(text(i)); err != nil || got != int64(i+1) {
			t.Fatalf("%s again: %d rows, %v", text(i), got, err)
		}
	}
	if got := tg.c.counted.Prepares(); got != prepares+1 {
		t.Errorf("prepares %d, want %d: the deallocated text prepared again, the least recently run one made room", got, prepares+1)
	}
}

func countOnly(ctx context.Context, tg *Target, text string, args ...any) (int64, error) {
	rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text, Args: args, CountOnly: true})
	return rows.Count, err
}

// reconnected runs a statement until a new session answers it: the first
// tries may fail as connection failures, nothing else.
func reconnected(t *testing.T, count func(string, ...any) (int64, error)) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := count("SELECT g FROM generate_series(1, $1::int) g", int64(3))
		if err == nil {
			if got != 3 {
				t.Fatalf("on a new session: %d rows, want 3", got)
			}
			return
		}
		if !errors.Is(err, targets.ErrConnection) {
			t.Fatalf("the session ended: err = %v, want a connection failure", err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new session within 10 s: %v", err)
		}
	}
}
