package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/target/postgres"
	"github.com/tsbench/tsbench/internal/testenv"
)

var modes = []string{ModeInteractive, ModeBatched}

// runClock is the time every transaction of the modes test writes, so
// that the two modes write the same timestamps.
var runClock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestModesSameTables runs the same 400 transactions (one terminal, a
// fixed seed, two warehouses so remote stock and remote customers occur)
// in each mode on a fresh load of the real PostgreSQL, and asserts that
// afterwards every table has the same checksum in both modes, that the
// consistency conditions hold after each, and that batched mode needed
// fewer round trips.
func TestModesSameTables(t *testing.T) {
	ctx, db := postgresDB(t, "tsbench_tpcc_modes")
	sums := map[string]map[string]string{}
	trips := map[string]int64{}
	for _, mode := range modes {
		term := freshTerminal(ctx, t, db, Config{Warehouses: 2, Mode: mode, Load: LoadAlways})
		term.now = func() time.Time { return runClock }
		w := worker{t: term}
		rollbacks := 0
		for i := 0; i < 400; i++ {
			tx := w.nextTx()
			if err := term.run(ctx, tx); errors.Is(err, errRollback) {
				rollbacks++
			} else if err != nil {
				t.Fatalf("%s: transaction %d (%s): %v", mode, i, tx, err)
			}
		}
		term.conn.Close()
		trips[mode] = term.roundTrips
		sums[mode] = tableSums(ctx, t, db)
		t.Logf("%s: 400 transactions, %d rollbacks, %.1f round trips per transaction", mode, rollbacks, float64(term.roundTrips)/400)
		checks, err := CheckConsistency(ctx, db, "postgres", false)
		if err != nil {
			t.Fatal(err)
		}
		if !AllOK(checks) {
			t.Errorf("%s: consistency after the run: %+v", mode, checks)
		}
	}
	for _, table := range tables[1:] {
		if a, b := sums[ModeInteractive][table], sums[ModeBatched][table]; a != b {
			t.Errorf("%s differs: interactive %s, batched %s", table, a, b)
		}
	}
	if trips[ModeBatched] >= trips[ModeInteractive]/3 {
		t.Errorf("round trips: batched %d, interactive %d; want under a third", trips[ModeBatched], trips[ModeInteractive])
	}
}

// postgresDB opens database name on the PostgreSQL of scripts/services
// (the target creates it if missing); it skips without the server.
func postgresDB(tb testing.TB, name string) (context.Context, *sql.DB) {
	tb.Helper()
	const addr = "127.0.0.1:5433"
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		testenv.Require(tb, "postgres server not running on "+addr+" (scripts/services/postgres.sh start)")
	}
	conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	tb.Cleanup(cancel)
	db, err := postgres.Driver.SQL.Open(ctx, target.Options{Database: name})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return ctx, db
}

// freshTerminal prepares cfg's load (seed 5, one terminal) and opens the
// run's only terminal.
func freshTerminal(ctx context.Context, tb testing.TB, db *sql.DB, cfg Config) *terminal {
	tb.Helper()
	cfg.Terminals, cfg.Duration, cfg.Seed, cfg.TxTimeout = 1, time.Second, 5, time.Minute
	_, c, err := Prepare(ctx, db, "postgres", &cfg)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := NewRun(db, "postgres", cfg, c)
	if err != nil {
		tb.Fatal(err)
	}
	terms, err := r.openTerminals(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return terms[0]
}

// tableSums is an MD5 of every TPC-C table's rows, sorted. Timestamps are
// reduced to null, the run's clock or another (the load's, which differs
// from one load to the next).
func tableSums(ctx context.Context, t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	sums := map[string]string{}
	for _, table := range tables[1:] { // not tpcc_meta: it records when it was loaded
		var cols []string
		rows, err := db.QueryContext(ctx, `SELECT column_name, data_type FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, typ string
			if err := rows.Scan(&name, &typ); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(typ, "timestamp") {
				name = fmt.Sprintf("CASE WHEN %s IS NULL THEN 'null' WHEN %[1]s = '%s' THEN 'run' ELSE 'load' END",
					name, runClock.Format("2006-01-02 15:04:05"))
			}
			cols = append(cols, name)
		}
		rows.Close()
		var sum string
		q := fmt.Sprintf(`SELECT md5(string_agg(r, E'\n' ORDER BY r)) FROM (SELECT ROW(%s)::text AS r FROM %s) x`,
			strings.Join(cols, ", "), table)
		if err := db.QueryRowContext(ctx, q).Scan(&sum); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		sums[table] = sum
	}
	return sums
}

// BenchmarkModes runs decks of 100 transactions (the standard mix) on one
// terminal against the real PostgreSQL, in each mode, and reports the
// round trips and the client's CPU time (user + system, this process) per
// transaction. CI runs it once: go test -bench . -benchtime 1x.
func BenchmarkModes(b *testing.B) {
	ctx, db := postgresDB(b, "tsbench_tpcc_bench")
	for _, mode := range modes {
		b.Run(mode, func(b *testing.B) {
			term := freshTerminal(ctx, b, db, Config{Warehouses: 1, Mode: mode, Load: LoadAuto})
			defer term.conn.Close()
			w := worker{t: term}
			cpu0 := cpuTime(b)
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
			b.ReportMetric(float64(term.roundTrips)/n, "roundtrips/tx")
			b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/n, "cpu-µs/tx")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/n, "µs/tx")
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
