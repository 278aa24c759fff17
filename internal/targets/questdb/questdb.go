// Package questdb is the "questdb" target: QuestDB 9 with writes in InfluxDB
// line protocol over HTTP (ILP, port 9000) and queries in SQL over the
// PostgreSQL wire protocol (port 8812, through pgx).
//
// Mapping: a group is a table <DB_NAME>_<group>; a device is the SYMBOL
// column device (its tags more SYMBOL columns); a sensor is a typed column
// (BOOLEAN, INT, LONG, FLOAT, DOUBLE, VARCHAR); a row is one line with the
// designated timestamp ts. Tables are WAL tables, PARTITION BY DAY, with
// DEDUP UPSERT KEYS(ts, device), so a rewritten row replaces the stored one.
// Names (names.go): a sensor, tag key or table name QuestDB refuses even
// quoted (a character such as . - / or a quote, over 127 characters, one
// that differs from another only in case, or device and ts) becomes a
// targets.NameMap form, reported by NameMapping; device names and tag
// values are data, quoted in SQL and escaped in ILP as they are.
// WAL tables apply writes asynchronously: Count first waits until every
// table's writer has caught up with its sequencer (wal_tables()), so
// verification counts what was really stored. INT and LONG use their minimum
// value as NULL; the generator never produces it. Sparse data: an empty
// cell is NULL (its field left out of the line); BOOLEAN has no NULL, so a
// BOOLEAN column becomes INT when sparse data first leaves one of its cells
// empty (Target.nullableBools). DEDUP replaces whole rows, so a row
// rewritten with fewer values keeps only those.
//
// TSBS's iot questions (FleetQuery, fleet.go) are SQL on the server: the
// truck tags are SYMBOL columns of every row, grouped by; sessions and
// breakdowns compare periods through the window functions lag and lead.
//
// TLS and authentication. QuestDB's open-source server has no TLS on either
// port (QuestDB Enterprise has): asked for TLS, the PG wire answers the
// TLS request with a refusal and the HTTP port answers the handshake in
// plaintext, both targets.ErrNoTLS (exit 2), never a plaintext connection.
// With TLS on, both ports are reached over TLS, verified as TLS and TLS_*
// say. The PG wire takes USERNAME and PASSWORD (QuestDB's admin/quest when
// unset); the HTTP port takes TOKEN as a bearer (Enterprise's REST tokens)
// or, when USERNAME is set, basic authentication (http.user, http.password).
package questdb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/pgwire"
	"github.com/tsbench/tsbench/internal/ts"
)

// Default ports of scripts/services/questdb.sh.
const (
	DefaultHTTPPort = 9000
	DefaultPGPort   = 8812
)

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "questdb",
	Service:     "questdb",
	URLs:        targets.PostgresURLs, // its PG wire; the HTTP port beside it is target.http_port
	Aliases:     []string{"QuestDB"},
	Description: "QuestDB: ILP over HTTP writes, SQL over the PostgreSQL wire protocol",
	WritePaths:  []string{"ilp-http"},
	Server:      "scripts/services/questdb.sh (QuestDB 9.3.4 on 127.0.0.1:9000 and :8812)",
	DefaultPort: DefaultPGPort,
	// Sparse: an empty cell is a NULL (a field left out of its line); see
	// nullableBools for BOOLEAN sensors.
	Caps: targets.Capabilities{TLS: true, Types: ts.DataTypes, Queries: ts.QueryKinds, Sparse: true, GroupByAcross: true,
		Fleet: targets.FleetOnServer},
	Options:  []targets.Option{{Name: "http_port", Check: targets.PortNumber}},
	Open:     open,
	Language: language,
}

func init() { targets.Register(Driver) }

