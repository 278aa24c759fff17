// Package sqltest is what the tests of the SQL targets share: the
// conformance suite and the write benchmark over target options, TLS
// against a TLS-only server, and the creation of a missing database, all
// against the real servers of scripts/services.
package sqltest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// Server is a test server: its name in scripts/services and its address.
type Server = targettest.Server

// Opener is a target's database/sql access (targets.SQLAccess.Open).
type Opener func(ctx context.Context, o targets.Options) (*sql.DB, error)

// TLS runs targettest's TLS cases and extra against a TLS-only server whose
// CA is ca, on port, through open (the target's database/sql access);
// encrypted is a query of one value that is neither empty nor false on an
// encrypted connection. Then TLS asked of srv, which has none, must be
// targets.ErrNoTLS from the target and from open: never plaintext.
func TLS(t *testing.T, srv Server, d *targets.Driver, ca string, port int, open Opener, encrypted string, extra ...targettest.TLSCase) {
	cases := append(targettest.TLSCases(ca, testenv.WriteCerts(t, t.TempDir())), extra...)
	targettest.RunTLS(t, cases, func(ctx context.Context, tls targets.TLS) (bool, error) {
		db, err := open(ctx, targets.Options{Port: port, Database: "test", TLS: tls})
		if err != nil {
			return false, err
		}
		defer db.Close()
		var v sql.NullString
		err = db.QueryRowContext(ctx, encrypted).Scan(&v)
		return v.String != "" && v.String != "false", err
	})
	t.Run("server without TLS", func(t *testing.T) { noTLS(t, srv, d, open) })
}

func noTLS(t *testing.T, srv Server, d *targets.Driver, open Opener) {
	srv.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := d.Open(ctx, targets.Options{Database: "test", TLS: targets.TLS{Mode: "on"}}); !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("error %v, want targets.ErrNoTLS", err)
	}
	db, err := open(ctx, targets.Options{Database: "test", TLS: targets.TLS{Mode: "insecure"}})
	if err == nil {
		db.Close()
	}
	if !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("database/sql access: error %v, want targets.ErrNoTLS", err)
	}
}

// CreateDB is what the tests of a missing database need of a server.
type CreateDB struct {
	// Admin is a connection that may create and drop databases and users.
	Admin func(ctx context.Context) (*sql.DB, error)
	// Drop drops the database named (whoever holds it open), Exists counts
	// the databases of the name given as its one parameter, Current is the
	// current database's name.
	Drop    func(name string) string
	Exists  string
	Current string
	// TargetCurrent is the current database's name on an opened target.
	TargetCurrent func(ctx context.Context, tg targets.Target) (string, error)
	// NoCreate are the statements that make user (formatted into each) a
	// user who may log in but not create a database; DropUser removes it.
	NoCreate []string
	DropUser string
	// Refused lists what the error must say for the database name and the
	// user: the target, the server's refusal, the command that creates it.
	Refused func(name, user string) []string
}

// Run checks that a missing database is created by the target (once, with
// clients opening it at the same time) and by its database/sql access, and
// that a user who may not create it gets an error naming the database, the
// user and the command that creates it, with nothing created.
//
// long: one suite, whose three cases share the admin connection and its helpers
func (c CreateDB) Run(t *testing.T, srv Server, d *targets.Driver) {
	srv.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	adm, err := c.Admin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { adm.Close() })
	drop := func(t *testing.T, name string) {
		t.Cleanup(func() {
			if _, err := adm.ExecContext(context.Background(), c.Drop(name)); err != nil {
				t.Errorf("drop database %s: %v", name, err)
			}
		})
	}
	exists := func(t *testing.T, name string) bool {
		var n int
		if err := adm.QueryRowContext(ctx, c.Exists, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	current := func(got, name string, err error) error {
		if err != nil {
			return err
		}
		if got != name {
			return fmt.Errorf("connected to %s, want %s", got, name)
		}
		return nil
	}

	t.Run("concurrent", func(t *testing.T) {
		name := targettest.FreshName("tsbench-New ")
		drop(t, name)
		targettest.OpenConcurrently(ctx, t, 4, func(ctx context.Context) error {
			tg, err := d.Open(ctx, targets.Options{Database: name})
			if err != nil {
				return err
			}
			defer tg.Close()
			got, err := c.TargetCurrent(ctx, tg)
			return current(got, name, err)
		})
		if !exists(t, name) {
			t.Fatalf("database %q was not created", name)
		}
	})
	t.Run("database/sql", func(t *testing.T) {
		name := targettest.FreshName("tsbench_sql_")
		drop(t, name)
		db, err := d.SQL.Open(ctx, targets.Options{Database: name})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var got string
		err = db.QueryRowContext(ctx, c.Current).Scan(&got)
		if err := current(got, name, err); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("refused", func(t *testing.T) {
		user, name := targettest.FreshName("tsb_nocreate_"), targettest.FreshName("tsbench_refused_")
		for _, q := range c.NoCreate {
			if _, err := adm.ExecContext(ctx, fmt.Sprintf(q, user)); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() {
			if _, err := adm.ExecContext(context.Background(), fmt.Sprintf(c.DropUser, user)); err != nil {
				t.Errorf("drop user %s: %v", user, err)
			}
		})
		drop(t, name) // in case the refusal fails to refuse
		tg, err := d.Open(ctx, targets.Options{User: user, Database: name})
		if err == nil {
			tg.Close()
			t.Fatalf("user %s who may not create databases opened a missing one", user)
		}
		t.Log(err)
		for _, want := range append(c.Refused(name, user), `database "`+name+`" does not exist`, "user "+user) {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if exists(t, name) {
			t.Errorf("database %s was created", name)
		}
	})
}
