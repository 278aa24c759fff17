// Package postgres is the "postgres" target: PostgreSQL (and engines that
// speak its wire protocol) through pgx, one connection per benchmark client.
//
// # Layout
//
// One narrow table holds every point:
//
//	CREATE TABLE points (
//	    series INTEGER NOT NULL,          -- Schema.SeriesID(device position, sensor)
//	    t      BIGINT  NOT NULL,          -- milliseconds since the epoch
//	    v      DOUBLE PRECISION,          -- BOOLEAN (0/1), INT32, INT64, FLOAT, DOUBLE
//	    s      TEXT,                      -- TEXT values
//	    PRIMARY KEY (series, t))
//
// Narrow, because it handles any number of sensors (PostgreSQL allows 1,600
// columns; seed 002's trains have 3,000 sensors) and any type mix with one
// index that serves every query kind as a range scan (series, then time).
// Numbers share one DOUBLE PRECISION column so that value filters and
// aggregates need no per-type branches; INT64 values are exact up to 2^53,
// which covers what the generator produces. Timestamps are BIGINT
// milliseconds: exact, cheap to bucket for Q7 ((t - start) / bucket), and
// accepted by TimescaleDB as an integer time column.
//
// # Writes
//
// write_path=insert (default): prepared multi-row INSERT ... ON CONFLICT DO
// UPDATE. write_path=copy: one binary COPY straight into the table; when
// the primary key refuses it (a point already stored: a rewrite), nothing
// of it is kept and the batch goes through a per-connection temporary
// staging table and one INSERT ... SELECT ... ON CONFLICT DO UPDATE, in one
// transaction — COPY cannot upsert by itself, and a benchmark must not store
// a rewritten point twice (copyDirect, direct.go). A load of new points thus
// costs what TSBS's COPY costs. INSERT stays the default (the narrow
// default's behaviour as measured before: docs/tsbs.md compares them).
//
// Metadata tables series(id, device, device_index, sensor, type, grp) and
// devices(name, idx, grp, tags JSONB) name every series and device.
//
// PostgreSQL-specific SQL: ON CONFLICT, JSONB tag access (analytics only),
// = ANY($1) array parameters, TEMPORARY ... ON COMMIT DELETE ROWS. The rest
// is standard SQL.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/pgwire"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// Default ports of scripts/services/postgres.sh and timescaledb.sh.
const (
	DefaultPort          = 5433
	DefaultTimescalePort = 5434
)

// Driver registers the target.
// options are the target options of both drivers: the write path and the
// table layout.
var options = []targets.Option{
	{Name: "write_path", Values: []string{"insert", "copy"}},
	{Name: "layout", Values: []string{"narrow", "wide"}},
}

// tsbsOptions: a TSBS run stores into TSBS's table shape (a row per host
// and time, a column per field), which its queries were written for; on
// the narrow layout every query reads ten rows where TSBS reads one. On
// postgres it also loads with COPY, as tsbs_load_timescaledb does
// (docs/tsbs.md: 2.7x TSBS's rate at its batch size, where INSERT ... ON
// CONFLICT makes 0.8x); the timescaledb driver keeps INSERT, since the
// PGlite build it is tested against exits on COPY.
var (
	tsbsOptions          = map[string]string{"layout": "wide", "write_path": "copy"}
	timescaleTSBSOptions = map[string]string{"layout": "wide"}
)

var Driver = &targets.Driver{
	Name:        "postgres",
	Service:     "postgres",
	URLs:        urls,
	Aliases:     []string{"PostgreSQL", "Postgres"},
	Description: "PostgreSQL through pgx: narrow table, multi-row INSERT or binary COPY, both with upsert",
	WritePaths:  []string{"insert", "copy"},
	Server:      "scripts/services/postgres.sh (Debian's PostgreSQL 15 on 127.0.0.1:5433; postgres-18.sh: 18.6 on 5435)",
	DefaultPort: DefaultPort,
	Caps: targets.Capabilities{
		TLS:     true,
		Types:   ts.DataTypes,
		Queries: ts.QueryKinds,
		// narrow: an empty cell is a row not written; wide: a NULL cell.
		Sparse: true,
		// narrow: grouped by sensor (series % sensors); wide: per table,
		// tables combined by clientside.Partials.
		GroupByAcross: true,
		// both layouts (FleetQuery): sqlfamily's SQL.
		Fleet: targets.FleetOnServer,
	},
	Options:     options,
	TSBSOptions: tsbsOptions,
	Open:        open,
	SQL:         &targets.SQLAccess{Dialect: "postgres", Open: openSQL},
	Language:    language,
}

