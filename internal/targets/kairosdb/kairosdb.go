// Package kairosdb is the "kairosdb" target: a KairosDB 1.1.3 server over its
// REST API (/api/v1).
//
// Datastore caveat: the server started by scripts/services/kairosdb.sh runs
// on KairosDB's embedded H2 datastore, because the Cassandra datastore of
// 1.1.3 needs Thrift, which no Cassandra that runs on this machine's JDK 17
// offers. Every figure this target measures is therefore H2's, not
// Cassandra's as in the seed study; reports must not compare them as if they
// were.
//
// Mapping: a sensor is the metric "<DB_NAME>.<sensor>" (DB_NAME defaults to
// "tsbench") and a device the tags device=<name>, group=<group> plus the
// device's own tags. Names are stored as given, JSON-escaped, except a
// device name with a single quote, which the H2 datastore cannot filter by,
// and a tag key "device" or "group" (see names.go). KairosDB stores long, double and string data points:
// BOOLEAN is written as the longs 0 and 1, INT32 and INT64 as longs, FLOAT
// and DOUBLE as doubles (always rendered with a decimal point, since 1.1.3
// parses a JSON number without one as a long) and TEXT as string data
// points. All six types round-trip exactly, with one exception: KairosDB
// rejects an empty string ("value may not be empty"), so Write refuses a
// batch with an empty TEXT value before sending it (STRING_LENGTH must be at
// least 1). A reset deletes every metric whose name starts with
// "<DB_NAME>." (DELETE /api/v1/metric/{name}, which empties it at once on
// H2).
//
// Writes: one gzipped JSON array per batch to /api/v1/datapoints, one entry
// per sensor with all the batch's points of the device; the batch is
// acknowledged after KairosDB's 204. A point written twice at the same
// timestamp replaces the earlier one (checked on H2), so Count stays the
// number of distinct points. KairosDB can store part of a request it answers
// with 400, so a failed write may leave some of its points behind.
//
// Queries go to /api/v1/datapoints/query with one metric query per (device,
// sensor), selected by its device tag, so that points of different series
// are never merged; a Query is one HTTP request. KairosDB's end_absolute is
// inclusive, tsbench's ranges half-open, so end_absolute is End-1. The
// server computes every kind: Q1, Q2 and Q9 are raw points (Q9 with
// "order":"desc"); the value filter of Q3, Q5, Q6 and Q10 is KairosDB's
// "filter" aggregator (filter_op lte with threshold Lower drops what is not
// > Lower); Q4, Q5 and Q6 are the count, sum, avg, min or max aggregator
// over one sampling interval that spans the whole range; Q7 is the same
// aggregator with the bucket as sampling interval, which KairosDB starts at
// start_absolute (align_start_time only reports the bucket start as its
// timestamp); Q8 is "order":"desc" with "limit":1. No kind is computed by
// tsbench from raw points, so Capabilities.ClientSide is empty.
package kairosdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/jsonenc"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is where scripts/services/kairosdb.sh starts the server.
const DefaultPort = 8080

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "kairosdb",
	Service:     "kairosdb",
	URLs:        targets.HTTPURLs,
	Aliases:     []string{"KairosDB"},
	Description: "KairosDB 1.1.3 on its H2 datastore (not Cassandra): gzipped JSON writes, queries with its aggregators",
	WritePaths:  []string{"http"},
	Server:      "scripts/services/kairosdb.sh (H2 datastore)",
	DefaultPort: DefaultPort,
	Caps: targets.Capabilities{
		TLS:     true,
		Types:   []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double, ts.Text},
		Queries: ts.QueryKinds,
		Sparse:  true, // each sensor's points listed apart: an empty cell is a point not listed

		GroupByAcross:    true, // one metric query over all the devices (see across)
		BucketsFromStart: true, // its sampling aligns to the query's start (query.go)
	},
	Open:     open,
	Language: language,
}

func init() { targets.Register(Driver) }

// Target is one client's HTTP connection.
type Target struct {
	httpclient.Conn
	db string

	jsonenc.Bound                 // the lock, the binding and its series, the body of the last batch
	names         serverNames     // the device names and tag keys as stored (names.go)
	zip           httpclient.Gzip // the gzipped body
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	// KairosDB's Jetty takes basic authentication
	// (kairosdb.jetty.basic_auth.user and .password).
	c, err := httpclient.OpenConn("kairosdb", o, DefaultPort)
	if err != nil {
		return nil, err
	}
	t := &Target{Conn: c, db: o.DatabaseOr("tsbench"), Bound: jsonenc.Bound{Bound: targets.Bound{Binding: targets.NewBinding("kairosdb")}}}
	if _, err := t.ServerVersion(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// do sends one request and returns the answer's body, or an error for a
// status other than 2xx.
func (t *Target) do(ctx context.Context, method, path string, body []byte, header map[string]string) ([]byte, error) {
	data, err := t.Do(ctx, method, path, body, header)
	if err != nil {
		return nil, fmt.Errorf("kairosdb: %w", err)
	}
	return data, nil
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	data, err := t.do(ctx, http.MethodGet, "/api/v1/version", nil, nil)
	if err != nil {
		return "", err
	}
	var v struct{ Version string }
	if err := json.Unmarshal(data, &v); err != nil {
		return "", fmt.Errorf("kairosdb: decode version: %w", err)
	}
	return v.Version + " (H2 datastore)", nil
}

// Setup checks the sensor types and, with reset, deletes the database's
// metrics.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	for _, sn := range s.Sensors {
		if !Driver.Caps.SupportsType(sn.Type) {
			return fmt.Errorf("kairosdb: sensor %s of type %s: %w", sn.Name, sn.Type, targets.ErrUnsupported)
		}
	}
	if _, err := mapNames(s); err != nil {
		return err // before the reset: a schema refused leaves the data as it was
	}
	if reset {
		if err := t.deleteMetrics(ctx); err != nil {
			return err
		}
	}
	return t.Bind(ctx, s)
}

