// Package prometheus is the "prometheus" target: a Prometheus 3 server
// written to as Prometheus agents write (remote write, the receiver on)
// and queried in PromQL over its HTTP API. The same code drives the other
// stores that take remote write and answer PromQL (Grafana Mimir, Thanos
// Receive with Thanos Query): each is a Flavor, registered by its own
// package through NewDriver.
//
// Mapping: a sensor is a metric name and a device the labels
// device=<name>, group=<group> and its tags, plus db=<DB_NAME> and
// gen=<generation>: every reset starts a new generation, since a store
// that deletes at all (Prometheus' admin API) only hides the deleted
// series' samples behind tombstones, which new samples at the same times
// would stay under, and Mimir and Thanos delete nothing through their
// APIs. A marker sample (tsbench_generation{db, gen} at START_TIME) makes
// the newest generation findable by the other clients (Bind). The stores
// keep float64 values only: BOOLEAN (0/1), INT32, INT64 (exact below
// 2^53), FLOAT and DOUBLE; TEXT is declared unsupported.
//
// Writes: one remote write request per batch, a series per sensor with a
// sample per row (internal/remotewrite), 1.0 by default and 2.0 with
// write_path=remote-write-v2 where the store takes it. A store applies a
// request whole or refuses it (Prometheus rolls back its append on any
// error), so an acknowledged batch is stored.
//
// Queries are PromQL (query.go): raw points from an instant query of a
// range selector, rollups for Q4 and Q8, a query_range of rollups for Q7,
// and Q3, Q5, Q6 and Q10 (value filters, which PromQL's comparison applies
// to instant vectors only) computed by tsbench from the raw points.
package prometheus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/otlpmetrics"
	"github.com/tsbench/tsbench/internal/remotewrite"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/promql"
	"github.com/tsbench/tsbench/internal/ts"
)

// Flavor is one store that takes remote write and answers PromQL: where
// it takes each, and what it can do.
type Flavor struct {
	Name        string // the target's name, e.g. "prometheus"
	Product     string // the server's name in its version, e.g. "Prometheus"
	Alias       string // the DB_SWITCH that names it, e.g. "Prometheus"
	Description string
	Server      string // how to get a server (targets.Driver.Server)
	// DefaultPort is where writes go when PORT is unset (the service
	// script's); QueryPort, when set, is where queries go on the same host
	// (target.query_port): Thanos Query beside Thanos Receive.
	DefaultPort, QueryPort int
	WritePath              string // the remote write receiver's path
	// QueryPrefix goes before the query API's paths (Mimir's /prometheus).
	QueryPrefix string
	ReadyPath   string // answers 200 once the query server is ready
	// V2 says the store takes remote write 2.0 (write_path=remote-write-v2).
	V2 bool
	// OTLPPath, when set, is where the store takes OTLP/HTTP metrics
	// (write_path=otlp, the prometheus workload's).
	OTLPPath string
	// Delete says the store deletes series through
	// /api/v1/admin/tsdb/delete_series (Prometheus with its admin API):
	// a reset deletes the database's earlier generations, best effort.
	Delete bool
	// TenantHeader, when set, carries target.tenant on every request
	// (Mimir's X-Scope-OrgID, Thanos' THANOS-TENANT).
	TenantHeader string
	// StorageMetrics are the gauges of the write server's /metrics whose
	// sum is the data's size on disk (targets.Sizer); none: not reported.
	StorageMetrics []string
	// OwnLabels are labels the store puts on every series (Thanos': the
	// tenant's and its external labels): a tag key of the same name is
	// renamed, as one of tsbench's own labels is.
	OwnLabels []string
	// HeadAtNow has Setup write the generation marker at the current time
	// too, before anything else (see marker); HeadAtEpoch at the Unix
	// epoch instead, for Thanos: Receive tells Query its data starts where
	// its in-order head does, and Query asks it nothing about older data,
	// which the out-of-order head holds (see waitStores). A head from the
	// epoch on makes Query ask it about every time; Receive compacts its
	// head one block at a time, every 2 hours, so the years between cost
	// nothing.
	HeadAtNow, HeadAtEpoch bool
	// StoresPath, when set, is where the query server lists the stores it
	// asks and the time each says its data starts (Thanos Query's
	// /api/v1/stores): Setup waits until they cover START_TIME (see
	// waitStores).
	StoresPath string
	// QueryParams are added to every query's form ("&name=value"):
	// Thanos' partial_response=false, so that a store that does not answer
	// fails the query rather than leave its data out.
	QueryParams string
}