// TimescaleDriver registers the TimescaleDB mode: the same layout as a
// hypertable, and time_bucket for Q7.
var TimescaleDriver = &targets.Driver{
	Name:        "timescaledb",
	Service:     "timescaledb",
	URLs:        urls,
	Aliases:     []string{"TimescaleDB"},
	Description: "TimescaleDB: the postgres target with a hypertable (one-day chunks) and time_bucket for Q7",
	WritePaths:  []string{"insert", "copy"},
	Server:      "a TimescaleDB server; tested with scripts/services/timescaledb.sh (PGlite + timescaledb, SQL only, 127.0.0.1:5434)",
	DefaultPort: DefaultTimescalePort,
	Caps: targets.Capabilities{TLS: true, Types: ts.DataTypes, Queries: ts.QueryKinds, Sparse: true, GroupByAcross: true,
		Fleet: targets.FleetOnServer},
	Options:     options,
	TSBSOptions: timescaleTSBSOptions,
	Open: func(ctx context.Context, o targets.Options) (targets.Target, error) {
		return openMode(ctx, o, true)
	},
	Language: language,
}

func init() {
	targets.Register(Driver)
	targets.Register(TimescaleDriver)
}

// Target is one client's connection.
type Target struct {
	c         *conn
	cfg       *pgx.ConnConfig
	addr      string
	writePath string
	timescale bool // hypertables and time_bucket (the timescaledb driver)
	wide      bool // layout=wide: a table per group, a column per sensor

	names *wideNames // layout=wide: the schema's column and table names

	binding targets.Binding
	rows    rowSource
}

// conn is a server connection and the lock that serialises its use. Each
// postgres Target has its own; timescaledb Targets share one per address,
// because the PGlite build it is tested against serves a single connection.
type conn struct {
	wire   *pgwire.Conn
	pg     *pgx.Conn // wire's connection as of the last lock
	mu     sync.Mutex
	staged bool // the staging table exists on this connection
	refs   int
	// counted runs the measured own statements (Statement.CountOnly)
	// prepared on this connection's session.
	counted pgwire.Counted
}

func newConn(ctx context.Context, cfg *pgx.ConnConfig) (*conn, error) {
	wire, err := pgwire.Connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pg, _ := wire.Get(ctx)
	return &conn{wire: wire, pg: pg, refs: 1}, nil
}

// lock takes the connection for one operation, re-opened first when it was
// closed (pgwire.Conn.Get). On error the lock is not held.
func (c *conn) lock(ctx context.Context) error {
	c.mu.Lock()
	pg, err := c.wire.Get(ctx)
	if err != nil {
		c.mu.Unlock()
		return err
	}
	if pg != c.pg { // a new session: its temporary staging table is gone
		c.pg, c.staged = pg, false
	}
	return nil
}

// Reconnects counts the connections re-opened (targets.Reconnector).
func (t *Target) Reconnects() int64 { return t.c.wire.Reconnects() }

var shared = struct {
	sync.Mutex
	conns map[string]*conn
}{conns: map[string]*conn{}}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	return openMode(ctx, o, false)
}

