package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/mysql"
	"github.com/tsbench/tsbench/internal/targets/postgres"
	"github.com/tsbench/tsbench/internal/testenv"
)

var modes = []string{ModeInteractive, ModeBatched, ModeProcedures}

// runClock is the time every transaction of the modes test writes, so
// that the modes write the same timestamps.
var runClock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestModesSameTables runs the same 400 transactions (one terminal, a
// fixed seed, two warehouses so remote stock and remote customers occur)
// in each mode on a fresh load of the real PostgreSQL and MariaDB, and
// asserts that afterwards every table has the same checksum in all three
// modes, that the consistency conditions hold after each, that batched
// mode needed under a third of the interactive mode's round trips, and
// that procedures mode needed one per transaction. It runs on the
// releases users run today (PostgreSQL 18, MariaDB 11.4): what it
// compares is what tsbench sends, the same on any release, and each mode
// runs on Debian's older releases too (TestOnServers). On all four
// servers its twelve loads of two warehouses made it CI's slowest test
// (184 s).
func TestModesSameTables(t *testing.T) {
	onServersDB(t, "tsbench_tpcc_modes", currentReleases, func(ctx context.Context, t *testing.T, db *sql.DB, dialect string) {
		sums := map[string]map[string]string{}
		trips := map[string]int64{}
		const n = 400
		for _, mode := range modes {
			// The first load goes one part after the other, the others in
			// parallel: the same tables must result.
			workers := 0
			if mode == modes[0] {
				workers = 1
			}
			term := freshTerminal(ctx, t, db, dialect, Config{Warehouses: 2, Mode: mode, Load: LoadAlways, LoadWorkers: workers})
			term.now = func() time.Time { return runClock }
			if mode == modes[0] {
				// The checksums must see what the transactions change.
				loaded := tableSums(ctx, t, db, dialect)
				defer func() {
					for _, table := range []string{"tpcc_district", "tpcc_customer", "tpcc_orders", "tpcc_order_line", "tpcc_stock"} {
						if loaded[table] == sums[mode][table] {
							t.Errorf("%s: the checksum did not change in %d transactions (%s)", table, n, loaded[table])
						}
					}
				}()
			}
			w := worker{t: term}
			rollbacks := 0
			for i := 0; i < n; i++ {
				tx := w.nextTx()
				if err := term.run(ctx, tx); errors.Is(err, errRollback) {
					rollbacks++
				} else if err != nil {
					t.Fatalf("%s: transaction %d (%s): %v", mode, i, tx, err)
				}
			}
			term.conn.Close()
			trips[mode] = term.roundTrips
			sums[mode] = tableSums(ctx, t, db, dialect)
			t.Logf("%s %s: %d transactions, %d rollbacks, %.2f round trips per transaction", dialect, mode, n, rollbacks,
				float64(term.roundTrips)/n)
			if rollbacks == 0 {
				t.Errorf("%s: no New-Order rolled back in %d transactions", mode, n)
			}
			checks, err := CheckConsistency(ctx, db, dialect, false)
			if err != nil {
				t.Fatal(err)
			}
			if !AllOK(checks) {
				t.Errorf("%s: consistency after the run: %+v", mode, checks)
			}
		}
		for _, table := range tables[1:] {
			for _, mode := range modes[1:] {
				if a, b := sums[ModeInteractive][table], sums[mode][table]; a != b {
					t.Errorf("%s differs: interactive %s, %s %s", table, a, mode, b)
				}
			}
		}
		// Interactive New-Order reads its items and stock and inserts its
		// lines in one statement each (go-tpc's shapes), so what batching
		// saves beyond it is the rest: under half the round trips.
		if trips[ModeBatched] >= trips[ModeInteractive]/2 {
			t.Errorf("round trips: batched %d, interactive %d; want under half", trips[ModeBatched], trips[ModeInteractive])
		}
		if trips[ModeProcedures] != n {
			t.Errorf("round trips: procedures %d for %d transactions; want one each", trips[ModeProcedures], n)
		}
	})
}

// currentReleases are the servers of the releases users run today.
var currentReleases = []sqlServer{servers[1], servers[3]}

// onServersDB runs f as a subtest on each of the servers given, in
// database name (the target creates it if missing); it skips a server
// that is not running.
func onServersDB(t *testing.T, name string, on []sqlServer, f func(ctx context.Context, t *testing.T, db *sql.DB, dialect string)) {
	for _, c := range on {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each its own server, side by side (go test -parallel)
			ctx, db := serverDB(t, c, name)
			f(ctx, t, db, c.driver.SQL.Dialect)
		})
	}
}

