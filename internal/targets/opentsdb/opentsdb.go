// Package opentsdb is the "opentsdb" target: an OpenTSDB 2.4 TSD over its
// HTTP API, storing into HBase (scripts/services/opentsdb.sh).
//
// Mapping: a sensor is the metric "<DB_NAME>.<sensor>" (DB_NAME defaults to
// "tsbench") and a device the tags device=<name>, group=<group> plus the
// device's own tags; OpenTSDB allows 8 tags per series by default, so a
// device may carry 6 tags of its own. OpenTSDB's names take a small
// alphabet and no escape, so a sensor, device, tag key or tag value outside
// it is stored in a targets.NameMap form, distinct from every other name
// (see names.go); the answers are the schema's names. OpenTSDB stores integers and floating
// point numbers: BOOLEAN is written as 0 or 1, INT32 and INT64 as integers
// (INT64 comes back exact below 2^53: the JSON answers carry doubles), FLOAT
// and DOUBLE with a decimal point, which the TSD keeps as a 4-byte float
// when that holds the value exactly and as an 8-byte double otherwise, so
// every value round-trips. TEXT is declared unsupported.
//
// Writes: one JSON array per batch to /api/put?sync, so the TSD answers once
// HBase acknowledged every point (without sync it answers before storing);
// ?details returns OpenTSDB's own message for a refused point. A point
// written twice at the same timestamp lands in the same HBase cell, and the
// script runs the TSD with tsd.storage.fix_duplicates, so Count stays the
// number of distinct points. A reset deletes the database's points through
// /api/query with "delete":true (tsd.http.query.allow_delete, set by the
// script).
//
// Queries go to /api/query with one sub-query per sensor, the "none"
// aggregator (no interpolation across series) and a device tag filter, so
// each answer is one series. OpenTSDB's end is inclusive, tsbench's ranges
// half-open, so end is End-1. Q1, Q2 and Q9 are raw points (Q9 reversed by
// tsbench); Q4 is OpenTSDB's "0all-<agg>" downsampler, one value per series
// over the whole range. Q3, Q5, Q6, Q7, Q8 and Q10 are computed by tsbench
// from the points returned (package clientside): OpenTSDB 2.4 has no value
// filter, its downsampling buckets are aligned to the epoch rather than the
// window start, and /api/query/last needs meta tracking.
package opentsdb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/jsonenc"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is where scripts/services/opentsdb.sh starts the TSD.
const DefaultPort = 4242

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "opentsdb",
	Service:     "opentsdb",
	URLs:        targets.HTTPURLs,
	Aliases:     []string{"OpenTSDB"},
	Description: "OpenTSDB 2.4 over HTTP on HBase: /api/put?sync writes, /api/query reads (Q3, Q5-Q8, Q10 computed from returned points)",
	WritePaths:  []string{"http"},
	Server:      "scripts/services/opentsdb.sh (after scripts/services/hbase.sh)",
	DefaultPort: DefaultPort,
	Caps: targets.Capabilities{
		TLS:        true, // through a proxy in front of OpenTSDB: OpenTSDB itself is ErrNoTLS
		Types:      []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double},
		Queries:    ts.QueryKinds,
		ClientSide: []ts.QueryKind{ts.ValueRange, ts.AggValue, ts.AggRangeValue, ts.GroupBy, ts.LatestPoint, ts.ValueRangeQueryDesc},
		Sparse:     true, // a point per object: an empty cell is an object not sent

		GroupByAcross: true, // computed from the points, as Q7 is
	},
	Open:     open,
	Language: language,
}

func init() { targets.Register(Driver) }

