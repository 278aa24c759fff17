package resultstest

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	_ "modernc.org/sqlite" // registers "sqlite"
)

// LockSQLite takes the write lock of the SQLite database at path as
// another process does, by an exclusive transaction on a connection of its
// own, and returns what gives the lock back. The test's end gives it back
// too, if the test has not.
func LockSQLite(t testing.TB, path string) (unlock func()) {
	t.Helper()
	ctx := context.Background()
	// busy_timeout(0): the lock is taken now or the test fails, never
	// waited for.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatalf("lock %s: %v", path, err)
	}
	var once sync.Once
	unlock = func() {
		once.Do(func() {
			if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
				t.Errorf("unlock %s: %v", path, err)
			}
		})
	}
	t.Cleanup(unlock)
	return unlock
}
