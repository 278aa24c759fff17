// Package clickhouse is the "clickhouse" target: ClickHouse over its HTTP
// interface, tested on 18.16 (Debian's package, the only server the reachable
// registries carry). Newer servers speak the same HTTP interface and SQL used
// here; clickhouse-go v2 cannot talk to 18.16 (its native handshake hangs and
// its HTTP mode sends settings 18.16 rejects), so this target writes plain
// HTTP itself.
//
// Layout: one narrow table of points per database,
//
//	points(series UInt32, t Int64, v Nullable(Float64), s Nullable(String))
//	ENGINE = ReplacingMergeTree() ORDER BY (series, t)
//
// ordered by series and time so that every query kind reads one contiguous
// range per series (series = device position * sensors + sensor, as
// ts.Schema.SeriesID numbers them); numbers share the Float64 column (INT64
// exact below 2^53), TEXT goes to s; timestamps are Int64 milliseconds (18.16 has no
// DateTime64). ReplacingMergeTree keeps one row per (series, t) after merges,
// and every read uses FINAL so that a rewritten point is counted and returned
// once even before the merge.
//
// Beside it, devices(pos UInt32, device String, tags String), the tags of
// each device position as a JSON object, which the fleet questions join
// (fleet.go).
//
// Writes POST the batch as TabSeparated rows built straight from the columns
// into a reused buffer.
package clickhouse

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is the HTTP port of scripts/services/clickhouse.sh.
const DefaultPort = 8124

// Driver registers the target.
var Driver = &targets.Driver{
	Name:    "clickhouse",
	Service: "clickhouse",
	URLs: &targets.URLs{Schemes: []string{"clickhouse", "http", "https"}, Keys: []string{"secure"},
		Example: "clickhouse://user:pass@host:8123/db or https://host:8443"},
	Aliases:     []string{"ClickHouse"},
	Description: "ClickHouse over HTTP: ReplacingMergeTree ordered by series and time, TabSeparated inserts, reads with FINAL",
	WritePaths:  []string{"http-tsv"},
	Server:      "scripts/services/clickhouse.sh (ClickHouse 18.16 on 127.0.0.1:8124)",
	DefaultPort: DefaultPort,
	// Sparse: one row per point, so an empty cell is a row not written.
	Caps: targets.Capabilities{TLS: true, Types: ts.DataTypes, Queries: ts.QueryKinds, Sparse: true, GroupByAcross: true,
		Fleet: targets.FleetOnServer},
	Open:     open,
	Language: language,
}

func init() { targets.Register(Driver) }

// Target is one client's way to a ClickHouse engine: a server's HTTP
// interface, or, for the chdb target, the engine inside this process
// (Transport).
type Target struct {
	tr Transport
	db string

	targets.Bound // the lock and the schema
	buf           bytes.Buffer
	dialect       sqlfamily.Dialect // Dialect on this database's table
}

// Transport carries statements to a ClickHouse engine. Every statement of
// the target is ClickHouse SQL answered as ClickHouse formats it, so the
// same target serves a server and an engine in this process alike.
type Transport interface {
	// Exec runs query; body, when given, is the data of its INSERT ...
	// FORMAT TabSeparated. The answer is the query's TabSeparated output.
	Exec(ctx context.Context, query string, body io.Reader) ([]byte, error)
	// Own runs a user's statement (of their own queries) in database db;
	// the answer is TabSeparatedWithNamesAndTypes.
	Own(ctx context.Context, db, text string) (io.ReadCloser, error)
	// Where names the engine in errors ("clickhouse: http://host:port/");
	// the server's time zone is cached by it.
	Where() string
	Close() error
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	// Basic authentication, which ClickHouse's HTTP interface takes; no
	// user (or IoT-benchmark's default, root) is ClickHouse's default user.
	c, err := httpclient.OpenConn("clickhouse", o, DefaultPort)
	if err != nil {
		return nil, err
	}
	t, err := Open(ctx, &httpTransport{Conn: c}, o.DatabaseOr("test"))
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Open opens the target in database db through tr, and checks that the
// engine answers.
func Open(ctx context.Context, tr Transport, db string) (*Target, error) {
	t := &Target{tr: tr, db: db}
	t.Binding = targets.NewBinding("clickhouse")
	t.dialect = Dialect
	t.dialect.Table = t.table() + " FINAL"
	if _, err := t.exec(ctx, "SELECT 1", nil); err != nil {
		tr.Close()
		return nil, err
	}
	return t, nil
}

// Close releases the transport.
func (t *Target) Close() error { return t.tr.Close() }

// Reconnects counts the HTTP connections re-opened (targets.Reconnector);
// an engine in this process has none.
func (t *Target) Reconnects() int64 {
	if h, ok := t.tr.(*httpTransport); ok {
		return h.Reconnects()
	}
	return 0
}

// exec runs a statement; body, when given, is the data of an INSERT.
func (t *Target) exec(ctx context.Context, query string, body io.Reader) ([]byte, error) {
	return t.tr.Exec(ctx, query, body)
}

// httpTransport is a server's HTTP interface.
type httpTransport struct{ httpclient.Conn }

func (h *httpTransport) Where() string { return h.Base + "/" }

// Exec POSTs the statement, or with a body the statement in the URL and
// the body as its data.
func (h *httpTransport) Exec(ctx context.Context, query string, body io.Reader) ([]byte, error) {
	root := h.Where()
	u := root
	if body != nil {
		u += "?query=" + url.QueryEscape(query)
	} else {
		body = strings.NewReader(query)
	}
	data, _, err := httpclient.Exchange(ctx, h.Client, http.MethodPost, u, body, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: %w", err)
	}
	return data, nil
}

// Own POSTs the statement in database db with TabSeparatedWithNamesAndTypes
// as the default format; the answer streams.
func (h *httpTransport) Own(ctx context.Context, db, text string) (io.ReadCloser, error) {
	root := h.Where()
	u := root + "?database=" + url.QueryEscape(db) + "&default_format=TabSeparatedWithNamesAndTypes"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	resp, err := h.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: %s: own query: %w", root, err)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return nil, fmt.Errorf("clickhouse: %s: own query: %s: %s", root, resp.Status, strings.TrimSpace(string(msg)))
	}
	return resp.Body, nil
}

