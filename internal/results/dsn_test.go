package results

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/target/targettest"
)

// The store on real servers, as scripts/services/postgres.sh and
// mariadb.sh start them (ports overridable as the scripts' are). Each test
// creates its own database and drops it afterwards. They skip when the
// server is down, and fail in CI.

func port(env, def string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return def
}

func TestPostgresStore(t *testing.T) {
	addr := "127.0.0.1:" + port("TSBENCH_POSTGRES_PORT", "5433")
	targettest.RequireServer(t, "postgres", addr)
	name := fmt.Sprintf("tsbench_results_%d", rand.Uint32())
	admin := openAdmin(t, "pgx", "postgres://postgres@"+addr+"/test?sslmode=disable")
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	storeOn(t, "postgres://postgres@"+addr+"/"+name+"?sslmode=disable")
}

func TestMySQLStore(t *testing.T) {
	addr := "127.0.0.1:" + port("TSBENCH_MARIADB_PORT", "3307")
	targettest.RequireServer(t, "mariadb", addr)
	name := fmt.Sprintf("tsbench_results_%d", rand.Uint32())
	admin := openAdmin(t, "mysql", "root@tcp("+addr+")/test")
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE IF EXISTS " + name) })
	storeOn(t, "mysql://root@"+addr+"/"+name)
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

func storeOn(t *testing.T, spec string) {
	loc, err := ParseLocation(spec, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, st)
	st.Close()
	// Opening an existing store again finds its tables and version.
	st, err = Open(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if runs, err := st.List(context.Background(), Filter{}); err != nil || len(runs) != 2 {
		t.Fatalf("reopened store: %d runs, %v", len(runs), err)
	}
}