// deleteMetrics deletes every metric named "<db>.*".
func (t *Target) deleteMetrics(ctx context.Context) error {
	data, err := t.do(ctx, http.MethodGet, "/api/v1/metricnames", nil, nil)
	if err != nil {
		return fmt.Errorf("kairosdb: reset: %w", err)
	}
	var names struct{ Results []string }
	if err := json.Unmarshal(data, &names); err != nil {
		return fmt.Errorf("kairosdb: reset: decode metric names: %w", err)
	}
	prefix := t.db + "."
	for _, n := range names.Results {
		if !strings.HasPrefix(n, prefix) {
			continue
		}
		if _, err := t.do(ctx, http.MethodDelete, "/api/v1/metric/"+url.PathEscape(n), nil, nil); err != nil {
			return fmt.Errorf("kairosdb: reset: %w", err)
		}
	}
	return nil
}

// Bind learns the schema: metric names and device tags.
func (t *Target) Bind(_ context.Context, s *ts.Schema) error {
	return targets.Bind(&t.Binding, &t.Mu, s, mapNames, func(n serverNames) {
		t.names = n
		t.Series = jsonenc.NewSeries(s, func(sensor string) string { return metricName(t.db, sensor) },
			func(s *ts.Schema, d *ts.Device) string { return deviceTags(s, d, n) })
	})
}

func metricName(db, sensor string) string { return db + "." + sensor }

// deviceTags renders a device's tags as a JSON object, its name and tag
// keys in their stored form (n).
func deviceTags(s *ts.Schema, d *ts.Device, n serverNames) string {
	grp := targets.GroupName(s, d.Group, "")
	var b []byte
	b = append(b, `{"device":`...)
	b = jsonenc.AppendString(b, n.device(d.Name))
	b = append(b, `,"group":`...)
	b = jsonenc.AppendString(b, grp)
	for _, tg := range d.Tags {
		b = append(b, ',')
		b = jsonenc.AppendString(b, n.tagKey(tg.Key))
		b = append(b, ':')
		b = jsonenc.AppendString(b, tg.Value)
	}
	return string(append(b, '}'))
}

// Write sends a batch as one gzipped JSON array and returns after the 204.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	return t.Post(b, appendBatch, func(body []byte) error {
		gz, err := t.zip.Compress(body)
		if err != nil {
			return fmt.Errorf("kairosdb: write batch: %w", err)
		}
		if _, err := t.do(ctx, http.MethodPost, "/api/v1/datapoints", gz,
			map[string]string{"Content-Type": "application/gzip"}); err != nil {
			return fmt.Errorf("kairosdb: write batch of %s: %w", b.Device.Name, err)
		}
		return nil
	})
}

// appendBatch renders a batch as the JSON array /api/v1/datapoints takes:
// one entry per sensor with the device's tags and all the batch's points.
func appendBatch(dst []byte, metrics []string, tags string, b *ts.Batch) ([]byte, error) {
	dst = append(dst, '[')
	entries := 0
	for sn := range b.Columns {
		c := &b.Columns[sn]
		first := firstPresent(c, len(b.Times))
		if first < 0 {
			continue // every cell of the sensor empty (sparse data): no entry
		}
		if entries > 0 {
			dst = append(dst, ',')
		}
		entries++
		dst = append(dst, `{"name":`...)
		dst = jsonenc.AppendString(dst, metrics[sn])
		if c.Type == ts.Text {
			dst = append(dst, `,"type":"string"`...)
		}
		dst = append(dst, `,"tags":`...)
		dst = append(dst, tags...)
		dst = append(dst, `,"datapoints":[`...)
		for i := first; i < len(b.Times); i++ {
			if !c.Present(i) {
				continue // an empty cell is no point
			}
			tm := b.Times[i]
			if i > first {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			dst = strconv.AppendInt(dst, tm, 10)
			dst = append(dst, ',')
			var err error
			if dst, err = appendValue(dst, c, i); err != nil {
				return nil, fmt.Errorf("sensor %d at %d: %w", sn, tm, err)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, ']'), nil
}

// firstPresent is the first of the column's n rows with a value, -1 for
// none.
func firstPresent(c *ts.Column, n int) int {
	for i := range n {
		if c.Present(i) {
			return i
		}
	}
	return -1
}

// appendValue renders value i of c as a KairosDB long, double or string.
func appendValue(dst []byte, c *ts.Column, i int) ([]byte, error) {
	dst, ok, err := jsonenc.AppendNumber(dst, c, i)
	if ok || err != nil {
		return dst, err
	}
	if c.Texts[i] == "" {
		return nil, fmt.Errorf("empty TEXT value: KairosDB rejects empty strings")
	}
	return jsonenc.AppendString(dst, c.Texts[i]), nil
}
