package runner

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// A run may connect to several hosts (HOST lists them): client i connects
// to host i mod n, and the run's results are broken down per host. With
// HOSTS_DATA = separate each host keeps the data of its own clients, so
// the schema is made on each and verification counts on each and sums;
// with shared (a cluster, a primary and its replicas) both go through the
// first host.

// hostList is the run's hosts, each with its figures; nil for one host.
type hostList struct {
	opts  []targets.Options
	stats []*hostStats
}

// hostStats are one host's measured operations.
type hostStats struct {
	mu      sync.Mutex
	name    string
	clients int
	ok      int64
	points  int64
	written int64
	failed  int64
	notSent int64 // its clients' operations due and never sent (engine.Handle.NotSent)
	hist    *hdrhistogram.Histogram
}

func (h *hostStats) record(write bool, err error, points int64, latency time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		h.failed++
		return
	}
	h.ok++
	h.points += points
	if write {
		h.written += points
	}
	_ = h.hist.RecordValue(max(1, latency.Microseconds()))
}

// hosts is the run's host list, made on first use.
func (r *Runner) hostList() *hostList {
	if r.hosts != nil {
		return r.hosts
	}
	r.hosts = &hostList{opts: r.opts.PerHost()}
	if len(r.hosts.opts) > 1 {
		for _, o := range r.hosts.opts {
			host, port := o.HostPort(0)
			name := host
			if port != 0 {
				name = net.JoinHostPort(host, strconv.Itoa(port))
			}
			r.hosts.stats = append(r.hosts.stats, &hostStats{name: name, hist: metrics.NewHistogram()})
		}
	}
	return r.hosts
}

// separateHosts reports whether the run has several hosts that each keep
// their own data.
func (r *Runner) separateHosts() bool {
	return len(r.hostList().opts) > 1 && r.cfg.HostsData == "separate"
}

// open connects to o: to one server, or, with o.Query set, to the write
// endpoint and the query endpoint as one target.
func (r *Runner) open(ctx context.Context, o targets.Options) (targets.Target, error) {
	if o.Query == nil {
		return r.driver.Open(ctx, o)
	}
	q := *o.Query
	o.Query = nil
	w, err := r.driver.Open(ctx, o)
	if err != nil {
		return nil, err
	}
	rd, err := r.driver.Open(ctx, q)
	if err != nil {
		w.Close()
		return nil, err
	}
	return &splitTarget{w: w, q: rd}, nil
}

// openAdmin opens the connection that makes the schema and verifies:
// through the first host, or through every host when they keep separate
// data.
func (r *Runner) openAdmin(ctx context.Context) (targets.Target, error) {
	hl := r.hostList()
	if !r.separateHosts() {
		return r.open(ctx, hl.opts[0])
	}
	m := &multiTarget{}
	for _, o := range hl.opts {
		t, err := r.open(ctx, o)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.ts = append(m.ts, t)
	}
	return m, nil
}

// openClient opens client i's connection, to host i mod n, and returns the
// host's figures (nil with one host).
func (r *Runner) openClient(ctx context.Context, i int) (targets.Target, *hostStats, error) {
	hl := r.hostList()
	h := i % len(hl.opts)
	conn, err := r.open(ctx, hl.opts[h])
	if err != nil || hl.stats == nil {
		return conn, nil, err
	}
	hl.stats[h].mu.Lock()
	hl.stats[h].clients++
	hl.stats[h].mu.Unlock()
	return conn, hl.stats[h], nil
}

// hostSummaries is the per-host breakdown; nil with one host.
func (r *Runner) hostSummaries() []summary.Host {
	hl := r.hostList()
	var out []summary.Host
	for _, h := range hl.stats {
		h.mu.Lock()
		out = append(out, summary.Host{Host: h.name, Clients: h.clients, OKOperations: h.ok, OKPoints: h.points, WrittenPoints: h.written,
			FailedOperations: h.failed, P50MS: float64(h.hist.ValueAtQuantile(50)) / 1000, P99MS: float64(h.hist.ValueAtQuantile(99)) / 1000,
			NotSent: h.notSent})
		h.mu.Unlock()
	}
	return out
}

// splitTarget sends writes and the schema to one endpoint (WRITE_URL) and
// queries and counts to another (QUERY_URL).
type splitTarget struct{ w, q targets.Target }

func (s *splitTarget) Setup(ctx context.Context, sc *ts.Schema, reset bool) error {
	if err := s.w.Setup(ctx, sc, reset); err != nil {
		return err
	}
	return bind(ctx, s.q, sc) // the reading side learns what the writing side made
}

func (s *splitTarget) Bind(ctx context.Context, sc *ts.Schema) error {
	if err := bind(ctx, s.w, sc); err != nil {
		return err
	}
	return bind(ctx, s.q, sc)
}

