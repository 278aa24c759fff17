// Package iotdb is the "iotdb" target: Apache IoTDB 2.x in its tree model,
// through the official Go session client, one session per benchmark client.
//
// Mapping: GROUP_NUMBER groups become databases root.<DB_NAME>.<group>; a
// device is the aligned device root.<DB_NAME>.<group>.<device> whose
// measurements are the sensors (BOOLEAN, INT32, INT64, FLOAT, DOUBLE, TEXT,
// with IoT-benchmark's default encodings and LZ4, or PLAIN and UNCOMPRESSED
// with the target option compression=off). Aligned, because every
// row carries every sensor, which is what IoT-benchmark's default
// (VECTOR=true) writes too. A batch is one tablet written with
// insertAlignedTablet; IoTDB keeps one value per series and time, so a
// rewrite replaces the stored point. Every node but root and every
// measurement is quoted in backticks, so a device name with dots stays one
// node; the few names IoTDB refuses even quoted (time, timestamp, control
// characters) take a targets.NameMap form (names.go, NameMapping).
// Device tags are not stored (analytics queries are not supported); TSBS's
// iot questions (fleet.go) take the trucks' tags from the schema.
//
// Queries are IoTDB SQL. GROUP BY ([start, end), bucket) returns empty
// buckets (count 0, or null) and aggregates over no rows return 0 or null:
// those are dropped to honour "series and buckets without points are not
// returned". Value filters run one statement per series, since a filter on a
// measurement of several devices would join them. Reads take the context;
// the client's tablet inserts do not, so writes are bounded by the server's
// own timeouts.
//
// TLS (TLS, TLS_*, IoT-benchmark's USE_SSL and trust store) goes through
// the client's thrift TLS socket, to a server whose RPC port takes TLS
// (enable_thrift_ssl); a plaintext port asked for TLS is targets.ErrNoTLS.
//
// IoTDB binds some ports to every interface: scripts/services/iotdb.sh only
// starts it inside a loopback-only network namespace.
package iotdb

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/iotdb-client-go/v2/client"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is the client RPC port scripts/services/iotdb.sh uses.
const DefaultPort = 6667

// Driver registers the target.
var Driver = &targets.Driver{
	Name:    "iotdb",
	Service: "iotdb",
	URLs:    &targets.URLs{Schemes: []string{"iotdb"}, Example: "iotdb://user:pass@host:6667"},
	Aliases: []string{"IoTDB"},
	Refuses: map[string]string{
		"-JDBC": "it writes through IoTDB's session API, in tablets; DB_SWITCH=IoTDB-200-SESSION_BY_TABLET (or --target iotdb) runs that",
		"-REST": "it writes through IoTDB's session API, in tablets; DB_SWITCH=IoTDB-200-SESSION_BY_TABLET (or --target iotdb) runs that",
	},
	Description: "Apache IoTDB 2.x tree model: aligned tablets through the session API, IoTDB SQL",
	WritePaths:  []string{"session-tablet"},
	Server:      "scripts/services/iotdb.sh (IoTDB 2.0.1-beta on 127.0.0.1:6667, inside scripts/netns-run)",
	DefaultPort: DefaultPort,
	// Sparse: an empty cell is a null in the tablet's bitmap, and count(*)
	// counts each series' values.
	Caps: targets.Capabilities{Types: ts.DataTypes, Queries: ts.QueryKinds, Compression: true, TLS: true, Sparse: true, GroupByAcross: true,
		// Per-truck and per-period aggregates on the server, grouping by the
		// schema's tags on the client (fleet.go).
		Fleet: targets.FleetOnServer},
	Options:  []targets.Option{{Name: "compression", Values: []string{"on", "off"}}},
	Language: language,
	Open:     open,
}

func init() { targets.Register(Driver) }