func openMode(ctx context.Context, o targets.Options, timescale bool) (targets.Target, error) {
	defaultPort := DefaultPort
	if timescale {
		defaultPort = DefaultTimescalePort
	}
	cfg, addr, err := connConfig(o, defaultPort, timescale)
	if err != nil {
		return nil, err
	}
	user := cfg.User
	path, err := sqlfamily.Choice("postgres", o, "write_path", "insert", "copy", "insert")
	if err != nil {
		return nil, err
	}
	if timescale {
		// No named prepared statements: PGlite is a single backend that
		// keeps them across client connections, so cached names collide.
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	layout, err := sqlfamily.Choice("postgres", o, "layout", "narrow", "narrow", "wide")
	if err != nil {
		return nil, err
	}
	wide := layout == "wide"
	t := &Target{cfg: cfg, addr: addr, writePath: path, timescale: timescale, wide: wide,
		binding: targets.NewBinding("postgres")}
	if !timescale {
		if t.c, err = connectCreating(ctx, cfg, "postgres", addr); err != nil {
			return nil, err
		}
		return t, nil
	}
	shared.Lock()
	defer shared.Unlock()
	key := addr + "/" + cfg.Database + "/" + user
	if c := shared.conns[key]; c != nil {
		c.refs++
		t.c = c
		return t, nil
	}
	if t.c, err = connectCreating(ctx, cfg, "timescaledb", addr); err != nil {
		return nil, err
	}
	shared.conns[key] = t.c
	return t, nil
}

// urls are PostgreSQL's connection URLs: the family's keys, and
// target_session_attrs=read-write, which makes a URL's hosts one
// database's nodes (a primary and its standbys) that each connection
// tries in order for the one taking writes.
var urls = &targets.URLs{
	Schemes: targets.PostgresURLs.Schemes,
	Keys:    append(slices.Clone(targets.PostgresURLs.Keys), "target_session_attrs"),
	Example: "postgres://user:pass@primary:5432,standby:5432/db?sslmode=verify-full&target_session_attrs=read-write",
}

// connConfig is the pgx configuration of o: HOST, PORT, USERNAME, PASSWORD
// and DB_NAME, with IoT-benchmark's defaults (root/root, database test)
// read as "not set".
func connConfig(o targets.Options, defaultPort int, timescale bool) (*pgx.ConnConfig, string, error) {
	host, port := o.HostPort(defaultPort)
	user, db := o.User, o.Database
	if user == "" || user == "root" { // IoT-benchmark's default user means "not set" here
		user = "postgres"
	}
	switch {
	case timescale && (db == "" || db == "test"):
		db = "postgres" // tsbench's default database name; PGlite has only this one
	case db == "":
		db = "test"
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%d sslmode=disable connect_timeout=10", host, port))
	if err != nil {
		return nil, addr, fmt.Errorf("postgres: %s: %w", addr, err)
	}
	// TLS as asked (TLS and TLS_* keys), and never a retry in plaintext:
	// sslmode=disable above leaves no fallback, and TLSConfig nil means off.
	if cfg.TLSConfig, err = o.TLS.Config(host); err != nil {
		return nil, addr, fmt.Errorf("postgres: %s: %w", addr, err)
	}
	cfg.Fallbacks = nil
	if o.ReadWrite {
		// A failover URL: the other nodes are tried in order, each with
		// TLS for its own name, and a node in recovery (a standby not yet
		// promoted) is passed over.
		cfg.ValidateConnect = pgconn.ValidateConnectTargetSessionAttrsReadWrite
		for _, h := range o.Failover {
			fb := &pgconn.FallbackConfig{Port: uint16(defaultPort)}
			var p int
			if fb.Host, p = targets.SplitHostPort(h); p != 0 {
				fb.Port = uint16(p)
			}
			if fb.TLSConfig, err = o.TLS.Config(fb.Host); err != nil {
				return nil, addr, fmt.Errorf("postgres: %s: %w", h, err)
			}
			cfg.Fallbacks = append(cfg.Fallbacks, fb)
			addr += "," + net.JoinHostPort(fb.Host, strconv.Itoa(int(fb.Port)))
		}
	}
	// A client's connection opened under its arrival clock ends each
	// answer at the kernel's receive time (arrival.Dial).
	cfg.DialFunc = pgconn.DialFunc(arrival.Dial(arrival.DialFunc(cfg.DialFunc)))
	// Set here, not in the connection string, where a name with a space
	// or a quote would be misread.
	cfg.Database = db
	cfg.User = user
	cfg.Password = "postgres" // servers with trust authentication ignore it
	if o.Password != "" && o.Password != "root" {
		cfg.Password = o.Password
	}
	return cfg, addr, nil
}

// openSQL is the database/sql handle of SQLAccess (TPC-C): pgx's stdlib
// driver with the target's connection settings.
func openSQL(ctx context.Context, o targets.Options) (*sql.DB, error) {
	cfg, addr, err := connConfig(o, DefaultPort, false)
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDB(*cfg)
	err = db.PingContext(ctx)
	if missingDatabase(err) {
		if err := createDatabase(ctx, cfg, "postgres", addr); err != nil {
			db.Close()
			return nil, err
		}
		err = db.PingContext(ctx)
	}
	if err != nil {
		db.Close()
		return nil, connectError("postgres", addr, cfg, err)
	}
	return db, nil
}

// maintenanceDB is the database every PostgreSQL cluster has, where a
// missing one is created from.
const maintenanceDB = "postgres"

// connectCreating connects with cfg, creating cfg's database first when the
// server says it does not exist: a benchmark run with DB_NAME=crashdb
// should not need a createdb of its own beforehand. name (postgres,
// timescaledb) starts the error.
func connectCreating(ctx context.Context, cfg *pgx.ConnConfig, name, addr string) (*conn, error) {
	c, err := newConn(ctx, cfg)
	if missingDatabase(err) {
		if err := createDatabase(ctx, cfg, name, addr); err != nil {
			return nil, err
		}
		c, err = newConn(ctx, cfg)
	}
	if err != nil {
		return nil, connectError(name, addr, cfg, err)
	}
	return c, nil
}

// connectError says why a connection failed: ErrNoTLS when the server
// answered TLS asked for with a refusal (it has no TLS).
func connectError(name, addr string, cfg *pgx.ConnConfig, err error) error {
	if cfg.TLSConfig != nil && strings.Contains(err.Error(), "server refused TLS connection") {
		return fmt.Errorf("%s: %s: %w", name, addr, targets.ErrNoTLS)
	}
	return fmt.Errorf("%s: connect to %s as %s: %w", name, addr, cfg.User, err)
}

// missingDatabase tells whether err is the server's invalid_catalog_name
// (3D000): the database named in the connection does not exist.
func missingDatabase(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "3D000"
}

// createDatabase creates cfg's database from the maintenance database.
// When the user may not create it, the error names the database and the
// command that does.
func createDatabase(ctx context.Context, cfg *pgx.ConnConfig, name, addr string) error {
	mcfg := cfg.Copy()
	mcfg.Database = maintenanceDB
	pg, err := pgx.ConnectConfig(ctx, mcfg)
	if err != nil {
		return createRefused(cfg, name, addr, err)
	}
	defer pg.Close(context.WithoutCancel(ctx))
	_, err = pg.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{cfg.Database}.Sanitize())
	if err != nil && !createdByOther(err) {
		return createRefused(cfg, name, addr, err)
	}
	return nil
}

// createdByOther tells whether CREATE DATABASE failed because another
// client of the same run created the database first: duplicate_database
// (42P04) when it had committed, a unique violation on pg_database's name
// index (23505) when both were inserting at once.
func createdByOther(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	return pe.Code == "42P04" || pe.Code == "23505" && pe.ConstraintName == "pg_database_datname_index"
}

// createRefused says that cfg's database is missing and could not be
// created, and how a user who may (the superuser postgres, say) creates it.
func createRefused(cfg *pgx.ConnConfig, name, addr string, err error) error {
	return fmt.Errorf("%s: database %q does not exist at %s and user %s could not create it (%w); create it with: createdb -h %s -p %d -U postgres %s",
		name, cfg.Database, addr, cfg.User, err, cfg.Host, cfg.Port, sqlfamily.ShellQuote(cfg.Database))
}

func (t *Target) wrap(what string, err error) error {
	name := "postgres"
	if t.timescale {
		name = "timescaledb"
	}
	return fmt.Errorf("%s: %s at %s: %w", name, what, t.addr, t.c.wire.Failed(err))
}

const ddl = `
CREATE TABLE IF NOT EXISTS points (
	series INTEGER NOT NULL,
	t      BIGINT NOT NULL,
	v      DOUBLE PRECISION,
	s      TEXT,
	PRIMARY KEY (series, t));
CREATE TABLE IF NOT EXISTS series (
	id INTEGER PRIMARY KEY, device TEXT NOT NULL, device_index INTEGER NOT NULL,
	sensor TEXT NOT NULL, type TEXT NOT NULL, grp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS devices (
	name TEXT PRIMARY KEY, idx INTEGER NOT NULL, grp TEXT NOT NULL, tags JSONB NOT NULL);`

// Setup creates the tables (dropping them first with reset) and records the
// series and devices.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	// Names first: a name the wide layout cannot carry is refused before
	// anything is written.
	names, err := t.wideNames(s)
	if err != nil {
		return err
	}
	if err := t.c.lock(ctx); err != nil {
		return t.wrap("create schema", err)
	}
	defer t.c.mu.Unlock()
	if reset {
		// One by one: TimescaleDB drops a hypertable only on its own.
		for _, tbl := range []string{"points", "series", "devices"} {
			if _, err := t.c.pg.Exec(ctx, "DROP TABLE IF EXISTS "+tbl); err != nil {
				return t.wrap("drop tables", err)
			}
		}
	}
	if t.timescale {
		if _, err := t.c.pg.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS timescaledb"); err != nil {
			return t.wrap("create extension timescaledb", err)
		}
	}
	if _, err := t.c.pg.Exec(ctx, ddl); err != nil {
		return t.wrap("create tables", err)
	}
	if t.timescale {
		// Integer time in milliseconds: one-day chunks.
		if _, err := t.c.pg.Exec(ctx, "SELECT create_hypertable('points', 't', chunk_time_interval => 86400000, if_not_exists => true)"); err != nil {
			return t.wrap("create hypertable", err)
		}
	}
	if err := t.insertMetadata(ctx, s); err != nil {
		return err
	}
	if t.wide {
		if err := t.setupWide(ctx, s, names, reset); err != nil {
			return err
		}
	}
	t.binding.Set(s)
	t.names = names
	return nil
}