// Target is one client's HTTP connection.
type Target struct {
	httpclient.Conn
	db string

	jsonenc.Bound             // the lock, the binding and its series, the body of the last batch
	names         serverNames // the schema's names as stored (names.go)
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	// OpenTSDB itself has neither TLS nor authentication: both are for a
	// proxy in front of it (basic authentication). Asked of OpenTSDB
	// itself, TLS is targets.ErrNoTLS.
	c, err := httpclient.OpenConn("opentsdb", o, DefaultPort)
	if err != nil {
		return nil, err
	}
	t := &Target{Conn: c, db: metricPart(o.DatabaseOr("tsbench")), Bound: jsonenc.Bound{Bound: targets.Bound{Binding: targets.NewBinding("opentsdb")}}}
	if _, err := t.ServerVersion(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// metricPart keeps the characters OpenTSDB allows in metric names and tag
// values (letters, digits, - _ . /) and turns the others into '_': for
// DB_NAME only, one name, which nothing can merge with; the schema's names
// are mapped one to one (names.go).
func metricPart(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '/':
			return r
		}
		return '_'
	}, s)
}

// do sends one request and returns the answer's body, or an error with
// OpenTSDB's own message for a status other than 2xx.
func (t *Target) do(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	data, err := t.Do(ctx, method, path, body, jsonHeader)
	if err != nil && len(data) > 0 {
		return data, fmt.Errorf("%s %s: %s", method, t.Base+path, errorMessage(data))
	}
	return data, err
}

var jsonHeader = map[string]string{"Content-Type": "application/json"}