// The write paths.
const (
	pathV1   = "remote-write"
	pathV2   = "remote-write-v2"
	pathOTLP = "otlp"
)

// writePaths are the write paths of a flavor the time series workload
// takes, the default first (Driver.WritePaths).
func writePaths(f *Flavor) []string {
	if f.V2 {
		return []string{pathV1, pathV2}
	}
	return []string{pathV1}
}

// optionPaths are the values of the write_path option: writePaths, and
// OTLP where the store takes it (the prometheus workload's).
func optionPaths(f *Flavor) []string {
	if f.OTLPPath != "" {
		return append(writePaths(f), pathOTLP)
	}
	return writePaths(f)
}

// NewDriver is the target of a flavor.
func NewDriver(f Flavor) *targets.Driver {
	paths := writePaths(&f)
	opts := []targets.Option{{Name: "write_path", Values: optionPaths(&f)}}
	if f.QueryPort != 0 {
		opts = append(opts, targets.Option{Name: "query_port", Check: targets.PortNumber})
	}
	if f.TenantHeader != "" {
		opts = append(opts, targets.Option{Name: "tenant"})
	}
	fl := f
	return &targets.Driver{
		Name:        f.Name,
		Service:     f.Name, // scripts/services/prometheus.sh, mimir.sh, thanos.sh
		Aliases:     []string{f.Alias},
		Description: f.Description,
		WritePaths:  paths,
		Server:      f.Server,
		DefaultPort: f.DefaultPort,
		Caps: targets.Capabilities{
			TLS:           true,
			Types:         []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double},
			Queries:       ts.QueryKinds,
			ClientSide:    []ts.QueryKind{ts.AggValue, ts.AggRangeValue},
			Sparse:        true, // a series per sensor: an empty cell is a sample not sent
			GroupByAcross: true, // aggregated per sensor on the server (promql.GroupByExpr)
			PromStore:     true,
		},
		Options:  opts,
		Language: language,
		Open:     func(ctx context.Context, o targets.Options) (targets.Target, error) { return open(ctx, &fl, o) },
	}
}

// Driver registers the prometheus target.
var Driver = NewDriver(Flavor{
	Name:    "prometheus",
	Product: "Prometheus",
	Alias:   "Prometheus",
	Description: "Prometheus 3: remote write 1.0 (write_path=remote-write-v2: 2.0; the prometheus workload's write_path=otlp: OTLP/HTTP metrics) to its receiver; PromQL queries " +
		"(Q5, Q6 computed from the raw points a range selector returns)",
	Server:         "scripts/services/prometheus.sh (Prometheus 3.16.0 on 127.0.0.1:9090, the remote write receiver on)",
	DefaultPort:    9090,
	WritePath:      "/api/v1/write",
	OTLPPath:       "/api/v1/otlp/v1/metrics", // --web.enable-otlp-receiver
	ReadyPath:      "/-/ready",
	V2:             true,
	Delete:         true,
	HeadAtNow:      true,
	StorageMetrics: []string{"prometheus_tsdb_storage_blocks_bytes", "prometheus_tsdb_wal_storage_size_bytes", "prometheus_tsdb_head_chunks_storage_size_bytes"},
})

func init() { targets.Register(Driver) }

// language is how the user's own queries meet the store: PromQL.
var language = promql.NewLanguage(promql.EnginePrometheus)

// Target is one client's connection: a Poster for the writes, an HTTP
// client for the queries.
type Target struct {
	f      *Flavor
	db     string
	query  string // the query API's base: scheme://host:port plus the prefix
	root   string // the write server's root (/metrics)
	header http.Header

	httpclient.Clients // the queries' client, the writes' Poster: Close and Reconnects

	// fallbacks counts the Q7s answered from raw points instead of the
	// server's rollups, by reason (targets.FallbackCounter).
	fallbacks targets.Fallbacks

	mu      sync.Mutex
	binding targets.Binding
	version remotewrite.Version
	gen     string
	tagKeys *targets.NameMap
	encoder *remotewrite.Encoder
}