// wideNames refuses a name no layout can hold (checkText) and maps the
// names of s for layout=wide (nil on the narrow layout, which keeps every
// name as data).
func (t *Target) wideNames(s *ts.Schema) (*wideNames, error) {
	name := "postgres"
	if t.timescale {
		name = "timescaledb"
	}
	if err := checkText(name, s); err != nil {
		return nil, err
	}
	if !t.wide {
		return nil, nil
	}
	return newWideNames(name, s)
}

// insertMetadata records devices and series with one statement per table:
// arrays unnested server-side, not thousands of single-row statements.
func (t *Target) insertMetadata(ctx context.Context, s *ts.Schema) error {
	m := sqlfamily.MetadataOf(s)
	if _, err := t.c.pg.Exec(ctx, `INSERT INTO devices (name, idx, grp, tags)
		SELECT n, i, g, j::jsonb FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[]) AS u(n, i, g, j)
		ON CONFLICT (name) DO UPDATE SET idx = EXCLUDED.idx, grp = EXCLUDED.grp, tags = EXCLUDED.tags`,
		m.DevName, m.DevIndex, m.DevGroup, m.DevTags); err != nil {
		return t.wrap("record devices", err)
	}
	if _, err := t.c.pg.Exec(ctx, `INSERT INTO series (id, device, device_index, sensor, type, grp)
		SELECT * FROM unnest($1::integer[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[])
		ON CONFLICT (id) DO UPDATE SET device = EXCLUDED.device, device_index = EXCLUDED.device_index,
		sensor = EXCLUDED.sensor, type = EXCLUDED.type, grp = EXCLUDED.grp`,
		m.ID, m.SerDevice, m.SerIndex, m.Sensor, m.Type, m.SerGroup); err != nil {
		return t.wrap("record series", err)
	}
	return nil
}

