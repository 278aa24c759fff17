// Package victoriametrics is the "victoriametrics" target: a single-node
// VictoriaMetrics server over its HTTP API.
//
// Mapping: a sensor is a metric name (s_0, ...) and a device the labels
// device=<name>, group=<group> and its tags, plus db=<DB_NAME> and
// gen=<generation>: every reset starts a new generation, because
// VictoriaMetrics cannot take new samples for a deleted series at once; the
// old generation is deleted. Names are stored as they are, whatever they
// hold, escaped as JSON on the way in and as MetricsQL string literals in
// the queries; only a tag key that is one of these labels is renamed (see
// names.go). Setup registers every series of the new
// generation with a sample at START_TIME - 1 ms, outside every answer (see
// register for why). VictoriaMetrics stores float64 values only:
// BOOLEAN (0/1), INT32, INT64 (exact below 2^53) and FLOAT/DOUBLE are kept,
// TEXT is declared unsupported.
//
// Writes use /api/v1/import, whose JSON lines carry one series each with all
// its timestamps and values: a columnar batch becomes one line per sensor.
// With write_path=remote-write they go to /api/v1/write as Prometheus
// agents send them: a remote write 1.0 request per batch, a series per
// sensor (internal/remotewrite; VictoriaMetrics reads no 2.0 request, and
// would take one for an empty 1.0 request, so 2.0 is not offered). The
// setup's own samples (the generation marker, the registration) go
// through the import either way. Rewritten timestamps collapse through
// deduplication (-dedup.minScrapeInterval=1ms in
// scripts/services/victoriametrics.sh).
//
// Queries. Raw points come from /api/v1/export (Q1, Q2, Q9 and, with the
// value filter applied by tsbench to the exported points, Q3 and Q10). Q4
// (count, sum, avg, min, max over a range) and Q8 (latest point) are
// MetricsQL rollups computed by the server. Q7 (time buckets aligned to the
// window start, per series or across devices) is a /api/v1/query_range of
// rollups evaluated at each bucket's end - 1 ms with the bucket as window,
// and the buckets clipped by the window's ends evaluated on their own (see
// rollup.go); it falls back to the export when the server cannot answer it
// exactly (a bucket of 0, more than 50,000 buckets, buckets within minutes
// of the wall clock, an unusable answer). Q5 and Q6 — aggregates with a
// value filter — cannot be expressed exactly in MetricsQL (a subquery
// resamples), so tsbench computes them from exported points: their latency
// includes the transfer of every point in range. Queries without an end of
// their own are bounded by a far promql.Horizon, never by the wall clock (see
// promql.Horizon). The server must run with
// -search.disableCache (the script does), or repeated queries would measure
// its result cache. Data becomes searchable after an internal flush (1-2
// s), and a series lookup made before a new series or day was may hide it
// from the queries for 11 s more: writes of a device's new day start a
// background settle, and Count settles first (see settle.go), so that a
// run's queries see what was written more than about 2 s earlier and the
// answers after the run see everything.
package victoriametrics

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/numfmt"
	"github.com/tsbench/tsbench/internal/otlpmetrics"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/jsonenc"
	"github.com/tsbench/tsbench/internal/targets/promql"
	"github.com/tsbench/tsbench/internal/ts"
)

