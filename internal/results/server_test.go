package results

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The store on real servers, as scripts/services/postgres.sh and
// mariadb.sh start them (ports overridable as the scripts' are). They skip
// when the server is down, and fail in CI.

type server struct {
	name    string // the dialect
	service string // the script and RequireServer's name
	addr    string
	// url is the store's URL for a database; admin is the driver and DSN
	// that create and drop databases.
	url          func(db string) string
	driver       string
	admin        string
	dropDatabase string
	// backslashMode is URL parameters for a session in which a backslash
	// in an SQL literal means something else than by default.
	backslashMode string
}

func servers() []server {
	pg := "127.0.0.1:" + port("TSBENCH_POSTGRES_PORT", "5433")
	my := "127.0.0.1:" + port("TSBENCH_MARIADB_PORT", "3307")
	return []server{
		{name: "postgres", service: "postgres", addr: pg,
			url:    func(db string) string { return "postgres://postgres@" + pg + "/" + db + "?sslmode=disable" },
			driver: "pgx", admin: "postgres://postgres@" + pg + "/test?sslmode=disable", dropDatabase: "DROP DATABASE IF EXISTS %s WITH (FORCE)",
			backslashMode: "&standard_conforming_strings=off"},
		{name: "mysql", service: "mariadb", addr: my,
			url:    func(db string) string { return "mysql://root@" + my + "/" + db },
			driver: "mysql", admin: "root@tcp(" + my + ")/test", dropDatabase: "DROP DATABASE IF EXISTS %s",
			backslashMode: "?sql_mode=%27NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES%27"},
	}
}

func port(env, def string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return def
}

// TestServerStores runs every store check on each server's shared database
// "test" (the checks use run ids of their own and delete their runs), by
// default and in the server's backslash mode.
func TestServerStores(t *testing.T) {
	for _, srv := range servers() {
		for _, mode := range []struct{ name, params string }{{"", ""}, {"-backslash-mode", srv.backslashMode}} {
			t.Run(srv.name+mode.name, func(t *testing.T) {
				targettest.RequireServer(t, srv.service, srv.addr)
				st := openURL(t, srv.url("test")+mode.params)
				runStoreChecks(t, st)
			})
		}
	}
}

// TestServerStoreMigrates makes the tables in a database of its own, from
// several tsbench at once, and adds the columns a first-cut store lacks.
func TestServerStoreMigrates(t *testing.T) {
	for _, srv := range servers() {
		t.Run(srv.name, func(t *testing.T) {
			targettest.RequireServer(t, srv.service, srv.addr)
			name := fmt.Sprintf("tsbench_results_%d", rand.Uint32())
			admin := openAdmin(t, srv.driver, srv.admin)
			if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { admin.Exec(fmt.Sprintf(srv.dropDatabase, name)) })
			checkMigration(t, srv.url(name))
		})
	}
}

func TestSQLiteStoreMigrates(t *testing.T) {
	checkMigration(t, filepath.Join(t.TempDir(), "results.db"))
}

// checkMigration opens a new store four times at once, drops the added
// columns as a first-cut store lacks them, and opens it again.
func checkMigration(t *testing.T, spec string) {
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			loc, err := ParseLocation(spec, "")
			if err == nil {
				var st *Store
				if st, err = Open(context.Background(), loc); err == nil {
					st.Close()
				}
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent Open of a new store: %v", err)
		}
	}
	st := openURL(t, spec)
	for _, c := range addedColumns {
		if _, err := st.DB().Exec("ALTER TABLE " + c.table + " DROP COLUMN " + c.column); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st = openURL(t, spec)
	for _, c := range addedColumns {
		if !st.hasColumn(context.Background(), c.table, c.column) {
			t.Errorf("reopened store lacks %s.%s", c.table, c.column)
		}
	}
	var v string
	if err := st.DB().QueryRow("SELECT value FROM tsbench_meta").Scan(&v); err != nil || v != "1" {
		t.Errorf("store version %q, %v", v, err)
	}
	full := finishedRun("20260301-120000-migrated", t0)
	begun := atStart(full, 0)
	if err := st.Begin(context.Background(), begun); err != nil {
		t.Fatal(err)
	}
	appendSeqs(t, st, full, []int{0, 1}, false)
	assertRunning(t, st, whileRunning(begun, full.Intervals[:2], full.Resources.Samples[:2]))
}

func openURL(t *testing.T, spec string) *Store {
	t.Helper()
	loc, err := ParseLocation(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := Open(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func openAdmin(t *testing.T, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}
