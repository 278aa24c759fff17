package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

const testAddr = "127.0.0.1:3307"

// admin is a root connection to no database, for setting up and cleaning up
// what the tests create.
func admin(t *testing.T) *sql.DB {
	t.Helper()
	targettest.RequireServer(t, "mariadb", testAddr)
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User = "tcp", testAddr, "root"
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	return db
}

// dropDatabase removes name after the test.
func dropDatabase(t *testing.T, db *sql.DB, name string) {
	t.Cleanup(func() {
		if _, err := db.Exec("DROP DATABASE IF EXISTS " + quoteIdent(name)); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
}

func databaseExists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// A DB_NAME that does not exist yet is created, even when several clients
// open it at the same time; the clients then work in it.
func TestCreatesMissingDatabase(t *testing.T) {
	adm := admin(t)
	name := targettest.FreshName("tsbench-New ")
	dropDatabase(t, adm, name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	targettest.OpenConcurrently(ctx, t, 4, func(ctx context.Context) error { return openAndCheck(ctx, name) })
	if !databaseExists(t, adm, name) {
		t.Fatalf("database %q was not created", name)
	}
}

// openAndCheck opens the target on database name and checks that it is
// connected to it.
func openAndCheck(ctx context.Context, name string) error {
	tg, err := Driver.Open(ctx, targets.Options{Database: name})
	if err != nil {
		return err
	}
	defer tg.Close()
	var got string
	if err := tg.(*Target).db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&got); err != nil {
		return err
	}
	if got != name {
		return fmt.Errorf("connected to %s, want %s", got, name)
	}
	return nil
}

// The database/sql handle (TPC-C) creates a missing database too.
func TestSQLCreatesMissingDatabase(t *testing.T) {
	adm := admin(t)
	name := targettest.FreshName("tsbench_sql_")
	dropDatabase(t, adm, name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := Driver.SQL.Open(ctx, targets.Options{Database: name})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got string
	if err := db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != name {
		t.Fatalf("connected to %s, want %s", got, name)
	}
}

// A user who may read every database but create none gets an error that
// names the target, the database and the mysql command that creates it;
// nothing is created.
func TestMissingDatabaseRefused(t *testing.T) {
	adm := admin(t)
	user, name := targettest.FreshName("tsb_nocreate_"), targettest.FreshName("tsbench_refused_")
	account := "'" + user + "'@'%'"
	for _, q := range []string{"CREATE USER " + account, "GRANT SELECT ON *.* TO " + account} {
		if _, err := adm.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if _, err := adm.Exec("DROP USER IF EXISTS " + account); err != nil {
			t.Errorf("drop user %s: %v", user, err)
		}
	})
	dropDatabase(t, adm, name) // in case the refusal fails to refuse
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tg, err := Driver.Open(ctx, targets.Options{User: user, Database: name})
	if err == nil {
		tg.Close()
		t.Fatalf("user %s without CREATE opened a missing database", user)
	}
	t.Log(err)
	for _, want := range []string{"mysql: ", `database "` + name + `" does not exist`, "user " + user,
		"Access denied", "mysql -h 127.0.0.1 -P 3307 -u root -p -e 'CREATE DATABASE `" + name + "`'"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if databaseExists(t, adm, name) {
		t.Errorf("database %s was created", name)
	}
}

// Identifiers and the command in the error survive any name.
func TestQuoting(t *testing.T) {
	for _, c := range []struct{ in, ident, shell string }{
		{"crashdb", "`crashdb`", "crashdb"},
		{"my db", "`my db`", "'my db'"},
		{"a`b", "`a``b`", "'a`b'"},
		{"it's", "`it's`", `'it'\''s'`},
	} {
		if got := quoteIdent(c.in); got != c.ident {
			t.Errorf("quoteIdent(%q) = %s, want %s", c.in, got, c.ident)
		}
		if got := shellQuote(c.in); got != c.shell {
			t.Errorf("shellQuote(%q) = %s, want %s", c.in, got, c.shell)
		}
	}
}
