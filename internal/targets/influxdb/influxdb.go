// Package influxdb is the "influxdb" target: InfluxDB 1.x over its HTTP API,
// and the write API of InfluxDB 2.x/3.x (write_path=v2).
//
// Mapping: a group is a measurement (g_0), a device is the tag device=<name>
// plus the device's own tags, a sensor is a field (s_0, ...), and a row is
// one line of line protocol, timestamps in milliseconds (precision=ms).
// Types: BOOLEAN -> boolean, INT32/INT64 -> integer, FLOAT/DOUBLE -> float,
// TEXT -> string. InfluxDB keeps one value per series, field and timestamp,
// so a rewritten point replaces the stored one.
//
// Writes serialise a batch straight from its columns into a reused buffer
// (no allocation per point) and POST it to /write; the HTTP client keeps its
// connection alive and Go sets TCP_NODELAY, which IoT-benchmark's client
// does not (its ~40 ms stall per request made it report a quarter of the
// server's speed). gzip=true compresses the body.
//
// write_path=v2 posts the same line protocol to /api/v2/write with org and
// bucket (target options; the bucket is DB_NAME unless set) and the
// precision (ms, or us or ns: the millisecond times get their zeros), and
// authenticates with TOKEN as "Authorization: Token" — InfluxDB 2.x's and
// 3.x's write API, which InfluxDB 1.8 and later (a database is a bucket
// there), VictoriaMetrics and QuestDB take too. The bucket is not created:
// InfluxDB 2.x makes buckets through its own API. A reset deletes the
// bucket's points through /api/v2/delete (2.x, 1.8 and later). Queries stay InfluxQL
// on /query, which InfluxDB 2.x answers for a bucket mapped to a database
// (DBRP) and 3.x for its databases.
//
// Authentication: TOKEN, when set, as "Authorization: Token" on every
// request (InfluxDB 2.x/3.x, and 1.8's v1 API with a user:password token);
// otherwise USERNAME and PASSWORD as basic authentication (1.x with
// auth-enabled), unless the user is IoT-benchmark's default root.
//
// Queries are InfluxQL on /query. A value filter (Q3, Q5, Q6, Q10) applies to
// one field at a time — InfluxQL's WHERE on several fields would keep only
// rows where all pass — so those queries run once per sensor and the answers
// are added up. TSBS's iot questions (FleetQuery, fleet.go) are InfluxQL
// subqueries over the truck tags each series carries.
package influxdb

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is where scripts/services/influxdb.sh starts the server.
const DefaultPort = 8086

// Driver registers the target.
var Driver = &targets.Driver{
	Name:    "influxdb",
	Service: "influxdb",
	URLs:    targets.HTTPURLs,
	Aliases: []string{"InfluxDB"},
	Refuses: map[string]string{
		"-2": "IoT-benchmark's InfluxDB-2.x queries in Flux, which tsbench does not speak; tsbench writes to InfluxDB 2.x/3.x through " +
			"/api/v2/write with a token and queries in InfluxQL on /query: --target influxdb --set target.write_path=v2 " +
			"--set target.org=ORG --set TOKEN_FILE=FILE (the bucket is DB_NAME); DB_SWITCH=InfluxDB runs InfluxDB 1.x",
	},
	Description: "InfluxDB 1.x: line protocol over HTTP, InfluxQL queries; write_path=v2: InfluxDB 2.x/3.x's /api/v2/write with a token",
	WritePaths:  []string{"v1", "v2"},
	Server:      "scripts/services/influxdb.sh (Debian's InfluxDB 1.6.7 on 127.0.0.1:8086; influxdb-1.13.sh: 1.13.2 on 8096)",
	DefaultPort: DefaultPort,
	Caps: targets.Capabilities{TLS: true, Types: ts.DataTypes, Queries: ts.QueryKinds, GroupByAcross: true,
		Sparse: true,                   // an empty cell is a field left out of its line (lineproto)
		Fleet:  targets.FleetOnServer}, // InfluxQL, a final step on the client for three kinds (fleet.go)
	Options: []targets.Option{
		{Name: "gzip", Values: []string{"true", "false"}},
		{Name: "write_path", Values: []string{"v1", "v2"}},
		{Name: "org", Check: func(string) error { return nil }},
		{Name: "bucket", Check: func(string) error { return nil }},
		{Name: "precision", Values: []string{"ms", "us", "ns"}},
	},
	Language: language,
	Open:     open,
}