// sqlServer is an SQL server of scripts/services: the subtests' name for
// it, its script, the target that speaks its dialect and its port.
type sqlServer struct {
	name, service string
	driver        *targets.Driver
	port          int
}

func (c sqlServer) addr() string { return "127.0.0.1:" + strconv.Itoa(c.port) }

// servers are the SQL servers of scripts/services this package runs on:
// Debian 12's PostgreSQL 15 and MariaDB 10.11, and the releases users run
// today, PostgreSQL 18 and MariaDB 11.4, beside them.
var servers = []sqlServer{
	{"postgres", "postgres", postgres.Driver, 5433},
	{"postgres-18", "postgres-18", postgres.Driver, 5435},
	{"mysql", "mariadb", mysql.Driver, 3307},
	{"mariadb-11.4", "mariadb-11.4", mysql.Driver, 3308},
}

// serverDB opens database name on server c; it skips without the server.
func serverDB(tb testing.TB, c sqlServer, name string) (context.Context, *sql.DB) {
	tb.Helper()
	conn, err := net.DialTimeout("tcp", c.addr(), 2*time.Second)
	if err != nil {
		testenv.Require(tb, c.name+" server not running on "+c.addr()+" (scripts/services/"+c.service+".sh start)")
	}
	conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	tb.Cleanup(cancel)
	db, err := c.driver.SQL.Open(ctx, targets.Options{Database: name, Port: c.port})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return ctx, db
}

// freshTerminal prepares cfg's load (seed 5, one terminal) and opens the
// run's only terminal.
func freshTerminal(ctx context.Context, tb testing.TB, db *sql.DB, dialect string, cfg Config) *terminal {
	tb.Helper()
	cfg.Terminals, cfg.Duration, cfg.Seed, cfg.TxTimeout = 1, time.Second, 5, time.Minute
	return openTerminal(ctx, tb, db, dialect, cfg)
}

// openTerminal prepares cfg's load and opens the first of the run's
// terminals.
func openTerminal(ctx context.Context, tb testing.TB, db *sql.DB, dialect string, cfg Config) *terminal {
	tb.Helper()
	_, c, err := Prepare(ctx, db, dialect, &cfg)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := NewRun(db, dialect, cfg, c)
	if err != nil {
		tb.Fatal(err)
	}
	terms, err := r.openTerminals(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return terms[0]
}

// tableSums is a checksum of every TPC-C table's rows: on PostgreSQL an
// MD5 of the rows as text, sorted; on MySQL the row count and the sum of
// each row's CRC32. Timestamps are reduced to null, the run's clock or
// another (the load's, which differs from one load to the next).
func tableSums(ctx context.Context, t *testing.T, db *sql.DB, dialect string) map[string]string {
	t.Helper()
	d, err := dialectOf(dialect)
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, table := range tables[1:] { // not tpcc_meta: it records when it was loaded
		var cols []string
		schema := "current_schema()"
		if dialect == "mysql" {
			schema = "DATABASE()"
		}
		rows, err := db.QueryContext(ctx, d.rebind(`SELECT column_name, data_type FROM information_schema.columns
			WHERE table_schema = `+schema+` AND table_name = ? ORDER BY ordinal_position`), table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, typ string
			if err := rows.Scan(&name, &typ); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(typ, "timestamp") || typ == "datetime" {
				name = fmt.Sprintf("CASE WHEN %s IS NULL THEN 'null' WHEN %[1]s = '%s' THEN 'run' ELSE 'load' END",
					name, runClock.Format("2006-01-02 15:04:05"))
			} else if dialect == "mysql" {
				name = fmt.Sprintf("COALESCE(CAST(%s AS CHAR), 'null')", name)
			}
			cols = append(cols, name)
		}
		rows.Close()
		var sum string
		q := fmt.Sprintf(`SELECT md5(string_agg(r, E'\n' ORDER BY r)) FROM (SELECT ROW(%s)::text AS r FROM %s) x`,
			strings.Join(cols, ", "), table)
		if dialect == "mysql" {
			q = fmt.Sprintf(`SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT_WS('|', %s))), 0)) FROM %s`,
				strings.Join(cols, ", "), table)
		}
		if err := db.QueryRowContext(ctx, q).Scan(&sum); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		sums[table] = sum
	}
	return sums
}

// BenchmarkModes runs decks of 100 transactions (the standard mix) on one
// terminal against the real PostgreSQL and MariaDB, in each mode (on the
// one-warehouse load TestOnServers leaves in database "test", when it is
// there: a load of its own would add half a minute to CI), and
// reports per transaction the round trips the terminal waited for, the
// client's write system calls (/proc/self/io syscw: what strace -e
// write,sendto counts) and its CPU time (user + system, this process).
// CI runs it once: go test -bench . -benchtime 1x.
func BenchmarkModes(b *testing.B) {
	for _, c := range servers {
		b.Run(c.name, func(b *testing.B) {
			ctx, db := serverDB(b, c, "test")
			for _, mode := range modes {
				b.Run(mode, func(b *testing.B) {
					term := freshTerminal(ctx, b, db, c.driver.SQL.Dialect, Config{Warehouses: 1, Mode: mode, Load: LoadAuto})
					defer term.conn.Close()
					w := worker{t: term}
					trips0, cpu0, writes0 := term.roundTrips, cpuTime(b), writeCalls(b)
					b.ResetTimer()
					for range b.N {
						for range 100 {
							if err := term.run(ctx, w.nextTx()); err != nil && !errors.Is(err, errRollback) {
								b.Fatal(err)
							}
						}
					}
					b.StopTimer()
					n := float64(b.N * 100)
					b.ReportMetric(float64(term.roundTrips-trips0)/n, "roundtrips/tx")
					b.ReportMetric(float64(writeCalls(b)-writes0)/n, "writes/tx")
					b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/n, "cpu-µs/tx")
					b.ReportMetric(float64(b.Elapsed().Microseconds())/n, "µs/tx")
				})
			}
		})
	}
}