// errorMessage picks OpenTSDB's message out of an error answer.
func errorMessage(data []byte) string {
	var e struct {
		Error struct{ Message string }
	}
	if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	var put struct {
		Errors []struct{ Error string }
	}
	if json.Unmarshal(data, &put) == nil && len(put.Errors) > 0 {
		return fmt.Sprintf("%s (%d points refused)", put.Errors[0].Error, len(put.Errors))
	}
	s := strings.TrimSpace(string(data))
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// ServerVersion implements targets.Versioner.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	data, err := t.do(ctx, http.MethodGet, "/api/version", nil)
	if err != nil {
		return "", fmt.Errorf("opentsdb: %w", err)
	}
	var v struct {
		Version       string
		ShortRevision string `json:"short_revision"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return "", fmt.Errorf("opentsdb: decode version: %w", err)
	}
	return "OpenTSDB " + strings.TrimSpace(v.Version+" "+v.ShortRevision), nil
}

// Setup checks the sensor types and, with reset, deletes the points the
// database's metrics hold.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	for _, sn := range s.Sensors {
		if !Driver.Caps.SupportsType(sn.Type) {
			return fmt.Errorf("opentsdb: sensor %s of type %s: %w", sn.Name, sn.Type, targets.ErrUnsupported)
		}
	}
	if err := t.Bind(ctx, s); err != nil {
		return err
	}
	if reset {
		if err := t.deletePoints(ctx); err != nil {
			return fmt.Errorf("opentsdb: reset: %w", err)
		}
	}
	return nil
}

// deletePoints deletes every point of the metrics "<db>.*" that exist.
func (t *Target) deletePoints(ctx context.Context) error {
	data, err := t.do(ctx, http.MethodGet, "/api/suggest?type=metrics&max=100000&q="+t.db+".", nil)
	if err != nil {
		return err
	}
	var names []string
	if err := json.Unmarshal(data, &names); err != nil {
		return fmt.Errorf("decode metric names: %w", err)
	}
	return t.awaitEmpty(ctx, names)
}

// deleteMetrics asks the TSD to delete every point of metrics.
func (t *Target) deleteMetrics(ctx context.Context, metrics []string) error {
	for _, n := range metrics {
		req := queryRequest{Start: 1, End: maxTime, MsResolution: true, Delete: true,
			Queries: []subQuery{{Aggregator: "none", Metric: n}}}
		if _, err := t.post(ctx, &req); err != nil {
			return err
		}
	}
	return nil
}

// Deleting points: the TSD answers a delete before HBase applied it, and
// a point written meanwhile at a deleted timestamp would be deleted too,
// so a reset waits until the metrics hold no point. A delete the TSD
// answered but HBase never applied (seen once in CI, the points still
// there ten minutes on) is asked again every resendDelete, and a reset
// that cannot empty the metrics within resetWait fails instead of waiting
// for ever.
const (
	resendDelete = 2 * time.Second
	resetWait    = 2 * time.Minute
)

// awaitEmpty deletes the metrics' points and waits until they hold none.
func (t *Target) awaitEmpty(ctx context.Context, metrics []string) error {
	if len(metrics) == 0 {
		return nil
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	var sent time.Time
	for {
		if time.Since(sent) >= resendDelete {
			if err := t.deleteMetrics(ctx, metrics); err != nil {
				return err
			}
			sent = time.Now()
		}
		left, err := t.count(ctx, ts.CountRange{}, metrics, serverNames{}) // every device: no names needed
		if err != nil {
			return err
		}
		if left == 0 {
			return nil
		}
		if time.Since(start) > resetWait {
			return fmt.Errorf("%d deleted points still there after %s", left, resetWait)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d deleted points still there: %w", left, ctx.Err())
		case <-tick.C:
		}
	}
}

// Bind learns the schema: metric names and device tags.
func (t *Target) Bind(_ context.Context, s *ts.Schema) error {
	return targets.Bind(&t.Binding, &t.Mu, s, mapNames, func(n serverNames) {
		t.names = n
		t.Series = jsonenc.NewSeries(s, func(sensor string) string { return t.db + "." + n.sensor(sensor) },
			func(s *ts.Schema, d *ts.Device) string { return deviceTags(s, d, n) })
	})
}

// deviceTags renders a device's tags as a JSON object, every name in its
// stored form (n).
func deviceTags(s *ts.Schema, d *ts.Device, n serverNames) string {
	grp := targets.GroupName(s, d.Group, "none")
	b, _ := json.Marshal(tagMap(d, grp, n)) // a map of strings always encodes
	return string(b)
}

func tagMap(d *ts.Device, group string, n serverNames) map[string]string {
	m := map[string]string{"device": n.device(d.Name), "group": n.tagValue(group)}
	for _, tg := range d.Tags {
		m[n.tagKey(tg.Key)] = n.tagValue(tg.Value)
	}
	return m
}

// Write sends a batch as one JSON array and returns once HBase stored it.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	return t.Post(b, appendBatch, func(body []byte) error {
		if _, err := t.do(ctx, http.MethodPost, "/api/put?sync&sync_timeout=120000&details", body); err != nil {
			return fmt.Errorf("opentsdb: write batch of %s: %w", b.Device.Name, err)
		}
		return nil
	})
}

// appendBatch renders a batch as the JSON array /api/put takes: one object
// per point.
func appendBatch(dst []byte, metrics []string, tags string, b *ts.Batch) ([]byte, error) {
	dst = append(dst, '[')
	first := true
	for sn := range b.Columns {
		c := &b.Columns[sn]
		for i, tm := range b.Times {
			if !c.Present(i) {
				continue // an empty cell (sparse data) is no point
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, `{"metric":"`...)
			dst = append(dst, metrics[sn]...)
			dst = append(dst, `","timestamp":`...)
			dst = strconv.AppendInt(dst, tm, 10)
			dst = append(dst, `,"value":`...)
			var err error
			if dst, err = appendValue(dst, c, i); err != nil {
				return nil, fmt.Errorf("sensor %d at %d: %w", sn, tm, err)
			}
			dst = append(dst, `,"tags":`...)
			dst = append(dst, tags...)
			dst = append(dst, '}')
		}
	}
	return append(dst, ']'), nil
}

// appendValue renders value i of c as an OpenTSDB integer or float.
func appendValue(dst []byte, c *ts.Column, i int) ([]byte, error) {
	dst, ok, err := jsonenc.AppendNumber(dst, c, i)
	if !ok {
		return nil, fmt.Errorf("type %s: %w", c.Type, targets.ErrUnsupported)
	}
	return dst, err
}