// Target is one client's connections: HTTP for writes, pgwire for SQL.
type Target struct {
	writeURL string
	pgAddr   string
	db       string
	client   *http.Client
	wire     *pgwire.Conn // SQL over pgwire, re-opened when closed
	conn     *pgx.Conn    // wire's connection, as of the last useSQL

	mu       sync.Mutex
	binding  targets.Binding
	names    *names         // the bound schema's server names
	prefixes []string       // per device position: its lines' table and tags
	keys     lineproto.Keys // the sensors' field keys
	buf      []byte         // the request body, reused
	// intBools marks the BOOLEAN sensors ("table\x00column") known to be
	// INT columns (nullableBools).
	intBools map[string]bool
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	host, pgPort := o.HostPort(DefaultPGPort)
	httpPort := DefaultHTTPPort
	if p, err := strconv.Atoi(o.Extra["http_port"]); err == nil {
		httpPort = p
	}
	user, pass := o.User, o.Password
	if user == "" || user == "root" { // IoT-benchmark's defaults mean QuestDB's own
		user, pass = "admin", "quest"
	}
	db := o.DatabaseOr("test")
	e, err := httpclient.NewEndpoint(o, DefaultPGPort)
	if err != nil {
		return nil, fmt.Errorf("questdb: %w", err)
	}
	e = e.Port(httpPort)
	e.Authorization = httpclient.TokenAuth(o, "Bearer")
	t := &Target{
		writeURL: e.Base + "/write?precision=ms",
		pgAddr:   net.JoinHostPort(host, strconv.Itoa(pgPort)),
		db:       db,
		client:   e.Client(),
		binding:  targets.NewBinding("questdb"),
	}
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%d dbname=qdb sslmode=disable connect_timeout=10", host, pgPort))
	if err != nil {
		return nil, fmt.Errorf("questdb: %s: %w", t.pgAddr, err)
	}
	cfg.User, cfg.Password = user, pass
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	// TLS as asked, and never a retry in plaintext: sslmode=disable above
	// leaves pgx no fallback, and a nil TLSConfig means off.
	cfg.TLSConfig = e.TLS
	if t.wire, err = pgwire.Connect(ctx, cfg); err != nil {
		if cfg.TLSConfig != nil && strings.Contains(err.Error(), "server refused TLS connection") {
			return nil, fmt.Errorf("questdb: %s: %w", t.pgAddr, targets.ErrNoTLS)
		}
		return nil, fmt.Errorf("questdb: connect to %s as %s: %w", t.pgAddr, user, err)
	}
	return t, t.useSQL(ctx)
}

// useSQL readies the SQL connection for a statement, re-opening it when
// the server dropped it (a restart, a timeout mid-statement).
func (t *Target) useSQL(ctx context.Context) error {
	pg, err := t.wire.Get(ctx)
	if err != nil {
		return t.wrap("SQL connection", err)
	}
	t.conn = pg
	return nil
}

// sqlSchema readies the SQL connection (useSQL) and returns the bound
// schema: what a statement on the schema's tables starts with. t.mu must be
// held.
func (t *Target) sqlSchema(ctx context.Context) (*ts.Schema, error) {
	if err := t.useSQL(ctx); err != nil {
		return nil, err
	}
	return t.binding.Schema()
}

// lockSQL takes the connection for a statement on the bound schema's
// tables: t.mu held, the SQL connection ready and the schema returned
// (sqlSchema). On an error it releases t.mu again, as Binding.Lock does;
// else the caller releases it (defer t.mu.Unlock()).
func (t *Target) lockSQL(ctx context.Context) (*ts.Schema, error) {
	t.mu.Lock()
	s, err := t.sqlSchema(ctx)
	if err != nil {
		t.mu.Unlock()
		return nil, err
	}
	return s, nil
}

// Reconnects counts the connections re-opened, HTTP and SQL
// (targets.Reconnector).
func (t *Target) Reconnects() int64 {
	return httpclient.Reconnects(t.client) + t.wire.Reconnects()
}

func (t *Target) wrap(what string, err error) error {
	if t.wire != nil {
		err = t.wire.Failed(err)
	}
	return fmt.Errorf("questdb: %s at %s: %w", what, t.pgAddr, err)
}

// table is the table of d's group (<DB_NAME>_points for a device outside
// the schema's groups). t.mu must be held, a schema bound.
func (t *Target) table(d *ts.Device) string {
	if d.Group >= 0 && d.Group < len(t.names.tables) {
		return t.names.tables[d.Group]
	}
	return t.db + "_points"
}