// Target is one client's session.
type Target struct {
	session  client.Session
	addr     string
	db       string
	compress bool // compression=on (default): encodings and LZ4; off: PLAIN, UNCOMPRESSED

	mu      sync.Mutex
	binding targets.Binding
	names   *names   // the bound schema's nodes and measurements (names.go)
	paths   []string // per device position: root.db.group.device, nodes quoted
	schemas []*client.MeasurementSchema
	// tablet is the last batch's, kept for the next batch of the same
	// device and length, whose values overwrite all of it: a client that
	// owns one device (seed 002's CRRC shape) then makes no tablet per
	// write, which was a fifth of the tool's cost at one row of 300
	// sensors. One, not one per device: a tablet holds a whole batch.
	tablet    *client.Tablet
	tabletPos int
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	host, port := o.HostPort(DefaultPort)
	user, pass := o.User, o.Password
	if user == "" {
		user, pass = "root", "root"
	}
	db := o.DatabaseOr("test")
	t := &Target{addr: fmt.Sprintf("%s:%d", host, port), db: db, compress: true, binding: targets.NewBinding("iotdb")}
	switch o.Extra["compression"] {
	case "", "on":
	case "off":
		t.compress = false
	default:
		return nil, fmt.Errorf("iotdb: target option compression = %q: allowed: on, off", o.Extra["compression"])
	}
	cfg := &client.Config{Host: host, Port: strconv.Itoa(port), UserName: user, Password: pass, FetchSize: 10000}
	tlsCfg, err := o.TLS.Config(host)
	if err != nil {
		return nil, fmt.Errorf("iotdb: %w", err)
	}
	if tlsCfg != nil {
		// The client dials thrift's TLS socket with this configuration as
		// it is (it adds CAs only from its own CAFile, left empty).
		cfg.TLSConfig = &client.TLSConfig{Config: tlsCfg}
	}
	t.session = client.NewSession(cfg)
	timeout := 10_000
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, max(1, int(timeUntilMs(dl))))
	}
	if err := t.session.Open(false, timeout); err != nil {
		return nil, connectError(t.addr, user, tlsCfg != nil, err)
	}
	return t, nil
}

func (t *Target) wrap(what string, err error) error {
	return fmt.Errorf("iotdb: %s at %s: %w", what, t.addr, err)
}

var (
	dataTypes = map[ts.DataType]client.TSDataType{ts.Boolean: client.BOOLEAN, ts.Int32: client.INT32,
		ts.Int64: client.INT64, ts.Float: client.FLOAT, ts.Double: client.DOUBLE, ts.Text: client.TEXT}
	encodings = map[ts.DataType]client.TSEncoding{ts.Boolean: client.RLE, ts.Int32: client.TS_2DIFF,
		ts.Int64: client.TS_2DIFF, ts.Float: client.GORILLA, ts.Double: client.GORILLA, ts.Text: client.DICTIONARY}
)

// root is the path of DB_NAME's databases: root.<DB_NAME>, one node.
func (t *Target) root() string { return "root." + quoteNode(t.db) }

// groupPath is the database of group g (of node "g" for a device outside
// the schema's groups).
func (t *Target) groupPath(n *names, g int) string {
	node := "g"
	if g >= 0 && g < len(n.groups) {
		node = n.groups[g]
	}
	return t.root() + "." + quoteNode(node)
}

// Setup creates a database per group and the aligned devices (deleting the
// databases first with reset). Every node and measurement is quoted; names
// IoTDB refuses even so take their mapped form (names.go).
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	n, err := mapNames(s)
	if err != nil {
		return err
	}
	if reset {
		if err := t.session.ExecuteNonQueryStatement("DELETE DATABASE " + t.root() + ".**"); err != nil &&
			!strings.Contains(err.Error(), "not exist") && !strings.Contains(err.Error(), "does not match") {
			return t.wrap("delete databases", err)
		}
	}
	for g := range s.Groups {
		if err := t.session.ExecuteNonQueryStatement("CREATE DATABASE " + t.groupPath(n, g)); err != nil &&
			!strings.Contains(err.Error(), "already") {
			return t.wrap("create database", err)
		}
	}
	if err := t.Bind(ctx, s); err != nil {
		return err
	}
	meas := make([]string, len(s.Sensors))
	types := make([]client.TSDataType, len(s.Sensors))
	encs := make([]client.TSEncoding, len(s.Sensors))
	comps := make([]client.TSCompressionType, len(s.Sensors))
	for i, sn := range s.Sensors {
		meas[i], types[i], encs[i], comps[i] = quoteNode(n.sensors[i]), dataTypes[sn.Type], encodings[sn.Type], client.LZ4
		if !t.compress {
			encs[i], comps[i] = client.PLAIN, client.UNCOMPRESSED
		}
	}
	for _, p := range t.paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := t.session.CreateAlignedTimeseries(p, meas, types, encs, comps, nil); err != nil &&
			!strings.Contains(err.Error(), "already exist") {
			return t.wrap("create aligned timeseries "+p, err)
		}
	}
	return nil
}

// Bind maps the schema's names and prepares device paths and tablet
// schemas.
func (t *Target) Bind(_ context.Context, s *ts.Schema) error {
	return targets.Bind(&t.binding, &t.mu, s, mapNames, func(n *names) {
		t.names = n
		t.tablet = nil // made for the previous schema
		t.paths = make([]string, len(s.Devices))
		for i, d := range s.Devices {
			t.paths[i] = t.groupPath(n, d.Group) + "." + quoteNode(n.devices[i])
		}
		t.schemas = make([]*client.MeasurementSchema, len(s.Sensors))
		for i, sn := range s.Sensors {
			t.schemas[i] = &client.MeasurementSchema{Measurement: quoteNode(n.sensors[i]), DataType: dataTypes[sn.Type]}
		}
	})
}