func init() { targets.Register(Driver) }

// Target is one client's HTTP connection.
type Target struct {
	base  string // http(s)://host:port
	db    string // the database, or with write_path=v2 the bucket
	v2    bool   // write_path=v2: /api/v2/write
	org   string // write_path=v2's org
	zeros string // what turns a millisecond time into the precision's ("000" for us)
	gzip  bool

	httpclient.Clients // the queries' client, the writes' Poster: Close and Reconnects

	mu      sync.Mutex
	binding targets.Binding
	names   *serverNames     // the schema's names as the server stores them
	series  lineproto.Series // the schema's line prefixes and field keys
	buf     []byte           // the request body, reused
	zip     httpclient.Gzip  // with gzip: the compressed body
	pbuf    []byte           // the body at a finer precision than ms, reused
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	e, err := httpclient.NewEndpoint(o, DefaultPort)
	if err != nil {
		return nil, fmt.Errorf("influxdb: %w", err)
	}
	e.Authorization = httpclient.TokenAuth(o, "Token")
	precision := o.Extra["precision"]
	if precision == "" {
		precision = "ms"
	}
	t := &Target{base: e.Base, db: o.DatabaseOr("test"),
		gzip:    o.Extra["gzip"] == "true",
		Clients: httpclient.Clients{Client: e.Client()},
		binding: targets.NewBinding("influxdb"),
		zeros:   map[string]string{"ms": "", "us": "000", "ns": "000000"}[precision]}
	switch o.Extra["write_path"] {
	case "", "v1":
		if o.Extra["org"] != "" || o.Extra["bucket"] != "" {
			return nil, fmt.Errorf("influxdb: target options org and bucket are for write_path=v2 (InfluxDB 2.x/3.x); write_path=v1 writes to DB_NAME")
		}
	case "v2":
		t.v2, t.org = true, o.Extra["org"]
		if b := o.Extra["bucket"]; b != "" {
			t.db = b
		}
	default:
		return nil, fmt.Errorf("influxdb: target option write_path = %q: allowed: v1, v2", o.Extra["write_path"])
	}
	if _, err := t.ServerVersion(ctx); err != nil {
		return nil, err
	}
	hdr := []string{"Content-Type", "text/plain; charset=utf-8"}
	if t.gzip {
		hdr = append(hdr, "Content-Encoding", "gzip")
	}
	path := "/write?" + url.Values{"db": {t.db}, "precision": {precision}}.Encode()
	if t.v2 {
		path = "/api/v2/write?" + url.Values{"org": {t.org}, "bucket": {t.db}, "precision": {precision}}.Encode()
	}
	p, err := e.Poster(path, hdr...)
	if err != nil {
		return nil, fmt.Errorf("influxdb: %w", err)
	}
	t.Poster = p
	return t, nil
}

// do sends a request and returns the body of a 2xx answer; any other answer
// becomes an error carrying the server's own text.
func (t *Target) do(ctx context.Context, method, path string, body io.Reader, hdr map[string]string) ([]byte, http.Header, error) {
	h := make(http.Header, len(hdr))
	for k, v := range hdr {
		h.Set(k, v)
	}
	data, answer, err := httpclient.Exchange(ctx, t.Client, method, t.base+path, body, h, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("influxdb: %w", err)
	}
	return data, answer, nil
}

// ServerVersion implements targets.Versioner (the /ping header).
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	_, h, err := t.do(ctx, http.MethodGet, "/ping", nil, nil)
	if err != nil {
		return "", err
	}
	return "InfluxDB " + h.Get("X-Influxdb-Version"), nil
}

