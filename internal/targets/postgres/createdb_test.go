package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

const testAddr = "127.0.0.1:5433"

// admin is a superuser connection to the maintenance database, for setting
// up and cleaning up what the tests create.
func admin(t *testing.T) *pgx.Conn {
	t.Helper()
	targettest.RequireServer(t, "postgres", testAddr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := pgx.Connect(ctx, "host=127.0.0.1 port=5433 dbname=postgres user=postgres password=postgres sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close(context.Background()) })
	return pg
}

// dropDatabase removes name after the test, whoever still holds it open.
func dropDatabase(t *testing.T, pg *pgx.Conn, name string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := pg.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
}

func databaseExists(t *testing.T, pg *pgx.Conn, name string) bool {
	t.Helper()
	var n int
	if err := pg.QueryRow(context.Background(), "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// A DB_NAME that does not exist yet is created, once, even when several
// clients open it at the same time; the clients then work in it.
func TestCreatesMissingDatabase(t *testing.T) {
	pg := admin(t)
	name := targettest.FreshName("tsbench-New ")
	dropDatabase(t, pg, name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	targettest.OpenConcurrently(ctx, t, 4, func(ctx context.Context) error { return openAndCheck(ctx, name) })
	if !databaseExists(t, pg, name) {
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
	if err := tg.(*Target).c.pg.QueryRow(ctx, "SELECT current_database()").Scan(&got); err != nil {
		return err
	}
	if got != name {
		return fmt.Errorf("connected to %s, want %s", got, name)
	}
	return nil
}

// The database/sql handle (TPC-C) creates a missing database too.
func TestSQLCreatesMissingDatabase(t *testing.T) {
	pg := admin(t)
	name := targettest.FreshName("tsbench_sql_")
	dropDatabase(t, pg, name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := Driver.SQL.Open(ctx, targets.Options{Database: name})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got string
	if err := db.QueryRowContext(ctx, "SELECT current_database()").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != name {
		t.Fatalf("connected to %s, want %s", got, name)
	}
}

// A user who may not create databases gets an error that names the target,
// the database and the createdb command that creates it; nothing is
// created.
func TestMissingDatabaseRefused(t *testing.T) {
	pg := admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	role, name := targettest.FreshName("tsbench_nocreate_"), targettest.FreshName("tsbench_refused_")
	if _, err := pg.Exec(ctx, "CREATE ROLE "+role+" LOGIN NOCREATEDB"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := pg.Exec(context.Background(), "DROP ROLE IF EXISTS "+role); err != nil {
			t.Errorf("drop role %s: %v", role, err)
		}
	})
	dropDatabase(t, pg, name) // in case the refusal fails to refuse
	tg, err := Driver.Open(ctx, targets.Options{User: role, Database: name})
	if err == nil {
		tg.Close()
		t.Fatalf("user %s without CREATEDB opened a missing database", role)
	}
	t.Log(err)
	for _, want := range []string{"postgres: ", `database "` + name + `" does not exist`, "user " + role,
		"permission denied", "createdb -h 127.0.0.1 -p 5433 -U postgres " + name} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if databaseExists(t, pg, name) {
		t.Errorf("database %s was created", name)
	}
}

// The command in the error pastes into a shell as one word, whatever the
// name.
func TestShellQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"crashdb", "crashdb"},
		{"my db", "'my db'"},
		{"it's", `'it'\''s'`},
		{"$(rm)", "'$(rm)'"},
		{"", "''"},
	} {
		if got := shellQuote(c.in); got != c.want {
			t.Errorf("shellQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