// tables are the tables of the bound schema's groups.
func (t *Target) tables() []string { return t.names.tables }

var columnTypes = map[ts.DataType]string{ts.Boolean: "BOOLEAN", ts.Int32: "INT", ts.Int64: "LONG",
	ts.Float: "FLOAT", ts.Double: "DOUBLE", ts.Text: "VARCHAR"}

// Setup creates one table per group (dropping them first with reset).
// Names QuestDB cannot take as they are get their mapped form (names.go).
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	n, err := mapNames(t.db, s)
	if err != nil {
		return err
	}
	if err := t.useSQL(ctx); err != nil {
		return err
	}
	cols := []string{colDevice + " SYMBOL"}
	for _, k := range n.tagKeys {
		cols = append(cols, quote(n.tags[k])+" SYMBOL")
	}
	cols = append(cols, colTime+" TIMESTAMP")
	for i, sn := range s.Sensors {
		cols = append(cols, quote(n.sensors[i])+" "+columnTypes[sn.Type])
	}
	for _, tbl := range n.tables {
		if reset {
			if _, err := t.conn.Exec(ctx, "DROP TABLE IF EXISTS "+quote(tbl)); err != nil {
				return t.wrap("drop table", err)
			}
		}
		ddl := "CREATE TABLE IF NOT EXISTS " + quote(tbl) + " (" + strings.Join(cols, ", ") +
			") TIMESTAMP(ts) PARTITION BY DAY WAL DEDUP UPSERT KEYS(ts, device)"
		if _, err := t.conn.Exec(ctx, ddl); err != nil {
			return t.wrap("create table", err)
		}
	}
	return t.Bind(ctx, s)
}

// Bind maps the schema's names and prepares the line prefixes of every
// device.
func (t *Target) Bind(_ context.Context, s *ts.Schema) error {
	mapped := func(s *ts.Schema) (*names, error) { return mapNames(t.db, s) }
	return targets.Bind(&t.binding, &t.mu, s, mapped, func(n *names) {
		t.names = n
		t.prefixes = make([]string, len(s.Devices))
		for i := range s.Devices {
			t.prefixes[i] = t.linePrefix(&s.Devices[i])
		}
		sensors := make([]ts.Sensor, len(s.Sensors))
		for i, sn := range s.Sensors {
			sensors[i] = ts.Sensor{Name: n.sensors[i], Type: sn.Type}
		}
		t.keys = lineproto.NewKeys(sensors)
	})
}

// linePrefix is the start of d's lines: its table, device and tags, each
// escaped for ILP (escapeILP; lineproto's escaping leaves backslashes,
// which QuestDB's parser drops). A tag with an empty value is left out:
// ILP has no empty tag value, and QuestDB reads the missing one as NULL.
func (t *Target) linePrefix(d *ts.Device) string {
	var b strings.Builder
	b.WriteString(escapeILP(t.table(d)))
	b.WriteString("," + colDevice + "=" + escapeILP(d.Name))
	for _, tg := range d.Tags {
		if tg.Value != "" {
			b.WriteString("," + escapeILP(t.names.tag(tg.Key)) + "=" + escapeILP(tg.Value))
		}
	}
	b.WriteByte(' ')
	return b.String()
}

// Write sends a batch as ILP over HTTP; QuestDB answers once it accepted it.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	_, pos, err := t.binding.LockDevice(&t.mu, b.Device)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if b.Nulls > 0 {
		s, _ := t.binding.Schema()
		if err := t.nullableBools(ctx, s, b); err != nil {
			return err
		}
	}
	// An empty cell's field is left out of its line (QuestDB stores NULL
	// there), and a row without values has no line.
	t.buf = lineproto.AppendRows(t.buf[:0], t.prefixes[pos], t.keys, b)
	if len(t.buf) == 0 {
		return nil // a sparse batch without any value
	}
	if _, _, err := httpclient.Exchange(ctx, t.client, http.MethodPost, t.writeURL, bytes.NewReader(t.buf), nil, nil); err != nil {
		return fmt.Errorf("questdb: write batch of %s: %w", b.Device.Name, err)
	}
	return nil
}

