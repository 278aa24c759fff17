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
// UPDATE. write_path=copy: binary COPY into a per-connection temporary
// staging table, then one INSERT ... SELECT ... ON CONFLICT DO UPDATE into
// points, in one transaction — COPY cannot upsert by itself, and a benchmark
// must not store a rewritten point twice. Measured on PostgreSQL 15 with one
// client (BenchmarkWritePath), INSERT moved about 1.2x the points per second
// of COPY plus the staging upsert, while COPY took half the client CPU; hence
// INSERT by default.
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
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/target"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is where scripts/services/postgres.sh starts the server.
const DefaultPort = 5433

// Driver registers the target.
var Driver = &target.Driver{
	Name:        "postgres",
	Aliases:     []string{"PostgreSQL", "Postgres"},
	Description: "PostgreSQL through pgx: narrow table, multi-row INSERT or binary COPY, both with upsert",
	WritePaths:  []string{"insert", "copy"},
	Server:      "scripts/services/postgres.sh (PostgreSQL 15 on 127.0.0.1:5433)",
	Caps: target.Capabilities{
		Types:   ts.DataTypes,
		Queries: ts.QueryKinds,
	},
	Open: open,
}

func init() { target.Register(Driver) }

// Target is one client's connection.
type Target struct {
	conn      *pgx.Conn
	addr      string
	writePath string

	mu     sync.Mutex
	schema *ts.Schema
	staged bool // the staging table exists on this connection
	rows   rowSource
}

func open(ctx context.Context, o target.Options) (target.Target, error) {
	host, port := o.Host, o.Port
	if host == "" {
		host = "127.0.0.1"
	}
	if port == 0 {
		port = DefaultPort
	}
	user, db := o.User, o.Database
	if user == "" || user == "root" { // IoT-benchmark's default user means "not set" here
		user = "postgres"
	}
	if db == "" {
		db = "test"
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%d dbname=%s sslmode=disable connect_timeout=10", host, port, db))
	if err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", addr, err)
	}
	cfg.User = user
	if o.Password != "" && o.Password != "root" {
		cfg.Password = o.Password
	}
	path := o.Extra["write_path"]
	switch path {
	case "", "insert":
		path = "insert"
	case "copy":
	default:
		return nil, fmt.Errorf("postgres: target option write_path = %q: allowed: copy, insert", path)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect to %s as %s: %w", addr, user, err)
	}
	return &Target{conn: conn, addr: addr, writePath: path}, nil
}

func (t *Target) wrap(what string, err error) error {
	return fmt.Errorf("postgres: %s at %s: %w", what, t.addr, err)
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
	t.mu.Lock()
	defer t.mu.Unlock()
	if reset {
		if _, err := t.conn.Exec(ctx, "DROP TABLE IF EXISTS points, series, devices"); err != nil {
			return t.wrap("drop tables", err)
		}
	}
	if _, err := t.conn.Exec(ctx, ddl); err != nil {
		return t.wrap("create tables", err)
	}
	if err := t.insertMetadata(ctx, s); err != nil {
		return err
	}
	t.schema = s
	return nil
}

func (t *Target) insertMetadata(ctx context.Context, s *ts.Schema) error {
	var b pgx.Batch
	for pos, d := range s.Devices {
		tags := map[string]string{}
		for _, tg := range d.Tags {
			tags[tg.Key] = tg.Value
		}
		tj, _ := json.Marshal(tags)
		grp := ""
		if d.Group < len(s.Groups) {
			grp = s.Groups[d.Group]
		}
		b.Queue(`INSERT INTO devices (name, idx, grp, tags) VALUES ($1, $2, $3, $4)
			ON CONFLICT (name) DO UPDATE SET idx = EXCLUDED.idx, grp = EXCLUDED.grp, tags = EXCLUDED.tags`,
			d.Name, d.Index, grp, string(tj))
		for i, sn := range s.Sensors {
			b.Queue(`INSERT INTO series (id, device, device_index, sensor, type, grp) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (id) DO UPDATE SET device = EXCLUDED.device, device_index = EXCLUDED.device_index,
				sensor = EXCLUDED.sensor, type = EXCLUDED.type, grp = EXCLUDED.grp`,
				s.SeriesID(pos, i), d.Name, d.Index, sn.Name, sn.Type.String(), grp)
		}
	}
	if err := t.conn.SendBatch(ctx, &b).Close(); err != nil {
		return t.wrap("record series", err)
	}
	return nil
}

// Bind prepares a connection that did not run Setup.
func (t *Target) Bind(ctx context.Context, s *ts.Schema) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.schema = s
	return nil
}

func (t *Target) bound() (*ts.Schema, error) {
	if t.schema == nil {
		return nil, errors.New("postgres: no schema: call Setup or Bind first")
	}
	return t.schema, nil
}

// seriesIDs lists the series of the devices x sensors of a query.
func seriesIDs(s *ts.Schema, devs []*ts.Device, sensors []int) []int32 {
	ids := make([]int32, 0, len(devs)*len(sensors))
	for _, d := range devs {
		pos := s.DevicePos(d.Index)
		if pos < 0 {
			continue
		}
		for _, sn := range sensors {
			ids = append(ids, int32(s.SeriesID(pos, sn)))
		}
	}
	return ids
}

// ServerVersion implements target.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	var v string
	if err := t.conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return "", t.wrap("server version", err)
	}
	return "PostgreSQL " + strings.Fields(v)[0], nil
}

// StorageBytes implements target.Sizer: the points table with its index.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	var n int64
	if err := t.conn.QueryRow(ctx, "SELECT pg_total_relation_size('points')").Scan(&n); err != nil {
		return 0, t.wrap("table size", err)
	}
	return n, nil
}

// Close ends the connection.
func (t *Target) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	return t.conn.Close(ctx)
}
