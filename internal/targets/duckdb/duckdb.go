// Package duckdb is the "duckdb" target: DuckDB embedded in tsbench through
// duckdb-go (cgo, DuckDB's prebuilt static library), file
// <data-dir>/duckdb/<DB_NAME>.duckdb.
//
// Layout: the narrow table of the postgres target,
// points(series INTEGER, t BIGINT, v DOUBLE, s VARCHAR, PRIMARY KEY (series, t)),
// plus series and devices tables naming them.
//
// Writes use DuckDB's Appender — its fastest path — into a staging table
// owned by the connection (dropped when it closes), then one INSERT OR REPLACE moves the rows into
// points: the Appender cannot upsert, and a rewritten point must replace the
// stored one. DuckDB locks its file per database instance, so all the
// clients of a run share one instance (one *sql.DB per file) and each has
// its own connection.
package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "duckdb",
	Aliases:     []string{"DuckDB"},
	Description: "DuckDB embedded: Appender into a staging table, INSERT OR REPLACE, SQL queries",
	WritePaths:  []string{"appender"},
	Server:      "embedded",
	// Sparse: one row per point, so an empty cell is a row not written.
	Caps: targets.Capabilities{Types: ts.DataTypes, Queries: ts.QueryKinds, Sparse: true, GroupByAcross: true,
		Fleet: targets.FleetOnServer},
	Open:     open,
	Language: language,
	SQL: &targets.SQLAccess{Dialect: "duckdb", Unsupported: "DuckDB's optimistic concurrency aborts a " +
		"transaction that updates a row another open transaction updated, and it has no SELECT ... FOR " +
		"UPDATE; every TPC-C New-Order and Payment updates its district's row, so concurrent terminals " +
		"would mostly abort; use postgres or mysql"},
}

func init() { targets.Register(Driver) }

// instance is one open database file, shared by the run's Targets.
type instance struct {
	db   *sql.DB
	refs int
}

var instances = struct {
	sync.Mutex
	m   map[string]*instance
	seq int
}{m: map[string]*instance{}}

// Target is one client's connection.
type Target struct {
	path  string
	inst  *instance
	conn  *sql.Conn
	stage string // this connection's staging table

	targets.Bound     // the lock and the schema
	sqlfamily.Queries // Query and Count on conn
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	name := o.DatabaseOr("test")
	if strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("duckdb: database name %q must not contain a path separator", name)
	}
	dir := o.DataDir
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("duckdb: %w", err)
	}
	path := filepath.Join(dir, name+".duckdb")
	instances.Lock()
	defer instances.Unlock()
	inst := instances.m[path]
	if inst == nil {
		db, err := sql.Open("duckdb", path)
		if err != nil {
			return nil, fmt.Errorf("duckdb: open %s: %w", path, err)
		}
		inst = &instance{db: db}
		instances.m[path] = inst
	}
	conn, err := inst.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("duckdb: connect to %s: %w", path, err)
	}
	inst.refs++
	instances.seq++
	t := &Target{path: path, inst: inst, conn: conn, stage: "stage_" + strconv.Itoa(instances.seq)}
	t.Binding = targets.NewBinding("duckdb")
	t.Queries = sqlfamily.Queries{D: &Dialect, DB: conn, Bound: &t.Bound, Wrap: t.wrap,
		Drop: dropTables, DDL: ddl}
	return t, nil
}

func (t *Target) wrap(what string, err error) error {
	return fmt.Errorf("duckdb: %s (%s): %w", what, t.path, err)
}

// dropTables drops the tables, one statement each.
var dropTables = []string{"DROP TABLE IF EXISTS points", "DROP TABLE IF EXISTS series", "DROP TABLE IF EXISTS devices"}

var ddl = []string{
	`CREATE TABLE IF NOT EXISTS points (series INTEGER NOT NULL, t BIGINT NOT NULL, v DOUBLE, s VARCHAR, PRIMARY KEY (series, t))`,
	`CREATE TABLE IF NOT EXISTS series (id INTEGER PRIMARY KEY, device VARCHAR, device_index INTEGER, sensor VARCHAR, type VARCHAR, grp VARCHAR)`,
	`CREATE TABLE IF NOT EXISTS devices (name VARCHAR PRIMARY KEY, idx INTEGER, grp VARCHAR, tags VARCHAR)`,
}

// Write appends a batch to the staging table, then upserts it into points.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	if _, err := t.conn.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+t.stage+
		" (series INTEGER, t BIGINT, v DOUBLE, s VARCHAR)"); err != nil {
		return t.wrap("staging table", err)
	}
	base, err := t.SeriesBase(b)
	if err != nil {
		return err
	}
	err = t.conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", t.stage)
		if err != nil {
			return err
		}
		sparse := b.Nulls > 0
		for sn := range b.Columns {
			c := &b.Columns[sn]
			id := int32(base + int64(sn))
			for i, tm := range b.Times {
				if sparse && !c.Present(i) {
					continue // an empty cell is no point: no row
				}
				var v, txt driver.Value
				if c.Type == ts.Text {
					txt = c.Texts[i]
				} else {
					v, _ = c.Number(i)
				}
				if err := app.AppendRow(id, tm, v, txt); err != nil {
					app.Close()
					return err
				}
			}
		}
		return app.Close() // flushes
	})
	if err != nil {
		return t.wrap("append batch", err)
	}
	if _, err := t.conn.ExecContext(ctx, "INSERT OR REPLACE INTO points SELECT * FROM "+t.stage+"; DELETE FROM "+t.stage); err != nil {
		return t.wrap("write batch", err)
	}
	return nil
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	var v string
	if err := t.conn.QueryRowContext(ctx, "SELECT version()").Scan(&v); err != nil {
		return "", t.wrap("version", err)
	}
	return "DuckDB " + v, nil
}

// StorageBytes implements targets.Sizer: the database file after a checkpoint.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	if _, err := t.conn.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return 0, t.wrap("checkpoint", err)
	}
	fi, err := os.Stat(t.path)
	if err != nil {
		return 0, t.wrap("file size", err)
	}
	return fi.Size(), nil
}

// Close drops the staging table and releases the connection, and the
// database when its last user leaves.
func (t *Target) Close() error {
	t.conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+t.stage) //nolint:errcheck // best effort
	err := t.conn.Close()
	instances.Lock()
	defer instances.Unlock()
	t.inst.refs--
	if t.inst.refs == 0 {
		delete(instances.m, t.path)
		if cerr := t.inst.db.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// with sqlfamily's SQL: the session questions with lag and lead.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	return t.Queries.Fleet(ctx, q)
}