// Write inserts a batch as one aligned tablet.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	_, pos, err := t.binding.LockDevice(&t.mu, b.Device)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	tab, err := t.tabletFor(pos, b.Len())
	if err != nil {
		return t.wrap("write batch", err)
	}
	if b.Nulls == 0 {
		for r, tm := range b.Times {
			tab.SetTimestamp(tm, r)
			for c := range b.Columns {
				if err := tab.SetValueAt(tabletValue(&b.Columns[c], r), c, r); err != nil {
					return t.wrap("write batch", err)
				}
			}
		}
		tab.RowSize = b.Len()
	} else if tab.RowSize, err = fillSparse(tab, b); err != nil {
		return t.wrap("write batch", err)
	}
	if tab.RowSize == 0 {
		return nil // every cell empty: nothing to insert
	}
	if err := t.session.InsertAlignedTablet(tab, false); err != nil {
		return t.wrap("write batch of "+b.Device.Name, err)
	}
	return nil
}

// fillSparse fills the tablet from a batch with empty cells
// (ts.Column.Null): an empty cell is a null in the tablet's bitmap (a nil
// value), and a row without any value is left out (it carries no point).
// It returns the rows filled.
func fillSparse(tab *client.Tablet, b *ts.Batch) (int, error) {
	n := 0
	for r, tm := range b.Times {
		if !b.RowPresent(r) {
			continue
		}
		tab.SetTimestamp(tm, n)
		for c := range b.Columns {
			var v any // nil: SetValueAt marks the cell null
			if b.Columns[c].Present(r) {
				v = tabletValue(&b.Columns[c], r)
			}
			if err := tab.SetValueAt(v, c, n); err != nil {
				return 0, err
			}
		}
		n++
	}
	return n, nil
}

// tabletValue is row r's value of c as Tablet.SetValueAt takes it. Numbers
// and booleans go as pointers into the column, which SetValueAt reads
// through: a number boxed in an interface is an allocation, 300 per write
// in the CRRC shape, where a pointer is not.
func tabletValue(c *ts.Column, r int) any {
	switch c.Type {
	case ts.Boolean:
		return &c.Bools[r]
	case ts.Int32:
		return &c.Int32s[r]
	case ts.Int64:
		return &c.Int64s[r]
	case ts.Float:
		return &c.Floats[r]
	case ts.Double:
		return &c.Doubles[r]
	default:
		return c.Texts[r]
	}
}

// tabletFor returns a tablet for rows rows of the device at pos: the last
// one when it was made for the same device and length. t.mu must be held.
func (t *Target) tabletFor(pos, rows int) (*client.Tablet, error) {
	if t.tablet != nil && t.tabletPos == pos && t.tablet.GetMaxRowNumber() == rows {
		return t.tablet, nil
	}
	tab, err := client.NewTablet(t.paths[pos], t.schemas, rows)
	if err != nil {
		return nil, err
	}
	t.tablet, t.tabletPos = tab, pos
	return tab, nil
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	ds, err := t.session.ExecuteStatementWithContext(ctx, "SHOW VERSION")
	if err != nil {
		return "", t.wrap("server version", err)
	}
	defer ds.Close()
	ok, err := ds.Next()
	if err != nil {
		return "", t.wrap("server version", fmt.Errorf("no answer: %w", err))
	}
	if !ok {
		return "", t.wrap("server version", errors.New("no answer"))
	}
	v, err := ds.GetString("Version")
	if err != nil {
		return "", t.wrap("server version", err)
	}
	return "IoTDB " + v, nil
}

// Close ends the session.
func (t *Target) Close() error { return t.session.Close() }

// connectError says why a session could not open. IoTDB's plaintext RPC
// port reads a TLS handshake as the length of a thrift frame and waits for
// that frame, answering nothing: a handshake that timed out on a port that
// accepts TCP connections (probed with a bare connection that sends
// nothing) means the port does not take TLS (enable_thrift_ssl=false), as
// does a handshake answered with something other than TLS. Either is
// targets.ErrNoTLS, and never a retry in plaintext.
func connectError(addr, user string, overTLS bool, err error) error {
	var rec tls.RecordHeaderError
	switch {
	case overTLS && errors.As(err, &rec):
		return fmt.Errorf("iotdb: %s: %w (it answered the TLS handshake in plaintext: %v)", addr, targets.ErrNoTLS, err)
	case overTLS && isTimeout(err) && accepts(addr):
		return fmt.Errorf("iotdb: %s: %w (it took the connection but answered nothing to the TLS handshake, "+
			"as IoTDB's RPC port does without enable_thrift_ssl=true: %v)", addr, targets.ErrNoTLS, err)
	}
	return fmt.Errorf("iotdb: connect to %s as %s: %w", addr, user, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// accepts reports whether addr accepts a TCP connection within 2 s.
func accepts(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