// DefaultPort is where scripts/services/victoriametrics.sh starts the server.
const DefaultPort = 8428

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "victoriametrics",
	Service:     "victoriametrics",
	URLs:        targets.HTTPURLs,
	Aliases:     []string{"VictoriaMetrics"},
	Description: "VictoriaMetrics: /api/v1/import writes (write_path=remote-write: Prometheus remote write 1.0 to /api/v1/write; the prometheus workload's write_path=otlp: OTLP/HTTP metrics); export and MetricsQL queries (Q5, Q6 computed from exported points)",
	WritePaths:  []string{"import", "remote-write"},
	Server:      "scripts/services/victoriametrics.sh (VictoriaMetrics v1.151.0 on 127.0.0.1:8428; victoriametrics-1.79.sh: Debian's 1.79 on 8438)",
	DefaultPort: DefaultPort,
	Caps: targets.Capabilities{
		TLS:        true,
		Types:      []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double},
		Queries:    ts.QueryKinds,
		ClientSide: []ts.QueryKind{ts.AggValue, ts.AggRangeValue},
		Sparse:     true, // a series per sensor: an empty cell is a sample not sent

		GroupByAcross: true, // aggregated by (__name__) on the server (rollup.go)
		PromStore:     true, // remote write (write_path=remote-write) and PromQL's API
		NoNativeHistograms: "VictoriaMetrics turns each native histogram it takes into _count, _sum and _bucket " +
			"series with vmrange labels, so PromQL's histogram functions find no native histogram to read",
	},
	Options:  []targets.Option{{Name: "write_path", Values: []string{"import", "remote-write", "otlp"}}},
	Language: language,
	Open:     open,
}

func init() { targets.Register(Driver) }

// Target is one client's HTTP connection.
type Target struct {
	base string // with the path prefix of a TARGET_URL (a cluster's /insert/0/prometheus)
	root string // without it: where /health, /metrics and /internal/force_flush are
	db   string

	httpclient.Clients // the queries' client, the imports' Poster: Close and Reconnects

	// fallbacks counts the queries answered from the export instead of
	// the server's rollups, by reason (targets.FallbackCounter).
	fallbacks targets.Fallbacks

	mu      sync.Mutex
	binding targets.Binding
	gen     string
	labels  []string             // per device position: the label part of a metric object
	tagKeys *targets.NameMap     // the devices' tag keys as labels (tagRule)
	buf     []byte               // the request body, reused
	rw      bool                 // write_path=remote-write
	otlp    bool                 // write_path=otlp: the prometheus workload's OTLP/HTTP metrics
	encoder *remotewrite.Encoder // with rw: the schema's requests
	written *written
	days    [][2]int64 // per device position: the bounds [from, to) of the day Write last wrote in
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	e, err := httpclient.NewEndpoint(o, DefaultPort)
	if err != nil {
		return nil, fmt.Errorf("victoriametrics: %w", err)
	}
	// VictoriaMetrics' own -httpAuth.* is basic authentication; a token is
	// for what stands in front of it (vmauth, a Prometheus-compatible
	// gateway), which takes it as a bearer.
	e.Authorization = httpclient.TokenAuth(o, "Bearer")
	db := o.DatabaseOr("test")
	t := &Target{base: e.Base, root: e.Root, db: db, Clients: httpclient.Clients{Client: e.Client()}, binding: targets.NewBinding("victoriametrics")}
	if _, _, err := t.get(ctx, "/health", nil); err != nil {
		return nil, err
	}
	if e.Authorization != "" {
		// /health answers without authentication: a wrong password must
		// show at the start, on a path that asks for it, not at the
		// first write.
		if _, _, err := t.get(ctx, "/api/v1/query", url.Values{"query": {"1"}}); err != nil {
			return nil, err
		}
	}
	path, header := "/api/v1/import", []string(nil)
	switch o.Extra["write_path"] {
	case "remote-write":
		t.rw, path, header = true, "/api/v1/write", remotewrite.V1.Header()
	case "otlp":
		t.otlp, path, header = true, "/opentelemetry/v1/metrics", remotewrite.OTLP.Header()
	}
	p, err := e.Poster(path, header...)
	if err != nil {
		return nil, fmt.Errorf("victoriametrics: %w", err)
	}
	t.Poster = p
	return t, nil
}

func (t *Target) do(ctx context.Context, method, path string, q url.Values, body io.Reader) ([]byte, error) {
	return t.doInto(ctx, method, path, q.Encode(), body, nil)
}

