// Package sqlite is the "sqlite" target: the real SQLite engine, embedded
// through modernc.org/sqlite (pure Go, no cgo), writing one file
// DataDir/<Database>.db.
//
// # Layout
//
// Points live in one narrow table, one row per point:
//
//	CREATE TABLE points (
//	    series INTEGER NOT NULL,  -- Schema.SeriesID(device position, sensor)
//	    t      INTEGER NOT NULL,  -- milliseconds since the epoch
//	    v,                        -- no declared type: the value as written
//	    PRIMARY KEY (series, t)
//	) WITHOUT ROWID
//
// Why narrow, not one column per sensor: SQLite allows at most 2000 columns
// and seed 002's CRRC case has 3000 sensors per device. One row per point
// handles any number of sensors and any mix of types with one index, and every
// query of Q1..Q10 becomes a range scan of that index (series, then time).
//
// Why v has no declared type: a column without one has no type affinity, so
// SQLite keeps each value with the storage class it was bound with: INT32 and
// INT64 as INTEGER, FLOAT and DOUBLE as REAL, TEXT as TEXT, and BOOLEAN as the
// INTEGER 0 or 1. Comparisons (v > lower) and aggregates then work on numbers.
//
// Why WITHOUT ROWID and this primary key: the table is its own index, clustered
// by (series, t), which makes a point unique per series and timestamp. Writes
// use INSERT OR REPLACE, so writing a timestamp again replaces the value, as a
// time-series database does, and COUNT(*) is the number of distinct stored
// points: the verification then shows any timestamp collision of a workload
// (IoT-benchmark's BATCH out-of-order mode lost 99% of its points that way).
//
// Two small tables describe the series for a person (or a test) reading the
// file with plain SQL:
//
//	series(id INTEGER PRIMARY KEY, device TEXT, device_index INTEGER, sensor TEXT, type TEXT, grp TEXT)
//	devices(name TEXT PRIMARY KEY, idx INTEGER, grp TEXT, tags TEXT)  -- tags as a JSON object
//
// so that, for example,
//
//	SELECT s.device, s.sensor, p.t, p.v FROM points p JOIN series s ON s.id = p.series
//
// lists every point.
//
// # Connections
//
// Each Target (one per benchmark client) opens its own database/sql pool of
// exactly one connection on the shared file, in WAL mode with
// synchronous=NORMAL (a commit does not wait for fsync; a power loss may
// drop the last transactions but never corrupts the file), temporary storage
// in memory, a 30 s busy timeout and BEGIN IMMEDIATE transactions:
// concurrent writers then queue on SQLite's busy handler instead of failing
// with SQLITE_BUSY when a deferred transaction tries to upgrade its lock.
// SQLite has one writer at a time, so more clients add queueing, not write
// throughput; readers run beside the writer thanks to WAL.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// Driver is the registered description of the SQLite target.
var Driver = &targets.Driver{
	Name:        "sqlite",
	Aliases:     []string{"SQLite"},
	Description: "SQLite (modernc.org/sqlite, embedded, pure Go): one narrow WITHOUT ROWID table keyed by (series, time)",
	WritePaths:  []string{"insert"},
	Server:      "embedded",
	Caps: targets.Capabilities{
		Types:   append([]ts.DataType(nil), ts.DataTypes...),
		Queries: append([]ts.QueryKind(nil), ts.QueryKinds...),
		Sparse:  true, // one row per point: an empty cell is a row not written
		// Q7 across devices groups by sensor (series % sensors), not series.
		GroupByAcross: true,
		Fleet:         targets.FleetOnServer, // sqlfamily's SQL (Dialect.Fleet)
	},
	Open:     open,
	Language: language,
	SQL: &targets.SQLAccess{Dialect: "sqlite", Unsupported: "SQLite lets one connection write at a time " +
		"(a database-wide lock), so TPC-C's concurrent terminals would measure waits for that lock " +
		"(SQLITE_BUSY), not transactions; use postgres or mysql"},
}

func init() { targets.Register(Driver) }

// DefaultDatabase names the file when Options.Database is empty.
const DefaultDatabase = "tsbench"

// Target is one client's connection to the SQLite file.
type Target struct {
	path string
	db   *sql.DB

	// Mu guards the Binding and the statement caches. The Binding's errors
	// carry no "sqlite: " prefix: Write, Query and Count add it with what
	// they were doing.
	targets.Bound
	// family is Analyze and FleetQuery: sqlfamily's, as mysql's and
	// duckdb's, on db.
	family sqlfamily.Queries
	// numeric[i] tells whether sensor i is numeric (value filters and
	// sum/avg/min/max apply to it).
	numeric []bool

	w     writer            // Write's reusable buffers and statements
	stmts sqlfamily.Stmts   // prepared query statements
	qb    sqlfamily.Builder // Query's statement, reused
	ids   []int64           // Query's series, reused
}

var (
	_ targets.Target    = (*Target)(nil)
	_ targets.Binder    = (*Target)(nil)
	_ targets.Versioner = (*Target)(nil)
	_ targets.Sizer     = (*Target)(nil)

	_ targets.StatementRunner = (*Target)(nil)
)