func open(ctx context.Context, f *Flavor, o targets.Options) (targets.Target, error) {
	e, err := httpclient.NewEndpoint(o, f.DefaultPort)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	e.Authorization = httpclient.TokenAuth(o, "Bearer")
	t := &Target{f: f, db: o.DatabaseOr("test"), root: e.Root, binding: targets.NewBinding(f.Name),
		version: remotewrite.V1, header: http.Header{}}
	writePath := f.WritePath
	switch w := o.Extra["write_path"]; {
	case w == "" || w == pathV1:
	case w == pathV2 && f.V2:
		t.version = remotewrite.V2
	case w == pathOTLP && f.OTLPPath != "":
		t.version, writePath = remotewrite.OTLP, f.OTLPPath
	default:
		return nil, badinput.Errorf("%s: target option write_path = %q: allowed: %s", f.Name, o.Extra["write_path"],
			strings.Join(optionPaths(f), ", "))
	}
	q := e
	if f.QueryPort != 0 {
		port := f.QueryPort
		if p := o.Extra["query_port"]; p != "" {
			if port, err = strconv.Atoi(p); err != nil {
				return nil, badinput.Errorf("%s: target option query_port = %q: not a port", f.Name, p)
			}
		}
		q = e.Port(port)
	}
	t.query = q.Base + f.QueryPrefix
	hdr := t.version.Header()
	if tenant := o.Extra["tenant"]; tenant != "" && f.TenantHeader != "" {
		t.header.Set(f.TenantHeader, tenant)
		hdr = append(hdr, f.TenantHeader, tenant)
	}
	t.Clients.Client = q.Client()
	if _, err := t.get(ctx, q.Root+f.ReadyPath, nil); err != nil {
		return nil, err
	}
	if e.Authorization != "" {
		// A readiness path may answer without authentication: a wrong
		// password must show at the start, not at the first write.
		if _, err := t.get(ctx, t.query+"/api/v1/query", url.Values{"query": {"1"}}); err != nil {
			return nil, err
		}
	}
	if t.Poster, err = e.Poster(writePath, hdr...); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return t, nil
}

// get sends a GET to url with the query q, and returns the answer.
func (t *Target) get(ctx context.Context, rawURL string, q url.Values) ([]byte, error) {
	if q != nil {
		rawURL += "?" + q.Encode()
	}
	return t.do(ctx, http.MethodGet, rawURL, nil, nil, nil)
}

// do sends a request, with the tenant's header and header, and reads the
// answer into into (a fresh buffer when nil): its bytes, which live until
// into is next used. A status other than 2xx is an error naming the
// request and quoting the answer.
func (t *Target) do(ctx context.Context, method, rawURL string, body io.Reader, into *bytes.Buffer, header http.Header) ([]byte, error) {
	h := t.header
	if len(header) > 0 {
		h = t.header.Clone()
		for k, v := range header {
			h[k] = v
		}
	}
	data, _, err := httpclient.Exchange(ctx, t.Client, method, rawURL, body, h, into)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.f.Name, err)
	}
	return data, nil
}

// ownLabels are the labels tsbench puts on every series (and on Q7's
// answers): a device's tag of the same key would overwrite one, so such a
// key is renamed (tagRule, compared without regard to case).
var ownLabels = []string{remotewrite.MetricName, "db", "gen", "device", "group", promql.SensorLabel, promql.PartLabel}

// tagRule renames a tag key that is one of ownLabels, or the flavor's, to
// "<key>_<hash>".
func (t *Target) tagRule() targets.NameRule {
	return targets.NameRule{Target: t.f.Name, What: "tag key", Reserved: append(slices.Clone(ownLabels), t.f.OwnLabels...)}
}

// checkNames refuses, as bad input before anything is written, a name the
// stores cannot carry: they take UTF-8 names and label values only (and
// Prometheus drops a series with another in silence, answering success).
func (t *Target) checkNames(s *ts.Schema) error {
	return s.EachName(func(kind, name string) error {
		if !utf8.ValidString(name) {
			return badinput.Errorf("%s: %s %q is not UTF-8: %s takes UTF-8 names and label values only", t.f.Name, kind, name, t.f.Product)
		}
		return nil
	})
}