// doInto is do with the answer read into into (reset first) rather than a
// fresh slice: a query_range answer of 90 KB read by io.ReadAll was a
// dozen allocations growing from 512 bytes on every query. The returned
// bytes are into's and live until into is next used. query is the URL's
// encoded query ("" for none).
func (t *Target) doInto(ctx context.Context, method, path, query string, body io.Reader, into *bytes.Buffer) ([]byte, error) {
	base := t.base
	if !strings.HasPrefix(path, "/api/") {
		base = t.root // the server's own endpoints are outside a cluster's API route
	}
	u := base + path
	if query != "" {
		u += "?" + query
	}
	data, _, err := httpclient.Exchange(ctx, t.Client, method, u, body, nil, into)
	if err != nil {
		return nil, fmt.Errorf("victoriametrics: %w", err)
	}
	return data, nil
}

func (t *Target) get(ctx context.Context, path string, q url.Values) ([]byte, http.Header, error) {
	data, err := t.do(ctx, http.MethodGet, path, q, nil)
	return data, nil, err
}

// Setup starts a new generation with reset (deleting the old one), or joins
// the latest one.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	if t.otlp {
		return errOTLPTimeSeries
	}
	for _, typ := range s.Sensors {
		if !Driver.Caps.SupportsType(typ.Type) {
			return fmt.Errorf("victoriametrics: sensor %s of type %s: %w (it stores float64 values only)",
				typ.Name, typ.Type, targets.ErrUnsupported)
		}
	}
	if _, err := tagRule.Map(s.TagKeys()); err != nil {
		return err // before the reset: a schema refused leaves the data as it was
	}
	if !reset {
		return t.Bind(ctx, s)
	}
	q := url.Values{"match[]": {`{db=` + promql.Quote(t.db) + `}`}}
	if _, err := t.do(ctx, http.MethodPost, "/api/v1/admin/tsdb/delete_series", q, nil); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.bindLocked(s, strconv.FormatInt(time.Now().UnixNano(), 10)); err != nil {
		return err
	}
	// A marker series makes the generation findable by Bind.
	marker := []byte(`{"metric":{"__name__":"tsbench_generation","db":`)
	marker = jsonenc.AppendString(marker, t.db)
	marker = append(marker, `,"gen":`...)
	marker = jsonenc.AppendString(marker, t.gen)
	marker = fmt.Appendf(marker, `},"values":[1],"timestamps":[%d]}`+"\n", s.StartTime)
	if _, err := t.do(ctx, http.MethodPost, "/api/v1/import", nil, bytes.NewReader(marker)); err != nil {
		return err
	}
	if err := t.register(ctx, s); err != nil {
		return err
	}
	return t.flush(ctx)
}

// registerChunk is how many series one registration request creates.
const registerChunk = 10_000

// register creates every series of the schema before the run, with one
// sample at START_TIME - 1 ms, which no answer includes: every query, export
// and count starts at START_TIME at the earliest (clamp).
//
// Why: VictoriaMetrics makes a new series searchable only after an internal
// flush (a second or more), and a query that finds no series in the
// meantime is cached as empty, per day of data, long after the flush: a run
// whose queries start with its writes, on series its writes create, was
// seen answering every query with 0 points for all of its 8 seconds (1.79
// and 1.148). Registered here and flushed by Setup, the series are known
// from the first query on; but the index is per day, and in 1.148 per
// month (a partition) too, and START_TIME - 1 ms lies on the day before the
// data, at a month's start (TSBS's 2016-01-01) in the month before: the
// data's days get their entries with the run's writes, and the
// background settle (see written) keeps the queries made meanwhile from
// hiding them. (A sample at the epoch registers the series but not the
// data's day; a NaN is dropped.)
func (t *Target) register(ctx context.Context, s *ts.Schema) error {
	var body []byte
	n := 0
	send := func() error {
		if n == 0 {
			return nil
		}
		_, err := t.do(ctx, http.MethodPost, "/api/v1/import", nil, bytes.NewReader(body))
		body, n = body[:0], 0
		if err != nil {
			return fmt.Errorf("victoriametrics: register series: %w", err)
		}
		return nil
	}
	for pos := range s.Devices {
		for _, sn := range s.Sensors {
			body = append(body, `{"metric":{"__name__":`...)
			body = jsonenc.AppendString(body, sn.Name)
			body = append(body, ',')
			body = append(body, t.labels[pos]...)
			body = append(body, `},"values":[0],"timestamps":[`...)
			body = numfmt.AppendInt(body, s.StartTime-1)
			body = append(body, "]}\n"...)
			if n++; n == registerChunk {
				if err := send(); err != nil {
					return err
				}
			}
		}
	}
	return send()
}

