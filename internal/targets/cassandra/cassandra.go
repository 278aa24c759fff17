// Package cassandra is the "cassandra" target: Apache Cassandra (tested on
// 5.0.9) through gocql, one session per benchmark client.
//
// Layout: keyspace <DB_NAME> (SimpleStrategy, one replica) and one table
//
//	points (device text, day bigint, t bigint, s_0 <type>, ..., PRIMARY KEY ((device, day), t))
//
// A partition holds one device's rows of one UTC day (a time-series bucket
// that keeps partitions bounded), clustered by timestamp; a row holds every
// sensor. INSERT is an upsert, so a rewritten point replaces the stored one.
// Writes are unlogged batches per partition through a prepared statement.
// Target option compression=off creates the table without compression.
//
// A ring (HOST names its nodes; scripts/services/cassandra-cluster.sh
// starts one): target option replication_factor sets the keyspace's
// (SimpleStrategy; an existing keyspace is altered to it), and consistency
// the level of every write, query and count (one, the default, two,
// three, quorum or all). Each client's session stays on its own node, the
// coordinator of its requests, so that the figures per node are that
// node's.
//
// Queries. Q1, Q2, Q3, Q4, Q6, Q9 and Q10 are CQL over the partitions of the
// queried devices and days (day IN (...)); the value filters of Q3, Q6 and
// Q10 use ALLOW FILTERING, which here only filters rows inside the listed
// partitions. Q5 (a whole series with a value filter) and Q8 (latest point)
// would need every partition of a device, which CQL cannot find without a
// full scan, and Q7 (buckets from an arbitrary start) has no CQL form: they
// are declared unsupported rather than computed by tsbench.
//
// TSBS's iot questions (FleetQuery, fleet.go) are answered as TSBS's own
// Cassandra client answers them: CQL reads each truck's points and the
// client computes the rows (internal/fleet), since CQL cannot group by tags
// or find driving sessions.
//
// TLS (TLS, TLS_*) is gocql's, to a server with client_encryption_options;
// a plaintext port asked for TLS is targets.ErrNoTLS.
package cassandra

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is the CQL port of scripts/services/cassandra.sh.
const DefaultPort = 9042

const dayMs = 86_400_000

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "cassandra",
	Service:     "cassandra",
	URLs:        &targets.URLs{Schemes: []string{"cassandra"}, Example: "cassandra://user:pass@host:9042/keyspace"},
	Aliases:     []string{"Cassandra"},
	Description: "Cassandra: partition per device and day, unlogged batches per partition, CQL queries",
	WritePaths:  []string{"unlogged-batch"},
	Server:      "scripts/services/cassandra.sh (Cassandra 5.0.9 on 127.0.0.1:9042)",
	DefaultPort: DefaultPort,
	Caps: targets.Capabilities{
		Types: ts.DataTypes,
		Queries: []ts.QueryKind{ts.PrecisePoint, ts.TimeRange, ts.ValueRange, ts.AggRange, ts.AggRangeValue,
			ts.RangeQueryDesc, ts.ValueRangeQueryDesc},
		Compression: true,
		TLS:         true,
		Sparse:      true, // an empty cell is left unset; Count counts each column's values
		// TSBS's iot questions from the points CQL returns, as TSBS's own
		// Cassandra runner answers them (fleet.go).
		Fleet: targets.FleetFromPoints,
	},
	Options: []targets.Option{{Name: "compression", Values: []string{"on", "off"}},
		{Name: "consistency", Values: consistencies},
		{Name: "replication_factor", Check: replicationFactor}},
	Open:     open,
	Language: language,
}

func init() { targets.Register(Driver) }

// consistencies are the levels target option consistency takes: those a
// ring of SimpleStrategy answers (no datacenter-local ones).
var consistencies = []string{"one", "two", "three", "quorum", "all"}

// replicationFactor checks target option replication_factor.
func replicationFactor(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 100 {
		return fmt.Errorf("must be a whole number of replicas in [1, 100]")
	}
	return nil
}

// Target is one client's session.
type Target struct {
	session  *gocql.Session
	addr     string
	ks       string
	compress bool
	rf       int // the keyspace's replication factor asked for; 0: 1 for a new keyspace, an existing one kept

	mu      sync.Mutex
	binding targets.Binding
	insert  string
	names   *targets.NameMap // the sensors' columns (names.go)
	cols    []string         // each sensor's quoted column

	connects, initial atomic.Int64 // connections gocql made; those of the session's start
}