// BenchmarkLoad loads one warehouse into the real PostgreSQL and MariaDB,
// one part after the other and with the default parallelism, and reports
// the seconds per warehouse (the items included). One, not more: CI runs
// it once, and the figure it reports is per warehouse either way (the
// item table, loaded once, weighs on it less with more warehouses).
func BenchmarkLoad(b *testing.B) {
	for _, c := range servers {
		b.Run(c.name, func(b *testing.B) {
			ctx, db := serverDB(b, c, "tsbench_tpcc_load")
			for _, workers := range []int{1, defaultLoadWorkers} {
				b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
					const w = 1
					var secs float64
					for range b.N {
						cfg := Config{Warehouses: w, Terminals: 1, Duration: time.Second, Load: LoadAlways, Seed: 3,
							LoadWorkers: workers}
						res, _, err := Prepare(ctx, db, c.driver.SQL.Dialect, &cfg)
						if err != nil {
							b.Fatal(err)
						}
						if !AllOK(res.Checks) {
							b.Fatalf("load: %+v", res.Checks)
						}
						secs += res.Seconds
					}
					b.ReportMetric(secs/float64(b.N*w), "s/warehouse")
				})
			}
		})
	}
}

// cpuTime is this process's user and system CPU time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeCalls is the number of write system calls this process has made
// (syscw of /proc/self/io; Go writes to sockets with write(2)).
func writeCalls(tb testing.TB) int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		tb.Skipf("no /proc/self/io: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				tb.Fatalf("/proc/self/io: %q: %v", line, err)
			}
			return n
		}
	}
	tb.Fatalf("/proc/self/io has no syscw: %s", data)
	return 0
}

// On PostgreSQL an interactive transaction's context is watched on the
// terminal's socket (sockwatch), not by pgx and database/sql for every
// statement: a transaction blocked past its deadline (another session
// holds the warehouse table) ends at once with the deadline's error, and
// the terminal's next connection runs transactions again.
func TestInteractiveDeadlineOnSocket(t *testing.T) {
	c := servers[0]
	ctx, db := serverDB(t, c, "tsbench_tpcc_deadline")
	term := freshTerminal(ctx, t, db, c.driver.SQL.Dialect, Config{Warehouses: 1, Mode: ModeInteractive, Load: LoadAuto})
	if term.sock == nil {
		t.Fatal("no socket found under the PostgreSQL terminal's connection")
	}
	if err := term.run(ctx, Payment); err != nil {
		t.Fatalf("a Payment before the lock: %v", err)
	}
	lock, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	if _, err := lock.ExecContext(ctx, "LOCK TABLE tpcc_warehouse IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	// Released in 5 s whatever happens, so that a Payment the deadline
	// failed to interrupt ends, late.
	release := time.AfterFunc(5*time.Second, func() { lock.Rollback() })
	defer release.Stop()
	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	start := time.Now()
	err = term.run(tctx, Payment)
	cancel()
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 4*time.Second {
		t.Fatalf("a Payment blocked past a 300 ms deadline: %v after %v, want DeadlineExceeded at once", err, took)
	}
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	term.conn.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	term.conn, term.sock = conn, socketOf(conn)
	for range 20 {
		if err := term.run(ctx, Payment); err != nil {
			t.Fatalf("a Payment on the next connection: %v", err)
		}
	}
}