// Bind joins the newest generation of the database. The generations are
// read from the marker series' own samples, which lie at the schema's
// START_TIME, through the export API with that exact time range: a label
// API asked for all time may narrow the range itself, and VictoriaMetrics
// 1.148 returns no label values for a series whose only sample is years old.
func (t *Target) Bind(ctx context.Context, s *ts.Schema) error {
	gens, err := t.generations(ctx, s.StartTime)
	if err != nil {
		return err
	}
	gen := "0" // no generation yet: queries find nothing, as on an empty database
	if len(gens) > 0 {
		gen = gens[len(gens)-1]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bindLocked(s, gen)
}

// generations lists, oldest first, the generations whose marker lies at
// start. Generation names are nanosecond clock readings of equal length, so
// their string order is their age order.
func (t *Target) generations(ctx context.Context, start int64) ([]string, error) {
	q := url.Values{"match[]": {`tsbench_generation{db=` + promql.Quote(t.db) + `}`},
		"start": {promql.Seconds(start)}, "end": {promql.Seconds(start)}}
	data, _, err := t.get(ctx, "/api/v1/export", q)
	if err != nil {
		return nil, err
	}
	var gens []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var line struct {
			Metric struct {
				Gen string `json:"gen"`
			} `json:"metric"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("victoriametrics: decode generation markers: %w", err)
		}
		gens = append(gens, line.Metric.Gen)
	}
	sort.Strings(gens)
	return gens, sc.Err()
}

func (t *Target) bindLocked(s *ts.Schema, gen string) error {
	keys, err := tagRule.Map(s.TagKeys())
	if err != nil {
		return err
	}
	t.binding.Set(s)
	t.gen, t.tagKeys = gen, keys
	t.written, t.days = writtenTo(t.db, gen), make([][2]int64, len(s.Devices))
	t.labels = make([]string, len(s.Devices))
	for i := range s.Devices {
		t.labels[i] = deviceLabels(s, &s.Devices[i], t.db, gen, keys)
	}
	if t.rw {
		t.encoder = remotewrite.NewEncoder(remotewrite.V1, s.Sensors, labelSets(s, t.db, gen, keys))
	}
	return nil
}

// labelSets is every device's labels for remote write: those deviceLabels
// writes as JSON.
func labelSets(s *ts.Schema, db, gen string, keys *targets.NameMap) [][]remotewrite.Label {
	out := make([][]remotewrite.Label, len(s.Devices))
	for i := range s.Devices {
		d := &s.Devices[i]
		ls := []remotewrite.Label{{Name: "db", Value: db}, {Name: "gen", Value: gen}, {Name: "device", Value: d.Name},
			{Name: "group", Value: targets.GroupName(s, d.Group, "")}}
		for _, tg := range d.Tags {
			ls = append(ls, remotewrite.Label{Name: keys.Server(tg.Key), Value: tg.Value})
		}
		out[i] = ls
	}
	return out
}

// deviceLabels is the label part of a device's metric objects, every name
// and value a JSON string.
func deviceLabels(s *ts.Schema, d *ts.Device, db, gen string, keys *targets.NameMap) string {
	b := []byte(`"db":`)
	b = jsonenc.AppendString(b, db)
	b = append(b, `,"gen":`...)
	b = jsonenc.AppendString(b, gen)
	b = append(b, `,"device":`...)
	b = jsonenc.AppendString(b, d.Name)
	b = append(b, `,"group":`...)
	b = jsonenc.AppendString(b, targets.GroupName(s, d.Group, ""))
	for _, tg := range d.Tags {
		b = append(b, ',')
		b = jsonenc.AppendString(b, keys.Server(tg.Key))
		b = append(b, ':')
		b = jsonenc.AppendString(b, tg.Value)
	}
	return string(b)
}

// NameMapping implements targets.NameMapper: the tag keys renamed because
// they are labels of tsbench's own (tagRule).
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return targets.Mapping(map[string]*targets.NameMap{"tag key": t.tagKeys})
}

// Labels returns the label part of the metric object /api/v1/import lines
// carry for a device (the lean baseline writer builds its bodies with it).
func (t *Target) Labels(d *ts.Device) string {
	_, pos, err := t.binding.LockDevice(&t.mu, d)
	if err != nil {
		return ""
	}
	defer t.mu.Unlock()
	return t.labels[pos]
}

// flush makes written samples searchable.
func (t *Target) flush(ctx context.Context) error {
	_, _, err := t.get(ctx, "/internal/force_flush", nil)
	return err
}

// Write imports a batch: one JSON line per sensor with all its samples.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	s, pos, err := t.binding.LockDevice(&t.mu, b.Device)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	var body []byte
	if t.encoder != nil {
		body = t.encoder.Encode(pos, b)
	} else {
		t.buf = appendImport(t.buf[:0], t.labels[pos], s.Sensors, b)
		body = t.buf
	}
	if err := t.Poster.Post(ctx, body); err != nil {
		return fmt.Errorf("victoriametrics: write batch of %s: %w", b.Device.Name, err)
	}
	// A device's first samples of a day create its series' index entries
	// for the day: settle in the background (see written).
	day := &t.days[pos]
	for _, tm := range b.Times {
		if tm < day[0] || tm >= day[1] {
			*day = dayOf(tm)
			t.written.newDay(t, tm)
		}
	}
	return nil
}

// appendImport appends a batch in /api/v1/import's JSON-lines format to
// dst: one line per sensor with all its values and timestamps. The
// timestamps are the same on every line: they are formatted for the first
// and copied for the others.
func appendImport(dst []byte, labels string, sensors []ts.Sensor, b *ts.Batch) []byte {
	if b.Nulls != 0 {
		return appendSparseImport(dst, labels, sensors, b)
	}
	var stamps []byte // the first line's timestamps, within dst
	for sn := range b.Columns {
		c := &b.Columns[sn]
		dst = append(dst, `{"metric":{"__name__":`...)
		dst = jsonenc.AppendString(dst, sensors[sn].Name)
		dst = append(dst, ',')
		dst = append(dst, labels...)
		dst = append(dst, `},"values":[`...)
		for i := range b.Times {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, c, i, b.Decimals)
		}
		if stamps != nil {
			dst = append(dst, stamps...)
			continue
		}
		start := len(dst)
		dst = append(dst, `],"timestamps":[`...)
		for i, tm := range b.Times {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = numfmt.AppendInt(dst, tm)
		}
		dst = append(dst, "]}\n"...)
		stamps = dst[start:]
	}
	return dst
}

// appendValue appends value i of a numeric column as JSON: a DOUBLE from
// its generated integer when it has one (numfmt.AppendFixed), the others
// as the shortest float that reads back.
func appendValue(dst []byte, c *ts.Column, i, decimals int) []byte {
	if c.Type == ts.Double {
		if c.HasFixed() {
			return numfmt.AppendFixed(dst, c.Doubles[i], c.Fixed[i], decimals)
		}
		return numfmt.AppendFloat(dst, c.Doubles[i], decimals)
	}
	v, _ := c.Number(i)
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// appendSparseImport is appendImport for a batch with empty cells
// (ts.Column.Null): each sensor's line has its present samples only, with
// their own timestamps, and a sensor without any has no line (an empty
// line would be refused). Dense batches never come here.
func appendSparseImport(dst []byte, labels string, sensors []ts.Sensor, b *ts.Batch) []byte {
	for sn := range b.Columns {
		c := &b.Columns[sn]
		first := -1
		for i := range b.Times {
			if c.Present(i) {
				first = i
				break
			}
		}
		if first < 0 {
			continue
		}
		dst = append(dst, `{"metric":{"__name__":`...)
		dst = jsonenc.AppendString(dst, sensors[sn].Name)
		dst = append(dst, ',')
		dst = append(dst, labels...)
		dst = append(dst, `},"values":[`...)
		for i := first; i < len(b.Times); i++ {
			if !c.Present(i) {
				continue
			}
			if i > first {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, c, i, b.Decimals)
		}
		dst = append(dst, `],"timestamps":[`...)
		for i := first; i < len(b.Times); i++ {
			if !c.Present(i) {
				continue
			}
			if i > first {
				dst = append(dst, ',')
			}
			dst = numfmt.AppendInt(dst, b.Times[i])
		}
		dst = append(dst, "]}\n"...)
	}
	return dst
}

// ServerVersion implements targets.Versioner from the server's build metric.
// A server built without version information (Debian's package, a plain
// go install) reports an empty one, and is said to.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	data, _, err := t.get(ctx, "/metrics", nil)
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "vm_app_version{") {
			continue
		}
		if i := strings.Index(line, `short_version="`); i >= 0 {
			v := line[i+len(`short_version="`):]
			if v = v[:strings.IndexByte(v, '"')]; v != "" {
				return "VictoriaMetrics " + v, nil
			}
		}
	}
	return "VictoriaMetrics (the server reports no version)", nil
}

// StorageBytes implements targets.Sizer: vm_data_size_bytes of every part
// type, after a flush. It covers the whole server, not only this database.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	data, _, err := t.get(ctx, "/metrics", nil)
	if err != nil {
		return 0, err
	}
	var n int64
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "vm_data_size_bytes{") {
			f := strings.Fields(line)
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err == nil {
				n += int64(v)
			}
		}
	}
	return n, nil
}

// Fallbacks counts the GROUP_BY queries answered from the export instead of
// the server's rollups, by reason (targets.FallbackCounter).
func (t *Target) Fallbacks() map[string]int64 { return t.fallbacks.Fallbacks() }

// Begin does nothing: VictoriaMetrics takes samples of any time
// (targets.PromStore).
func (t *Target) Begin(context.Context) error { return nil }

// RemoteWrite posts a remote write 1.0 request to /api/v1/write
// (targets.PromStore); the target must have been opened with
// write_path=remote-write.
func (t *Target) RemoteWrite(ctx context.Context, body []byte, _ int64) error {
	if !t.rw && !t.otlp {
		return badinput.Errorf("victoriametrics: remote write needs the target option write_path=remote-write (or otlp)")
	}
	a, err := t.Poster.PostAnswered(ctx, body)
	if err != nil {
		return fmt.Errorf("victoriametrics: remote write: %w", err)
	}
	if t.otlp {
		if err := otlpmetrics.CheckAnswer(a.Body); err != nil {
			return fmt.Errorf("victoriametrics: OTLP: %w", err)
		}
	}
	return nil
}

// RemoteWriteVersion is 1.0, the version VictoriaMetrics takes, or OTLP
// with write_path=otlp (targets.PromStore).
func (t *Target) RemoteWriteVersion() remotewrite.Version {
	if t.otlp {
		return remotewrite.OTLP
	}
	return remotewrite.V1
}

// errOTLPTimeSeries refuses OTLP to the time series workload, which
// writes its batches by import or remote write.
var errOTLPTimeSeries = badinput.Errorf("victoriametrics: target option write_path = otlp: not with WORKLOAD = timeseries: " +
	"OTLP is written by the prometheus workload (--workload prometheus); allowed here: import, remote-write")

// PromQuery sends a query form to path (targets.PromStore), with nocache=1:
// a server run without -search.disableCache would otherwise answer from
// its rollup cache.
func (t *Target) PromQuery(ctx context.Context, path, form string) ([]byte, error) {
	return t.doInto(ctx, http.MethodGet, path, form+"&nocache=1", nil, nil)
}

// Settle flushes what was written to searchable parts (targets.PromStore).
func (t *Target) Settle(ctx context.Context, _ int64) error { return t.flush(ctx) }

// ServerLabels: VictoriaMetrics adds none (targets.PromStore).
func (t *Target) ServerLabels() []string { return nil }