// Bind prepares a connection that did not run Setup.
func (t *Target) Bind(ctx context.Context, s *ts.Schema) error {
	return targets.Bind(&t.binding, &t.c.mu, s, t.wideNames, func(names *wideNames) { t.names = names })
}

// ServerVersion implements targets.Versioner: "PostgreSQL 18.6" (the
// release alone: Debian's "15.18 (Debian 15.18-0+deb12u1)" is 15.18). The
// timescaledb driver names the extension's version too, which is what its
// SQL depends on: the one installed in the database, else the one Setup
// will install (the server's default).
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	if err := t.c.lock(ctx); err != nil {
		return "", t.wrap("server version", err)
	}
	defer t.c.mu.Unlock()
	var v string
	if err := t.c.pg.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return "", t.wrap("server version", err)
	}
	v = "PostgreSQL " + strings.Fields(v)[0]
	if !t.timescale {
		return v, nil
	}
	var ext *string
	if err := t.c.pg.QueryRow(ctx, `SELECT coalesce(
		(SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'),
		(SELECT default_version FROM pg_available_extensions WHERE name = 'timescaledb'))`).Scan(&ext); err != nil {
		return "", t.wrap("TimescaleDB version", err)
	}
	if ext == nil {
		return v + ", without TimescaleDB", nil
	}
	return v + ", TimescaleDB " + *ext, nil
}

// StorageBytes implements targets.Sizer: the points table with its index
// (for a hypertable, all its chunks).
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	if err := t.c.lock(ctx); err != nil {
		return 0, err
	}
	defer t.c.mu.Unlock()
	q := "SELECT pg_total_relation_size('points')"
	if t.timescale {
		q = "SELECT hypertable_size('points')"
	}
	var n int64
	if err := t.c.pg.QueryRow(ctx, q).Scan(&n); err != nil {
		return 0, t.wrap("table size", err)
	}
	return n, nil
}

// Close ends the connection (a shared one when its last user closes).
func (t *Target) Close() error {
	if t.timescale {
		shared.Lock()
		defer shared.Unlock()
		t.c.refs--
		if t.c.refs > 0 {
			return nil
		}
		for k, c := range shared.conns {
			if c == t.c {
				delete(shared.conns, k)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	return t.c.wire.Close(ctx)
}