// Setup starts a new generation with reset (deleting the database's
// earlier series where the store can), or joins the newest one.
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	if t.version == remotewrite.OTLP {
		return badinput.Errorf("%s: target option write_path = otlp: not with WORKLOAD = timeseries: OTLP is written by "+
			"the prometheus workload (--workload prometheus); allowed here: %s", t.f.Name, strings.Join(writePaths(t.f), ", "))
	}
	for _, sn := range s.Sensors {
		if sn.Type == ts.Text {
			return fmt.Errorf("%s: sensor %s of type %s: %w (it stores float64 values only)", t.f.Name, sn.Name, sn.Type, targets.ErrUnsupported)
		}
	}
	if err := t.checkNames(s); err != nil {
		return err
	}
	if _, err := t.tagRule().Map(s.TagKeys()); err != nil {
		return err // before the reset: a schema refused leaves the data as it was
	}
	if !reset {
		return t.Bind(ctx, s)
	}
	if t.f.Delete {
		// Best effort, and briefly (a delete waits for a compaction in
		// progress): the new generation hides the old ones from every
		// answer anyway; a store without its admin API keeps them.
		dctx, cancel := context.WithTimeout(ctx, deleteTimeout)
		q := url.Values{"match[]": {`{db=` + promql.Quote(t.db) + `}`}}
		t.do(dctx, http.MethodPost, t.query+"/api/v1/admin/tsdb/delete_series?"+q.Encode(), nil, nil, nil) //nolint:errcheck
		cancel()
	}
	now := time.Now()
	t.mu.Lock()
	err := t.bindLocked(s, strconv.FormatInt(now.UnixNano(), 10))
	gen := t.gen
	t.mu.Unlock()
	if err != nil {
		return err
	}
	// The marker at the current time first, then at START_TIME: see
	// marker.
	times := []int64{s.StartTime}
	switch {
	case t.f.HeadAtNow:
		times = []int64{now.UnixMilli(), s.StartTime}
	case t.f.HeadAtEpoch:
		times = []int64{0, s.StartTime}
	}
	for _, at := range times {
		if err := t.Poster.Post(ctx, t.marker(gen, at)); err != nil {
			return fmt.Errorf("%s: write the generation marker: %w", t.f.Name, err)
		}
	}
	if t.f.StoresPath != "" {
		return t.waitStores(ctx, s.StartTime)
	}
	return nil
}

// storesWait bounds waitStores: Thanos Query refreshes what it knows of
// its stores every 10 s or so.
const storesWait = 45 * time.Second

