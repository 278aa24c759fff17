package tpcc

import (
	"context"
	"database/sql"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestOnServers loads one warehouse into the real PostgreSQL and MariaDB
// servers of scripts/services (both releases of each), runs the mix for a
// few seconds with four terminals in each mode, and checks after each
// what the database holds: the twelve consistency conditions after the
// load and eleven after the run, the mix, and the rows the committed
// transactions must have added (one order per committed New-Order, one
// history row per Payment).
func TestOnServers(t *testing.T) { onServers(t, runOn) }

// onServers runs f as a subtest on each server of scripts/services that
// speaks a dialect of this package (servers), in its database "test".
func onServers(t *testing.T, f func(ctx context.Context, t *testing.T, db *sql.DB, dialect string)) {
	for _, c := range servers {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each its own server, side by side (go test -parallel)
			if conn, err := net.DialTimeout("tcp", c.addr(), 2*time.Second); err != nil {
				testenv.Require(t, c.name+" server not running on "+c.addr()+" (scripts/services/"+c.service+".sh start)")
			} else {
				conn.Close()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			db, err := c.driver.SQL.Open(ctx, targets.Options{Database: "test", Port: c.port})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			f(ctx, t, db, c.driver.SQL.Dialect)
		})
	}
}

func runOn(ctx context.Context, t *testing.T, db *sql.DB, dialect string) {
	for i, mode := range modes {
		load := LoadAuto
		if i == 0 {
			load = LoadAlways
		}
		t.Run(mode, func(t *testing.T) {
			runMode(ctx, t, db, dialect, Config{Warehouses: 1, Terminals: 4, Duration: 6 * time.Second, Load: load, Seed: 7,
				TxTimeout: 30 * time.Second, Mode: mode})
		})
	}
}

func runMode(ctx context.Context, t *testing.T, db *sql.DB, dialect string, cfg Config) {
	load, c, err := Prepare(ctx, db, dialect, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Load == LoadAlways && (!load.Loaded || !AllOK(load.Checks) || len(load.Checks) != 12) {
		t.Fatalf("fresh load: loaded %v, checks %+v", load.Loaded, load.Checks)
	}
	if load.Loaded {
		t.Logf("%s: loaded %d rows in %.1f s", dialect, load.Rows, load.Seconds)
	}
	orders0, history0 := count(ctx, t, db, "tpcc_orders"), count(ctx, t, db, "tpcc_history")

	r, err := NewRun(db, dialect, cfg, c)
	if err != nil {
		t.Fatal(err)
	}
	res, out := execute(ctx, t, r, cfg)
	rows := map[string]summary.Operation{}
	var total, failed int64
	for _, o := range res.Operations {
		rows[o.Name] = o
		total += o.OKOperations
		failed += o.FailOperations
		if o.OKOperations > 0 && !(o.LatencyMS.Min <= o.LatencyMS.P90 && o.LatencyMS.P90 <= o.LatencyMS.Max) {
			t.Errorf("%s: latency not ordered: %+v", o.Name, o.LatencyMS)
		}
		for _, f := range o.Failures {
			t.Logf("%s: %d failed: %s", o.Name, f.Operations, f.Example)
		}
	}
	no, pay := rows["NEW_ORDER"], rows["PAYMENT"]
	t.Logf("%s %s: %d transactions in %.1f s (%.0f tpmC), %d failed, %d rollbacks", dialect, cfg.Mode, total, res.Elapsed.Seconds(),
		float64(no.OKOperations)/res.Elapsed.Minutes(), failed, out.Rollbacks)
	if total < 200 {
		t.Fatalf("only %d transactions committed", total)
	}
	if float64(failed) > 0.01*float64(total+failed) {
		t.Errorf("%d of %d transactions failed", failed, total+failed)
	}
	// The mix: a terminal's every 100 transactions follow it exactly, so
	// the shares are off by at most one partial deck per terminal.
	tolerance := math.Max(0.02, float64(cfg.Terminals)*100/float64(total+failed))
	for tx, cards := range Mix {
		o := rows[Tx(tx).String()]
		share := float64(o.OKOperations+o.FailOperations) / float64(total+failed)
		if math.Abs(share-float64(cards)/100) > tolerance {
			t.Errorf("%s: %.3f of transactions, want %.2f ± %.3f", Tx(tx), share, float64(cards)/100, tolerance)
		}
	}
	if no.OKOperations >= 700 && out.Rollbacks == 0 {
		t.Errorf("%d New-Orders and not one rolled back (1 %% should)", no.OKOperations)
	}
	if float64(out.Rollbacks) > 0.05*float64(no.OKOperations)+3 {
		t.Errorf("%d rollbacks of %d New-Orders", out.Rollbacks, no.OKOperations)
	}
	if got, want := count(ctx, t, db, "tpcc_orders")-orders0, no.OKOperations-out.Rollbacks; got != want {
		t.Errorf("orders grew by %d, want %d (committed New-Orders)", got, want)
	}
	if got := count(ctx, t, db, "tpcc_history") - history0; got != pay.OKOperations {
		t.Errorf("history grew by %d, want %d (committed Payments)", got, pay.OKOperations)
	}
	checks, err := CheckConsistency(ctx, db, dialect, false)
	if err != nil {
		t.Fatal(err)
	}
	if !AllOK(checks) || len(checks) != 11 {
		t.Errorf("after the run: %+v", checks)
	}
	// Every New-Order the terminals saw committed is in its district.
	no2, err := r.CheckNewOrders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if no2.Lost != 0 || no2.Unexplained != 0 || no2.Committed < no.OKOperations-out.Rollbacks || no2.Found != no2.Committed {
		t.Errorf("new orders %+v, %d measured (%d rolled back)", no2, no.OKOperations, out.Rollbacks)
	}
}

// execute runs r's terminals on the engine and returns what it measured
// and what the terminals counted.
func execute(ctx context.Context, t *testing.T, r *Run, cfg Config) (*engine.Result, Outcome) {
	t.Helper()
	workers, err := r.Open(ctx)
	defer r.Close()
	if err != nil {
		t.Fatal(err)
	}
	var ec engine.Config
	cfg.Drive(&ec)
	e := engine.New(ec, engine.Hooks{})
	return e.Run(ctx, workers, e.Handles(len(workers))), r.Outcome()
}

func count(ctx context.Context, t *testing.T, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A TPC-C run names its server's version as the time-series target of the
// same server does (targets.Versioner), so that tsbench compare sees the
// two runs as runs of one version; each release names its own.
func TestServerVersionAsTarget(t *testing.T) {
	want := map[string]string{"postgres": "PostgreSQL 15.", "postgres-18": "PostgreSQL 18.", "mysql": "10.11.",
		"mariadb-11.4": "11.4."}
	for _, c := range servers {
		t.Run(c.name, func(t *testing.T) {
			ctx, db := serverDB(t, c, "test")
			got := ServerVersion(ctx, db, c.driver.SQL.Dialect)
			tg, err := c.driver.Open(ctx, targets.Options{Database: "test", Port: c.port})
			if err != nil {
				t.Fatal(err)
			}
			defer tg.Close()
			ts, err := tg.(targets.Versioner).ServerVersion(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got != ts || !strings.HasPrefix(got, want[c.name]) {
				t.Errorf("TPC-C names %q, the target %q; want both to start %q", got, ts, want[c.name])
			}
		})
	}
}