// StorageBytes implements targets.Sizer: the disk size of the database's
// shards as SHOW STATS reports them (TSM files and WAL).
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	resp, err := t.influxql(ctx, "SHOW STATS FOR 'shard'")
	if err != nil {
		return 0, err
	}
	var n int64
	for _, r := range resp.Results {
		for _, se := range r.Series {
			if se.Tags["database"] != t.db {
				continue
			}
			for _, row := range se.Values {
				for i, c := range se.Columns {
					if c == "diskBytes" && i < len(row) {
						n += int64(num(row[i]))
					}
				}
			}
		}
	}
	return n, nil
}

// influxql runs a statement and returns its decoded result.
func (t *Target) influxql(ctx context.Context, q string) (*response, error) {
	form := url.Values{"q": {q}, "db": {t.db}, "epoch": {"ms"}}
	data, _, err := t.do(ctx, http.MethodPost, "/query", strings.NewReader(form.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if err != nil {
		return nil, err
	}
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("influxdb: decode answer to %q: %w", q, err)
	}
	for _, res := range r.Results {
		if res.Error != "" {
			return nil, fmt.Errorf("influxdb: %s: %s", q, res.Error)
		}
	}
	return &r, nil
}

type response struct {
	Results []struct {
		Series []struct {
			Name    string            `json:"name"`
			Tags    map[string]string `json:"tags"`
			Columns []string          `json:"columns"`
			Values  [][]any           `json:"values"`
		} `json:"series"`
		Error string `json:"error"`
	} `json:"results"`
	Error string `json:"error"`
}

// Setup creates the database (dropping it first with reset). With
// write_path=v2 the bucket must exist, and a reset deletes its points.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	// A name no rule carries is refused before anything is dropped.
	if _, err := newServerNames(s); err != nil {
		return err
	}
	if t.v2 {
		if reset {
			if err := t.deleteBucketPoints(ctx); err != nil {
				return err
			}
		}
		return t.Bind(ctx, s)
	}
	if reset {
		if _, err := t.influxql(ctx, "DROP DATABASE "+ident(t.db)); err != nil {
			return err
		}
	}
	if _, err := t.influxql(ctx, "CREATE DATABASE "+ident(t.db)); err != nil {
		return err
	}
	return t.Bind(ctx, s)
}

// Bind prepares the line prefixes of every device, under the names the
// server stores (serverNames).
func (t *Target) Bind(_ context.Context, s *ts.Schema) error {
	return targets.Bind(&t.binding, &t.mu, s, newServerNames, func(names *serverNames) {
		t.names = names
		t.series = lineproto.NewSeries(names.srv, func(d *ts.Device) string { return measurement(names.srv, d) })
	})
}

func measurement(s *ts.Schema, d *ts.Device) string { return targets.GroupName(s, d.Group, "points") }

// deleteBucketPoints deletes every point of the bucket through InfluxDB
// 2.x's /api/v2/delete, which 1.8 and later serve too (a database is a
// bucket there). A server without that API (VictoriaMetrics, QuestDB)
// cannot be reset through it: the error says to run with
// IS_DELETE_DATA=false.
//
// The range is whole seconds within what a nanosecond time can hold: 1.x
// turns it into an InfluxQL DELETE with the times cut to the second, and
// the stored range's own first instant (…:43.145224194) cut to :43 lies
// before it ("underflows time literal", InfluxDB 1.13). Only a point in
// the first or last second of that range (years 1677 and 2262) is left.
func (t *Target) deleteBucketPoints(ctx context.Context) error {
	q := url.Values{"org": {t.org}, "bucket": {t.db}}.Encode()
	body := `{"start":"1677-09-21T00:12:44Z","stop":"2262-04-11T23:47:16Z"}`
	if _, _, err := t.do(ctx, http.MethodPost, "/api/v2/delete?"+q, strings.NewReader(body),
		map[string]string{"Content-Type": "application/json"}); err != nil {
		return fmt.Errorf("%w (write_path=v2 resets a bucket through /api/v2/delete; set IS_DELETE_DATA=false for a server without it)", err)
	}
	return nil
}