// waitStores waits until every store the query server lists says its
// data starts at start or before. Thanos Query asks a store only about
// the times it said it holds, and learns them anew every few seconds: on
// a fresh Receive it holds nothing until the first refresh after the
// marker was written (queries and counts made meanwhile find nothing).
// Receive says its data starts where its in-order head does (the epoch,
// HeadAtEpoch, on a Receive tsbench wrote to first), so on a Receive
// written to before, what lies before that, in its out-of-order head, is
// asked of no store until Receive compacts it into a block (every 2
// hours): such a START_TIME is refused rather than run with answers that
// miss data.
func (t *Target) waitStores(ctx context.Context, start int64) error {
	deadline := time.Now().Add(storesWait)
	for {
		data, err := t.get(ctx, t.query+t.f.StoresPath, nil)
		if err != nil {
			return err
		}
		from, err := storesStart(data)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", t.f.Name, t.f.StoresPath, err)
		}
		if from <= start {
			return nil
		}
		if time.Now().After(deadline) {
			return badinput.Errorf("%s: START_TIME %s lies before the data its store says it holds (from %s): Thanos Receive keeps "+
				"older samples in its out-of-order head, which Thanos Query does not ask until Receive compacts it into a block "+
				"(every 2 hours); start a fresh Receive, or write from a START_TIME after %s",
				t.f.Name, time.UnixMilli(start).UTC().Format(time.RFC3339), time.UnixMilli(from).UTC().Format(time.RFC3339),
				time.UnixMilli(from).UTC().Format(time.RFC3339))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// deleteTimeout bounds a reset's delete of the earlier generations.
const deleteTimeout = 10 * time.Second

// marker is the request of the generation marker's sample at time at
// (ms): tsbench_generation{db, gen} 1. Setup writes one at START_TIME,
// where Bind finds it, and (HeadAtNow) first one at the current time, so
// that a fresh store's in-order head starts there, as a live server's
// does: the head
// (Prometheus' TSDB, which Mimir's ingesters and Thanos Receive run too)
// starts at its first sample, and when that lies years back (tsbench's
// START_TIME is 2022 by default) a later sample at the current time makes
// the store compact the years between one empty two-hour block at a time
// (17,500 blocks from 2022 to 2026: minutes of CPU, deletes blocked
// meanwhile). Data older than the head then goes to the out-of-order head,
// which the stores' scripts open wide (100 years).
func (t *Target) marker(gen string, at int64) []byte {
	e := remotewrite.NewEncoder(t.version, []ts.Sensor{{Name: markerName, Type: ts.Double}},
		[][]remotewrite.Label{{{Name: "db", Value: t.db}, {Name: "gen", Value: gen}}})
	return e.Encode(0, &ts.Batch{Times: []int64{at}, Columns: []ts.Column{{Type: ts.Double, Doubles: []float64{1}}}})
}

// markerName is the generation marker's metric.
const markerName = promql.GenerationMarker

// Bind joins the newest generation of the database: the marker series'
// samples lie at the schema's START_TIME, read by an instant query there.
func (t *Target) Bind(ctx context.Context, s *ts.Schema) error {
	gens, err := t.generations(ctx, s.StartTime)
	if err != nil {
		return err
	}
	if len(gens) == 0 && t.f.StoresPath != "" {
		if gens, err = t.awaitGenerations(ctx, s.StartTime); err != nil {
			return err
		}
	}
	gen := "0" // no generation yet: queries find nothing, as on an empty database
	for _, g := range gens {
		// Generation names are nanosecond clock readings of equal
		// length: their string order is their age order.
		if g > gen {
			gen = g
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bindLocked(s, gen)
}

// awaitGenerations asks for the generations until a marker shows, for
// storesWait at most. A connection's query server may not be Setup's (a
// ring's nodes each run a Thanos Query), and it answers without the
// stores it has not yet learnt hold START_TIME: a client that bound then
// to no generation would write series that the run's counts and answers
// never read. Its stores are not all waited for (waitStores): a replica
// that the marker's write reached last, or not at all once a quorum had
// it, may hold nothing until the clients write.
func (t *Target) awaitGenerations(ctx context.Context, start int64) ([]string, error) {
	deadline := time.Now().Add(storesWait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
		gens, err := t.generations(ctx, start)
		if err != nil || len(gens) > 0 {
			return gens, err
		}
	}
	return nil, nil
}

// generations lists the generations whose marker lies at start.
func (t *Target) generations(ctx context.Context, start int64) ([]string, error) {
	expr := "last_over_time(" + markerName + "{db=" + promql.Quote(t.db) + "}[1ms])"
	data, err := t.get(ctx, t.query+"/api/v1/query", url.Values{"query": {expr}, "time": {promql.Seconds(start)}})
	if err != nil {
		return nil, err
	}
	vec, err := promql.DecodeVector(data, expr, "gen")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.f.Name, err)
	}
	var gens []string
	for _, v := range vec {
		gens = append(gens, v.Labels[0])
	}
	return gens, nil
}

func (t *Target) bindLocked(s *ts.Schema, gen string) error {
	keys, err := t.tagRule().Map(s.TagKeys())
	if err != nil {
		return err
	}
	t.binding.Set(s)
	t.gen, t.tagKeys = gen, keys
	devices := make([][]remotewrite.Label, len(s.Devices))
	for i := range s.Devices {
		d := &s.Devices[i]
		ls := []remotewrite.Label{{Name: "db", Value: t.db}, {Name: "gen", Value: gen}, {Name: "device", Value: d.Name},
			{Name: "group", Value: targets.GroupName(s, d.Group, "")}}
		for _, tg := range d.Tags {
			ls = append(ls, remotewrite.Label{Name: keys.Server(tg.Key), Value: tg.Value})
		}
		devices[i] = ls
	}
	t.encoder = remotewrite.NewEncoder(t.version, s.Sensors, devices)
	return nil
}

// NameMapping implements targets.NameMapper: the tag keys renamed because
// they are labels of tsbench's own (tagRule).
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return targets.Mapping(map[string]*targets.NameMap{"tag key": t.tagKeys})
}

// Write sends a batch as one remote write request.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	_, pos, err := t.binding.LockDevice(&t.mu, b.Device)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if err := t.Poster.Post(ctx, t.encoder.Encode(pos, b)); err != nil {
		return fmt.Errorf("%s: write batch of %s: %w", t.f.Name, b.Device.Name, err)
	}
	return nil
}

// ServerVersion implements targets.Versioner from the query API's build
// information.
func (t *Target) ServerVersion(ctx context.Context) (string, error) {
	data, err := t.get(ctx, t.query+"/api/v1/status/buildinfo", nil)
	if err != nil {
		return "", err
	}
	v, err := buildVersion(data)
	if err != nil {
		return "", fmt.Errorf("%s: build information: %w", t.f.Name, err)
	}
	if v == "" {
		return t.f.Product + " (the server reports no version)", nil
	}
	return t.f.Product + " " + v, nil
}