// ObserveConnect counts the connections gocql makes (gocql.ConnectObserver):
// it re-opens those the server dropped by itself.
func (t *Target) ObserveConnect(c gocql.ObservedConnect) {
	if c.Err == nil {
		t.connects.Add(1)
	}
}

// Reconnects counts the connections made after the session started
// (targets.Reconnector).
func (t *Target) Reconnects() int64 { return t.connects.Load() - t.initial.Load() }

// clockDialer is gocql's Dialer of one client's session: its connections
// stamp their reads into the client's arrival clock (arrival.Wrap).
type clockDialer struct {
	dial  arrival.DialFunc
	clock *arrival.Clock
}

func (d clockDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := d.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return arrival.Wrap(conn, d.clock), nil
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	host, port := o.HostPort(DefaultPort)
	ks := o.DatabaseOr("test")
	t := &Target{addr: fmt.Sprintf("%s:%d", host, port), ks: ks, compress: o.Extra["compression"] != "off",
		binding: targets.NewBinding("cassandra")}
	if c := o.Extra["compression"]; c != "" && c != "on" && c != "off" {
		return nil, fmt.Errorf("cassandra: target option compression = %q: allowed: on, off", c)
	}
	consistency, err := consistencyOf(o.Extra["consistency"])
	if err != nil {
		return nil, err
	}
	if v := o.Extra["replication_factor"]; v != "" {
		if err := replicationFactor(v); err != nil {
			return nil, fmt.Errorf("cassandra: target option replication_factor = %q: %w", v, err)
		}
		t.rf, _ = strconv.Atoi(v)
	}
	cluster := gocql.NewCluster(host)
	cluster.Port = port
	cluster.Consistency = consistency
	cluster.Timeout = 60 * time.Second
	cluster.ConnectTimeout = 10 * time.Second
	cluster.NumConns = 1
	cluster.DisableInitialHostLookup = true
	if o.User != "" && o.User != "root" {
		cluster.Authenticator = gocql.PasswordAuthenticator{Username: o.User, Password: o.Password}
	}
	cluster.ConnectObserver = t
	// gocql logs each failed re-dial of a node that is down, many a
	// second: the run counts them itself (failures by cause, reconnects).
	cluster.Logger = log.New(io.Discard, "", 0)
	if clock := arrival.FromContext(ctx); clock != nil {
		// gocql dials its pool outside the client's context: the client's
		// arrival clock is bound here, for this client's session.
		d := &net.Dialer{Timeout: cluster.ConnectTimeout}
		cluster.Dialer = clockDialer{dial: d.DialContext, clock: clock}
	}
	tlsCfg, err := o.TLS.Config(host)
	if err != nil {
		return nil, fmt.Errorf("cassandra: %w", err)
	}
	if tlsCfg != nil {
		// gocql verifies nothing unless told to (EnableHostVerification):
		// TLS=on must check the chain and the name, insecure neither.
		cluster.SslOpts = &gocql.SslOptions{Config: tlsCfg, EnableHostVerification: !tlsCfg.InsecureSkipVerify}
	}
	s, err := cluster.CreateSession()
	if err != nil {
		return nil, connectError(t.addr, tlsCfg != nil, err)
	}
	t.session = s
	t.initial.Store(t.connects.Load())
	return t, nil
}

func (t *Target) wrap(what string, err error) error {
	return fmt.Errorf("cassandra: %s at %s: %w", what, t.addr, classify(err))
}