// nullableBools makes INT the BOOLEAN columns where b has an empty cell.
// QuestDB's BOOLEAN has no NULL: a line without the field stores false, a
// value that was never written. INT has NULL, and ILP writes t and f into
// it as 1 and 0; but it is four bytes a row where BOOLEAN is one, so Setup
// keeps BOOLEAN and only sparse data pays, once per column, when its first
// empty cell arrives (ALTER COLUMN TYPE, cheap on the empty or young table
// a replay starts with). Queries read both types alike (see present).
func (t *Target) nullableBools(ctx context.Context, s *ts.Schema, b *ts.Batch) error {
	tbl := t.table(b.Device)
	for c := range b.Columns {
		col := &b.Columns[c]
		if col.Type != ts.Boolean || len(col.Null) == 0 || !slices.Contains(col.Null, true) {
			continue
		}
		name := t.names.sensors[c]
		key := tbl + "\x00" + name
		if t.intBools[key] {
			continue
		}
		if err := t.useSQL(ctx); err != nil {
			return err
		}
		// No look at the column's type first: table_columns() shows the
		// applied metadata, which lags the WAL. The server checks against
		// the latest and refuses a column already INT (another client
		// changed it), which is as good.
		_, err := t.conn.Exec(ctx, "ALTER TABLE "+quote(tbl)+" ALTER COLUMN "+quote(name)+" TYPE INT")
		if err != nil && !strings.Contains(err.Error(), "already") {
			return t.wrap("make "+tbl+"."+name+" nullable (BOOLEAN to INT)", err)
		}
		if t.intBools == nil {
			t.intBools = map[string]bool{}
		}
		t.intBools[key] = true
		// The server's ILP side caches a table's writer per connection,
		// and a writer from before the change fills a left-out field with
		// BOOLEAN's false (seen on 9.3.4): the next write opens a new one.
		t.client.CloseIdleConnections()
	}
	return nil
}

// settled opens the SQL connection and waits until every WAL table applied
// what was written (at most 60 s), so that what Count and StorageBytes read
// holds every write acknowledged; it returns the schema.
func (t *Target) settled(ctx context.Context) (*ts.Schema, error) {
	s, err := t.sqlSchema(ctx)
	if err != nil {
		return nil, err
	}
	tbls := make([]string, 0, len(s.Groups))
	for _, tbl := range t.tables() {
		tbls = append(tbls, literal(tbl))
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var lagging int64
		err := t.conn.QueryRow(ctx, "SELECT count(*) FROM wal_tables() WHERE name IN ("+strings.Join(tbls, ",")+
			") AND (writerTxn < sequencerTxn OR suspended)").Scan(&lagging)
		if err != nil {
			return nil, t.wrap("wait for WAL apply", err)
		}
		if lagging == 0 {
			return s, nil
		}
		if time.Now().After(deadline) {
			return nil, t.wrap("wait for WAL apply", errors.New("tables still applying after 60 s"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	if err := t.useSQL(ctx); err != nil {
		return "", err
	}
	var b string
	if err := t.conn.QueryRow(ctx, "SELECT build()").Scan(&b); err != nil {
		return "", t.wrap("server version", err)
	}
	if i := strings.Index(b, "QuestDB "); i >= 0 {
		b = b[i:]
		if j := strings.IndexByte(b, ','); j > 0 {
			b = b[:j]
		}
	}
	return b, nil
}

// StorageBytes implements targets.Sizer: the partitions' size on disk.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.settled(ctx); err != nil {
		return 0, err
	}
	var total int64
	for _, tbl := range t.tables() {
		var n *int64
		if err := t.conn.QueryRow(ctx, "SELECT sum(diskSize) FROM table_partitions("+literal(tbl)+")").Scan(&n); err != nil {
			return 0, t.wrap("table size", err)
		}
		if n != nil {
			total += *n
		}
	}
	return total, nil
}

// Close ends both connections.
func (t *Target) Close() error {
	t.client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return t.wire.Close(ctx)
}