// Path is the database file the target uses.
func (t *Target) Path() string { return t.path }

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	dir := o.DataDir
	if dir == "" {
		dir = "."
	}
	name := o.DatabaseOr(DefaultDatabase)
	if strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("sqlite: database name %q must not contain a path separator", name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sqlite: create data directory: %w", err)
	}
	path := filepath.Join(dir, name+".db")
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// One connection per Target: a benchmark client has one connection, and
	// the prepared statements then live on it for good.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	t := &Target{path: path, db: db}
	t.Binding = targets.NewBinding("")
	t.family = sqlfamily.Queries{D: &Dialect, DB: db, Bound: &t.Bound,
		Wrap: func(what string, err error) error { return fmt.Errorf("sqlite: %s: %w", what, err) }}
	t.qb.D = &Dialect
	t.w.ins = sqlfamily.Inserter{D: &Dialect, PerStmt: rowsPerStmt}
	return t, nil
}

// dsn builds the modernc.org/sqlite URI for path. In a "file:" URI SQLite
// decodes %XX escapes, so the characters that would end the path ('?', '#')
// and '%' itself are escaped.
//
// busy_timeout comes first so that the PRAGMAs after it already wait for a
// lock instead of failing. temp_store(MEMORY) keeps the statement journal
// in memory: every INSERT OR REPLACE after the first of a transaction
// journals the pages it changes, in a temporary file by default, which cost
// about a fifth of the write rate in BenchmarkSQLiteWrite.
func dsn(path string) string {
	p := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
	return "file:" + p +
		"?_pragma=busy_timeout(30000)" +
		"&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)" +
		"&_pragma=temp_store(MEMORY)" +
		"&_txlock=immediate"
}

const ddl = `
CREATE TABLE IF NOT EXISTS points (
	series INTEGER NOT NULL,
	t      INTEGER NOT NULL,
	v,
	PRIMARY KEY (series, t)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS series (
	id           INTEGER PRIMARY KEY,
	device       TEXT NOT NULL,
	device_index INTEGER NOT NULL,
	sensor       TEXT NOT NULL,
	type         TEXT NOT NULL,
	grp          TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS devices (
	name TEXT PRIMARY KEY,
	idx  INTEGER NOT NULL,
	grp  TEXT NOT NULL,
	tags TEXT NOT NULL
);`

// Setup creates the tables (dropping them first with reset) and records the
// devices and series of s in the metadata tables.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	if err := checkSchema(s); err != nil {
		return err
	}
	t.Mu.Lock()
	defer t.Mu.Unlock()
	// Statements prepared on tables about to be dropped are of no further use.
	t.closeStmtsLocked()
	if reset {
		if _, err := t.db.ExecContext(ctx, `DROP TABLE IF EXISTS points; DROP TABLE IF EXISTS series; DROP TABLE IF EXISTS devices;`); err != nil {
			return fmt.Errorf("sqlite: setup: drop tables: %w", err)
		}
		// Give the freed pages back to the file system, so that the file
		// size and StorageBytes describe this run only.
		if _, err := t.db.ExecContext(ctx, `VACUUM`); err != nil {
			return fmt.Errorf("sqlite: setup: vacuum: %w", err)
		}
	}
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: setup: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("sqlite: setup: create tables: %w", err)
	}
	if err := Dialect.InsertMetadata(ctx, tx, s); err != nil {
		return fmt.Errorf("sqlite: setup: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: setup: commit: %w", err)
	}
	t.bindLocked(s)
	return nil
}

// Bind remembers the schema on a connection that did not run Setup, and
// checks that Setup has created the tables.
func (t *Target) Bind(ctx context.Context, s *ts.Schema) error {
	if err := checkSchema(s); err != nil {
		return err
	}
	var n int
	err := t.db.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'points'`).Scan(&n)
	if err != nil {
		return fmt.Errorf("sqlite: bind: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: bind: %s has no points table: run Setup first", t.path)
	}
	t.Mu.Lock()
	defer t.Mu.Unlock()
	t.closeStmtsLocked()
	t.bindLocked(s)
	return nil
}

func checkSchema(s *ts.Schema) error {
	if s == nil {
		return errors.New("sqlite: nil schema")
	}
	for i, d := range s.Devices {
		if d.Index != s.Devices[0].Index+i {
			return fmt.Errorf("sqlite: schema device indexes must be contiguous (device %q has index %d at position %d)", d.Name, d.Index, i)
		}
	}
	return nil
}

func (t *Target) bindLocked(s *ts.Schema) {
	t.Binding.Set(s)
	t.numeric = make([]bool, len(s.Sensors))
	for i, sn := range s.Sensors {
		t.numeric[i] = sn.Type.Numeric()
	}
}

// ServerVersion is SQLite's library version, e.g. "SQLite 3.50.4".
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	var v string
	if err := t.db.QueryRowContext(ctx, `SELECT sqlite_version()`).Scan(&v); err != nil {
		return "", fmt.Errorf("sqlite: version: %w", err)
	}
	return "SQLite " + v, nil
}

// StorageBytes moves the write-ahead log into the database file and returns
// the size of the database, page_count x page_size.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	// A checkpoint that cannot finish (a reader still needs old frames)
	// reports busy in its result row, not as an error; page_count below
	// counts the pages committed to the log as well, so the size is right
	// either way.
	if _, err := t.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return 0, fmt.Errorf("sqlite: checkpoint: %w", err)
	}
	var pages, size int64
	if err := t.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return 0, fmt.Errorf("sqlite: page_count: %w", err)
	}
	if err := t.db.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size); err != nil {
		return 0, fmt.Errorf("sqlite: page_size: %w", err)
	}
	return pages * size, nil
}

// Close releases the statements and the connection.
func (t *Target) Close() error {
	t.Mu.Lock()
	t.closeStmtsLocked()
	t.Mu.Unlock()
	if err := t.db.Close(); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

func (t *Target) closeStmtsLocked() {
	t.w.closeStmts()
	t.stmts.Close()
}
