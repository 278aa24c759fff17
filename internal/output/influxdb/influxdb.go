// Package influxdb sends samples as InfluxDB line protocol: one measurement
// per metric (tsbench_operations_total, tsbench_latency_seconds, ...), the
// labels as tags and the value in the field "value", at millisecond
// precision, as k6's InfluxDB output lays its metrics out.
//
// It stands apart as k6's outputs do, one package per receiver behind
// output.Receiver: a new receiver is one new package, and each brings only
// its own format (line protocol). internal/cli's receivers.go is the one
// place that knows them all.
package influxdb

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/output"
)

// DefaultDatabase is the database of a URL that names none.
const DefaultDatabase = "tsbench"

// Receiver is one InfluxDB write endpoint.
type Receiver struct {
	output.HTTPClient        // the transport; its Close is the receiver's
	write             string // the write URL, with its query
	create            string // InfluxDB 1.x's query URL to create the database, or ""
	db                string
	made              bool // the database was created (or need not be)
}

// New makes a receiver for rawURL, which is one of
//
//	http://HOST:8086            InfluxDB 1.x, database "tsbench"
//	http://HOST:8086/DB         InfluxDB 1.x, database DB (created if missing)
//	http://HOST:8086/write?db=DB&...          as given (1.x)
//	http://HOST:8086/api/v2/write?bucket=B&org=O  as given (2.x, 3.x)
func New(rawURL string) (*Receiver, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("influxdb: %w", err)
	}
	r := &Receiver{HTTPClient: output.NewHTTPClient()}
	q := u.Query()
	switch path := strings.Trim(u.Path, "/"); path {
	case "write", "api/v2/write":
		r.made = true // the server's own database or bucket: not ours to create
	default:
		r.db = path
		if r.db == "" {
			r.db = DefaultDatabase
		}
		if strings.Contains(r.db, "/") {
			return nil, fmt.Errorf("influxdb: %s: want http://HOST:PORT/DATABASE, .../write?db=DB or .../api/v2/write?bucket=B", u.Redacted())
		}
		c := *u
		c.Path, c.RawQuery = "/query", url.Values{"q": {`CREATE DATABASE "` + strings.ReplaceAll(r.db, `"`, `\"`) + `"`}}.Encode()
		r.create = c.String()
		u.Path = "/write"
		q.Set("db", r.db)
	}
	if q.Get("precision") == "" {
		q.Set("precision", "ms")
	}
	u.RawQuery = q.Encode()
	r.write = u.String()
	return r, nil
}

// Database is the 1.x database written to ("" for a URL given whole).
func (r *Receiver) Database() string { return r.db }

// WriteURL is where lines are posted, any password masked.
func (r *Receiver) WriteURL() string { return output.Redact(r.write) }

var header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "User-Agent": {"tsbench"}}

// Send writes the batch in one request. The database is created before the
// first write: CREATE DATABASE is a no-op when it exists.
func (r *Receiver) Send(ctx context.Context, batch []*output.Sample) error {
	if !r.made {
		if err := r.Post(ctx, r.create, nil, header); err != nil {
			return fmt.Errorf("influxdb: create database %s: %w", r.db, err)
		}
		r.made = true
	}
	if err := r.Post(ctx, r.write, Encode(nil, batch), header); err != nil {
		return fmt.Errorf("influxdb: write: %w", err)
	}
	return nil
}

// Encode appends the batch's lines to dst, millisecond timestamps.
func Encode(dst []byte, batch []*output.Sample) []byte {
	for _, s := range batch {
		for _, p := range s.Points() {
			dst = append(dst, lineproto.Escape(p.Name, ", ")...)
			for _, l := range p.Labels {
				dst = append(dst, ',')
				dst = append(dst, lineproto.Escape(l.Name, ",= ")...)
				dst = append(dst, '=')
				dst = append(dst, lineproto.Escape(l.Value, ",= ")...)
			}
			dst = append(dst, " value="...)
			dst = strconv.AppendFloat(dst, p.Value, 'g', -1, 64)
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, p.Time.UnixMilli(), 10)
			dst = append(dst, '\n')
		}
	}
	return dst
}