// StorageBytes implements targets.Sizer: the sum of the flavor's storage
// gauges on the write server's /metrics. It covers the whole server, not
// only this database.
func (t *Target) StorageBytes(ctx context.Context) (int64, error) {
	if len(t.f.StorageMetrics) == 0 {
		return 0, errors.New(t.f.Name + ": the storage size is not reported")
	}
	data, err := t.get(ctx, t.root+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	return sumMetrics(data, t.f.StorageMetrics), nil
}

// Fallbacks counts the Q7s answered from raw points instead of the
// server's rollups, by reason (targets.FallbackCounter).
func (t *Target) Fallbacks() map[string]int64 { return t.fallbacks.Fallbacks() }

// headMarker is the series Begin writes at the epoch.
const headMarker = "tsbench_head_start"

// Begin writes, on a flavor whose head must start at the epoch (Thanos
// Receive, HeadAtEpoch), a sample there before anything else: a fresh
// Receive's head would otherwise start at the workload's first scrape,
// and Thanos Query would ask it nothing about the times before, which a
// later run's older samples (the time series run's START_TIME of 2022)
// lie in (targets.PromStore).
func (t *Target) Begin(ctx context.Context) error {
	if !t.f.HeadAtEpoch {
		return nil
	}
	labels := remotewrite.AppendLabel(nil, remotewrite.MetricName, headMarker)
	body := remotewrite.Compress(nil, remotewrite.AppendSeries(nil, labels, []int64{0}, []float64{1}))
	var err error
	if t.version == remotewrite.OTLP {
		// The run writes OTLP to another path: the marker goes by remote
		// write 1.0 to the store's receiver.
		hdr := http.Header{}
		h := remotewrite.V1.Header()
		for i := 0; i+1 < len(h); i += 2 {
			hdr.Set(h[i], h[i+1])
		}
		_, err = t.do(ctx, http.MethodPost, t.root+t.f.WritePath, bytes.NewReader(body), nil, hdr)
	} else {
		err = t.RemoteWrite(ctx, body, 1) // a flavor of 1.0 only
	}
	if err != nil {
		return fmt.Errorf("%s: write the head's start at the epoch: %w", t.f.Name, err)
	}
	return nil
}

// RemoteWrite posts a remote write request of the target's version
// (targets.PromStore).
func (t *Target) RemoteWrite(ctx context.Context, body []byte, samples int64) error {
	a, err := t.Poster.PostAnswered(ctx, body)
	if err != nil {
		return fmt.Errorf("%s: remote write: %w", t.f.Name, err)
	}
	// A 2.0 receiver must say how many samples it wrote: a request it
	// took in part, or an answer without the count (a receiver that took
	// the request as 1.0), is not a write of every sample. An OTLP
	// receiver says so in its answer's partial success.
	switch {
	case t.version == remotewrite.V2 && a.Written < 0:
		return fmt.Errorf("%s: remote write 2.0: the answer does not say how many samples were written (%s, %s)",
			t.f.Name, httpclient.SamplesWrittenHeader, httpclient.HistogramsWrittenHeader)
	case t.version == remotewrite.V2 && a.Written != samples:
		return fmt.Errorf("%s: remote write 2.0: %d of the request's %d samples written", t.f.Name, a.Written, samples)
	case t.version == remotewrite.OTLP:
		if err := otlpmetrics.CheckAnswer(a.Body); err != nil {
			return fmt.Errorf("%s: OTLP: %w", t.f.Name, err)
		}
	}
	return nil
}

// RemoteWriteVersion is the version the target was opened to write
// (write_path; targets.PromStore).
func (t *Target) RemoteWriteVersion() remotewrite.Version { return t.version }

// PromQuery posts a query form to path below the query API's base
// (targets.PromStore).
func (t *Target) PromQuery(ctx context.Context, path, form string) ([]byte, error) {
	return t.post(ctx, path, form, nil)
}

// Settle waits, on a store whose query server learns what its stores hold
// (Thanos Query), until they say they hold from on; elsewhere an
// acknowledged remote write is in the head, which queries read
// (targets.PromStore).
func (t *Target) Settle(ctx context.Context, from int64) error {
	if t.f.StoresPath == "" {
		return nil
	}
	return t.waitStores(ctx, from)
}

// ServerLabels are the labels the flavor puts on every series
// (targets.PromStore).
func (t *Target) ServerLabels() []string { return t.f.OwnLabels }