func (t *Target) table() string { return quoteIdent(t.db) + ".points" }

// Setup creates the database and table (dropping the table first with reset).
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	if _, err := t.exec(ctx, "CREATE DATABASE IF NOT EXISTS "+quoteIdent(t.db), nil); err != nil {
		return err
	}
	if reset {
		for _, tbl := range []string{t.table(), t.devices()} {
			if _, err := t.exec(ctx, "DROP TABLE IF EXISTS "+tbl, nil); err != nil {
				return err
			}
		}
	}
	_, err := t.exec(ctx, "CREATE TABLE IF NOT EXISTS "+t.table()+
		" (series UInt32, t Int64, v Nullable(Float64), s Nullable(String)) ENGINE = ReplacingMergeTree() ORDER BY (series, t)", nil)
	if err != nil {
		return err
	}
	if err := t.recordDevices(ctx, s); err != nil {
		return err
	}
	return t.Bind(ctx, s)
}

// Write inserts a batch as TabSeparated rows.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	base, err := t.SeriesBase(b)
	if err != nil {
		return err
	}
	t.buf.Reset()
	sqlfamily.AppendTSV(&t.buf, base, b)
	if t.buf.Len() == 0 {
		return nil // a sparse batch without any value
	}
	if _, err := t.exec(ctx, "INSERT INTO "+t.table()+" FORMAT TabSeparated", bytes.NewReader(t.buf.Bytes())); err != nil {
		return fmt.Errorf("write batch of %s: %w", b.Device.Name, err)
	}
	return nil
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	v, err := t.exec(ctx, "SELECT version()", nil)
	if err != nil {
		return "", err
	}
	return "ClickHouse " + strings.TrimSpace(string(v)), nil
}

// StorageBytes implements targets.Sizer from system.parts.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	v, err := t.exec(ctx, "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = "+quote(t.db)+" AND table = 'points' AND active", nil)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
}

// tsvRows reads a TabSeparated answer of (time, value) lines as
// sqlfamily.Rows: a value \N scans as nil.
type tsvRows struct {
	sc  *bufio.Scanner
	err error
}

func newTSVRows(data []byte) *tsvRows {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	return &tsvRows{sc: sc}
}

func (r *tsvRows) Next() bool { return r.err == nil && r.sc.Scan() }

func (r *tsvRows) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.sc.Err()
}

// Scan takes a *int64 and a *any.
func (r *tsvRows) Scan(dest ...any) error {
	line := r.sc.Text()
	i := strings.IndexByte(line, '\t')
	if i < 0 || len(dest) != 2 {
		r.err = fmt.Errorf("clickhouse: unexpected answer line %q", line)
		return r.err
	}
	tm, err := strconv.ParseInt(line[:i], 10, 64)
	if err != nil {
		r.err = fmt.Errorf("clickhouse: time %q: %w", line[:i], err)
		return r.err
	}
	*dest[0].(*int64) = tm
	if line[i+1:] == `\N` {
		*dest[1].(*any) = nil
		return nil
	}
	v, err := strconv.ParseFloat(line[i+1:], 64)
	if err != nil {
		r.err = fmt.Errorf("clickhouse: value %q: %w", line[i+1:], err)
		return r.err
	}
	*dest[1].(*any) = v
	return nil
}
