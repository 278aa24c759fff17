package main

// Papercuts a user meets outside the checkout (issue 32): the Spark job
// must come with the binary, and a DB_NAME that does not exist yet must be
// created by the target, not end the run.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
)

// tsbenchIn runs the binary like tsbench does, but from working directory
// dir, with room for a Spark job.
func tsbenchIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return runBinary(t, dir, 4*time.Minute, env, args...)
}

// freshDB is a database name no other test or run uses.
func freshDB(prefix string) string {
	b := make([]byte, 5)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// dropMariaDB removes database name from the MariaDB server after the test.
func dropMariaDB(t *testing.T, name string) {
	t.Cleanup(func() {
		cfg := mysql.NewConfig()
		cfg.Net, cfg.Addr, cfg.User = "tcp", "127.0.0.1:3307", "root"
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			t.Error(err)
			return
		}
		db := sql.OpenDB(conn)
		defer db.Close()
		if _, err := db.Exec("DROP DATABASE IF EXISTS `" + name + "`"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
}

// das-events' analytics on Apache Spark against MariaDB, run from a
// directory with no checkout around it (so the job cannot be found on disk)
// and into a database that does not exist yet: the built-in job runs and
// every answer Spark wrote back equals the generator's. (The same run from
// inside the checkout was a test of its own; the job is built in either
// way, so this one covers it. internal/analytics/spark runs the job on
// PostgreSQL without the command; this is Spark's only run on MariaDB.)
func TestSparkAwayFromCheckout(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "mysql")
	requireSpark(t)
	db := freshDB("tsbench_away_")
	dropMariaDB(t, db)
	work, data := t.TempDir(), t.TempDir()
	r := tsbenchIn(t, work, []string{"TSBENCH_SPARK_JOB="}, "run", "--scenario", "das-events", "--target", "mysql",
		"--scale", "0.002", "--set", "DB_NAME="+db, "--analytics-engine", "spark", "--quiet", "--data-dir", data)
	checkSparkAnalytics(t, r, data)
}

// A run with DB_NAME naming a database that does not exist yet creates it
// (two clients opening it at once) and writes every point into it.
func TestRunCreatesPostgresDatabase(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "postgres")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := pgx.Connect(ctx, "host=127.0.0.1 port=5433 dbname=postgres user=postgres password=postgres sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close(context.Background()) }) // after the drop below
	db := freshDB("tsbench_crashdb_")
	t.Cleanup(func() {
		if _, err := pg.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", db, err)
		}
	})
	r := tsbench(t, nil, "run", "--target", "postgres", "--set", "DB_NAME="+db, "--devices", "4", "--clients", "2",
		"--loop", "20", "--quiet", "--data-dir", t.TempDir())
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	in, err := pgx.Connect(ctx, "host=127.0.0.1 port=5433 user=postgres password=postgres sslmode=disable dbname="+db)
	if err != nil {
		t.Fatalf("the run did not create database %s: %v", db, err)
	}
	defer in.Close(context.Background())
	var n int64
	if err := in.QueryRow(ctx, "SELECT count(*) FROM points").Scan(&n); err != nil || n == 0 {
		t.Errorf("points in %s: %d (%v), want some", db, n, err)
	}
}