func col(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

func (t *Target) table() string { return col(t.ks) + ".points" }

var cqlTypes = map[ts.DataType]string{ts.Boolean: "boolean", ts.Int32: "int", ts.Int64: "bigint",
	ts.Float: "float", ts.Double: "double", ts.Text: "text"}

// consistencyOf is target option consistency's level (one when unset).
func consistencyOf(v string) (gocql.Consistency, error) {
	if v == "" {
		return gocql.One, nil
	}
	for _, c := range consistencies {
		if v == c {
			return gocql.ParseConsistencyWrapper(c)
		}
	}
	return 0, fmt.Errorf("cassandra: target option consistency = %q: allowed: %s", v, strings.Join(consistencies, ", "))
}

// keyspace creates the keyspace, with the replication factor asked for (1
// when none was), or alters an existing one to the factor asked for.
func (t *Target) keyspace(ctx context.Context) error {
	rf := max(t.rf, 1)
	replication := fmt.Sprintf(" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': %d}", rf)
	if err := t.session.Query("CREATE KEYSPACE IF NOT EXISTS " + col(t.ks) + replication).WithContext(ctx).Exec(); err != nil {
		return t.wrap("create keyspace", err)
	}
	if t.rf == 0 {
		return nil
	}
	if err := t.session.Query("ALTER KEYSPACE " + col(t.ks) + replication).WithContext(ctx).Exec(); err != nil {
		return t.wrap("alter keyspace", err)
	}
	return nil
}

// Setup creates the keyspace and table (dropping the table first with reset).
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	// A name the table cannot carry is refused before anything is created.
	if err := checkDevices(s); err != nil {
		return err
	}
	_, cols, err := columns(s)
	if err != nil {
		return err
	}
	if err := t.keyspace(ctx); err != nil {
		return err
	}
	var stmts []string
	if reset {
		stmts = append(stmts, "DROP TABLE IF EXISTS "+t.table())
	}
	defs := []string{"device text", "day bigint", "t bigint"}
	for i, sn := range s.Sensors {
		defs = append(defs, cols[i]+" "+cqlTypes[sn.Type])
	}
	create := "CREATE TABLE IF NOT EXISTS " + t.table() + " (" + strings.Join(defs, ", ") + ", PRIMARY KEY ((device, day), t))"
	if !t.compress {
		create += " WITH compression = {'enabled': 'false'}"
	}
	stmts = append(stmts, create)
	for _, q := range stmts {
		if err := t.session.Query(q).WithContext(ctx).Exec(); err != nil {
			return t.wrap("create schema", err)
		}
	}
	return t.Bind(ctx, s)
}

// Bind prepares the INSERT statement's text.
func (t *Target) Bind(_ context.Context, s *ts.Schema) error {
	m, cols, err := columns(s)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.names, t.cols = m, cols
	names := append([]string{"device", "day", "t"}, cols...)
	t.insert = "INSERT INTO " + t.table() + " (" + strings.Join(names, ", ") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ") + ")"
	t.binding.Set(s)
	return nil
}

// Write sends one unlogged batch per partition (device and day) of the batch.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	if _, err := t.binding.Lock(&t.mu); err != nil {
		return err
	}
	defer t.mu.Unlock()
	batches := map[int64]*gocql.Batch{}
	var days []int64
	for i, tm := range b.Times {
		if !b.RowPresent(i) {
			continue // no value at all (sparse data): no row
		}
		day := tm / dayMs
		bt := batches[day]
		if bt == nil {
			bt = t.session.NewBatch(gocql.UnloggedBatch).WithContext(ctx)
			batches[day] = bt
			days = append(days, day)
		}
		args := make([]any, 0, 3+len(b.Columns))
		args = append(args, b.Device.Name, day, tm)
		for c := range b.Columns {
			if !b.Columns[c].Present(i) {
				// An empty cell is left unset: no value and, unlike a
				// null, no tombstone.
				args = append(args, gocql.UnsetValue)
				continue
			}
			args = append(args, b.Columns[c].Value(i))
		}
		bt.Query(t.insert, args...)
	}
	for _, d := range days {
		if err := t.session.ExecuteBatch(batches[d]); err != nil {
			return t.wrap("write batch of "+b.Device.Name, err)
		}
	}
	return nil
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	var v string
	if err := t.session.Query("SELECT release_version FROM system.local").WithContext(ctx).Scan(&v); err != nil {
		return "", t.wrap("server version", err)
	}
	return "Cassandra " + v, nil
}

// Close ends the session.
func (t *Target) Close() error {
	t.session.Close()
	return nil
}

// daysOf lists the day partitions [start, end) touches.
func daysOf(start, end int64) string {
	var ds []string
	for d := start / dayMs; d <= (end-1)/dayMs; d++ {
		ds = append(ds, strconv.FormatInt(d, 10))
	}
	return "(" + strings.Join(ds, ",") + ")"
}

// connectError says why a session could not start. gocql flattens the
// errors of its connections into text, so the TLS handshake's own words are
// looked for: a server that answers the handshake with something other than
// TLS offers no TLS on that port (targets.ErrNoTLS, and never a retry in
// plaintext).
func connectError(addr string, tls bool, err error) error {
	if tls && strings.Contains(err.Error(), "first record does not look like a TLS handshake") {
		return fmt.Errorf("cassandra: %s: %w (%v)", addr, targets.ErrNoTLS, err)
	}
	return fmt.Errorf("cassandra: connect to %s: %w", addr, err)
}