func (s *splitTarget) Write(ctx context.Context, b *ts.Batch) error { return s.w.Write(ctx, b) }
func (s *splitTarget) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	return s.q.Query(ctx, q)
}
func (s *splitTarget) Count(ctx context.Context, rng ts.CountRange) (int64, error) {
	return s.q.Count(ctx, rng)
}
func (s *splitTarget) Close() error { return errors.Join(s.w.Close(), s.q.Close()) }

// RunStatement runs the user's own query where queries go.
func (s *splitTarget) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	return runStatement(ctx, s.q, st)
}

func (s *splitTarget) Reconnects() int64 { return reconnects(s.w) + reconnects(s.q) }

func (s *splitTarget) ServerVersion(ctx context.Context) (string, error) {
	if v, ok := s.w.(targets.Versioner); ok {
		return v.ServerVersion(ctx)
	}
	return "", targets.ErrUnsupported
}

// NameMapping is the writing connection's: both connections map alike.
func (s *splitTarget) NameMapping() map[string]string { return nameMapping(s.w) }

func (s *splitTarget) StorageBytes(ctx context.Context) (int64, error) {
	if z, ok := s.w.(targets.Sizer); ok {
		return z.StorageBytes(ctx)
	}
	return 0, targets.ErrUnsupported
}

// multiTarget is the admin connection of hosts that keep separate data:
// the schema is made on each, and the stored points are the sum of each
// host's count. Queries go to the first host: the query checks are
// skipped for such runs (no host holds every device).
type multiTarget struct {
	ts     []targets.Target
	counts []int64 // each host's count, from the last Count that succeeded
}

func (m *multiTarget) Setup(ctx context.Context, sc *ts.Schema, reset bool) error {
	for _, t := range m.ts {
		if err := t.Setup(ctx, sc, reset); err != nil {
			return err
		}
	}
	return nil
}

func (m *multiTarget) Bind(ctx context.Context, sc *ts.Schema) error {
	for _, t := range m.ts {
		if err := bind(ctx, t, sc); err != nil {
			return err
		}
	}
	return nil
}

func (m *multiTarget) Write(ctx context.Context, b *ts.Batch) error { return m.ts[0].Write(ctx, b) }

// RunStatement runs the user's own query on the first host, as Query does.
func (m *multiTarget) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	return runStatement(ctx, m.ts[0], st)
}
func (m *multiTarget) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	return m.ts[0].Query(ctx, q)
}

func (m *multiTarget) Count(ctx context.Context, rng ts.CountRange) (int64, error) {
	var sum int64
	counts := make([]int64, len(m.ts))
	for i, t := range m.ts {
		n, err := t.Count(ctx, rng)
		if err != nil {
			return 0, err
		}
		counts[i], sum = n, sum+n
	}
	m.counts = counts
	return sum, nil
}

// hostCounts puts each host's verification count into the breakdown,
// when the hosts keep separate data and were counted.
func hostCounts(admin targets.Target, hosts []summary.Host) {
	m, ok := admin.(*multiTarget)
	if !ok || len(m.counts) != len(hosts) {
		return
	}
	for i := range hosts {
		hosts[i].StoredPoints = &m.counts[i]
	}
}

func (m *multiTarget) Close() error {
	var errs []error
	for _, t := range m.ts {
		errs = append(errs, t.Close())
	}
	return errors.Join(errs...)
}

func (m *multiTarget) Reconnects() int64 {
	var n int64
	for _, t := range m.ts {
		n += reconnects(t)
	}
	return n
}

// NameMapping is the first host's: every host is set up from one schema.
func (m *multiTarget) NameMapping() map[string]string { return nameMapping(m.ts[0]) }

// nameMapping is t's NameMapping, or none.
func nameMapping(t targets.Target) map[string]string {
	if m, ok := t.(targets.NameMapper); ok {
		return m.NameMapping()
	}
	return nil
}

func (m *multiTarget) ServerVersion(ctx context.Context) (string, error) {
	if v, ok := m.ts[0].(targets.Versioner); ok {
		return v.ServerVersion(ctx)
	}
	return "", targets.ErrUnsupported
}

func (m *multiTarget) StorageBytes(ctx context.Context) (int64, error) {
	var sum int64
	for _, t := range m.ts {
		z, ok := t.(targets.Sizer)
		if !ok {
			return 0, targets.ErrUnsupported
		}
		n, err := z.StorageBytes(ctx)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

func bind(ctx context.Context, t targets.Target, sc *ts.Schema) error {
	if b, ok := t.(targets.Binder); ok {
		return b.Bind(ctx, sc)
	}
	return nil
}

func reconnects(t targets.Target) int64 {
	if rc, ok := t.(targets.Reconnector); ok {
		return rc.Reconnects()
	}
	return 0
}
