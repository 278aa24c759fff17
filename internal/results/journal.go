package results

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// A run is stored while it runs, so that a run killed outright still leaves
// what it measured: Begin stores it as "running", AppendInterval and
// AppendResources add its per-second series as they come, and Save replaces
// it all with the finished run. Get rebuilds a running run's series from the
// tables, which SQL users can also chart while the run goes on.

// Begin stores a run that has just started: a tsbench_runs row with status
// "running" and summary_json holding s as it is now (id, target, scenario,
// started, config, environment). Begin on an id already stored replaces it.
// Series s already holds are stored as if appended.
func (st *Store) Begin(ctx context.Context, s *summary.Summary) error {
	return st.write(ctx, s, StatusRunning)
}

// AppendInterval stores one more second of the run's per-second series;
// seq is the interval's index in Summary.Intervals (0, 1, 2, ...). Storing
// a seq again replaces it.
func (st *Store) AppendInterval(ctx context.Context, runID string, seq int, iv summary.Interval) error {
	rows := intervalRows(runID, seq, []summary.Interval{iv})
	return st.appendRows(ctx, fmt.Sprintf("append interval %d of run %s", seq, runID), runID,
		tableRows{"tsbench_intervals", intervalColumns, rows}, "seq = ?", seq)
}

// AppendResources stores one more resource sample (source "local") with
// index seq. Storing a seq again replaces it.
func (st *Store) AppendResources(ctx context.Context, runID string, seq int, smp summary.ResourceSample) error {
	rows := resourceRows(runID, "local", seq, []summary.ResourceSample{smp})
	return st.appendRows(ctx, fmt.Sprintf("append resource sample %d of run %s", seq, runID), runID,
		tableRows{"tsbench_resources", resourceColumns, rows}, "source = 'local' AND seq = ?", seq)
}

// appendRows replaces one item of a running run's series (the rows that
// match where) with t's rows, in one transaction so that an interval is
// stored whole or not at all. It refuses a run that is not running: a late
// append must not reach a finished run.
func (st *Store) appendRows(ctx context.Context, what, runID string, t tableRows, where string, seq int) error {
	if seq < 0 {
		return fmt.Errorf("results store %s: %s: negative index", st.loc, what)
	}
	return st.inTx(ctx, what, func(tx *sql.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, st.d.rebind("SELECT status FROM tsbench_runs WHERE run_id = ?"), runID).Scan(&status)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("run %s was not begun", runID)
		case err != nil:
			return err
		case status != StatusRunning:
			return fmt.Errorf("run %s is no longer running (status %s)", runID, status)
		}
		if _, err := tx.ExecContext(ctx, st.d.rebind("DELETE FROM "+t.name+" WHERE run_id = ? AND "+where), runID, seq); err != nil {
			return err
		}
		return st.insert(ctx, tx, t.name, t.cols, t.rows)
	})
}

// rebuild fills a running run's series from the rows appended so far (its
// summary_json is still the one Begin stored) and marks it incomplete.
func (st *Store) rebuild(ctx context.Context, s *summary.Summary) error {
	ivs, err := st.readIntervals(ctx, s.RunID)
	if err != nil {
		return st.loc.scrubErr("read intervals of run "+s.RunID, err)
	}
	samples, err := st.readSamples(ctx, s.RunID, "local")
	if err != nil {
		return st.loc.scrubErr("read resource samples of run "+s.RunID, err)
	}
	s.Intervals = ivs
	if s.Resources == nil {
		s.Resources = &summary.Resources{}
	}
	if s.Resources.IntervalSeconds == 0 {
		s.Resources.IntervalSeconds = 1 // the sampler's period
	}
	s.Resources.Samples = samples
	s.StopReason = "incomplete"
	return nil
}

func (st *Store) readIntervals(ctx context.Context, id string) ([]summary.Interval, error) {
	rows, err := st.db.QueryContext(ctx, st.d.rebind(`SELECT seq, operation, t_s, duration_s, ok_operations, ok_points,
		fail_operations, p50_ms, p99_ms, max_ms, hdr_histogram FROM tsbench_intervals WHERE run_id = ? ORDER BY seq, op_seq`), id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []summary.Interval
	last := -1
	for rows.Next() {
		var seq int
		var iv summary.Interval
		var o summary.IntervalOp
		var p50, p99, maxMS sql.NullFloat64
		var hist sql.NullString
		if err := rows.Scan(&seq, &o.Name, &iv.Start, &iv.Seconds, &o.OKOps, &o.OKPoints, &o.FailOps, &p50, &p99, &maxMS, &hist); err != nil {
			return nil, err
		}
		if seq != last {
			out = append(out, iv)
			last = seq
		}
		if o.Name == "" { // an interval in which nothing completed
			continue
		}
		o.P50MS, o.P99MS, o.MaxMS, o.Histogram = p50.Float64, p99.Float64, maxMS.Float64, hist.String
		cur := &out[len(out)-1]
		cur.Ops = append(cur.Ops, o)
	}
	return out, rows.Err()
}

// sampleCols are the columns a resource sample is read back from; scan
// fills a sampleRow in the same order.
const sampleCols = `t_s, time_ms, time_utc, hostname,
	tool_pid, tool_processes, tool_cpu_percent, tool_rss_bytes, tool_read_bytes_per_s, tool_write_bytes_per_s,
	server_pid, server_processes, server_cpu_percent, server_rss_bytes, server_read_bytes_per_s, server_write_bytes_per_s,
	host_cpu_percent, host_cores, host_mem_used_bytes, host_mem_total_bytes, host_disk_read_bytes_per_s,
	host_disk_write_bytes_per_s, host_net_recv_bytes_per_s, host_net_sent_bytes_per_s`

// processCols are a process's columns; NULL CPU means the sample had none.
type processCols struct {
	pid, procs, rss        sql.NullInt64
	cpu, readBPS, writeBPS sql.NullFloat64
}

type sampleRow struct {
	t                                 float64
	timeMS                            int64
	timeUTC, host                     sql.NullString
	tool, server                      processCols
	hostCPU, diskR, diskW, netR, netS sql.NullFloat64
	cores, memUsed, memTotal          sql.NullInt64
}

func (r *sampleRow) scan(rows *sql.Rows) error {
	return rows.Scan(&r.t, &r.timeMS, &r.timeUTC, &r.host,
		&r.tool.pid, &r.tool.procs, &r.tool.cpu, &r.tool.rss, &r.tool.readBPS, &r.tool.writeBPS,
		&r.server.pid, &r.server.procs, &r.server.cpu, &r.server.rss, &r.server.readBPS, &r.server.writeBPS,
		&r.hostCPU, &r.cores, &r.memUsed, &r.memTotal, &r.diskR, &r.diskW, &r.netR, &r.netS)
}

func (p processCols) usage() *summary.ProcessUsage {
	if !p.cpu.Valid {
		return nil
	}
	return &summary.ProcessUsage{PID: int32(p.pid.Int64), Processes: int(p.procs.Int64), CPUPercent: p.cpu.Float64,
		RSSBytes: uint64(p.rss.Int64), ReadBytesPerS: p.readBPS.Float64, WriteBytesPerS: p.writeBPS.Float64}
}

func (r *sampleRow) sample() summary.ResourceSample {
	// time_utc holds the nanoseconds; a row written without it has time_ms.
	at, err := time.Parse(time.RFC3339Nano, r.timeUTC.String)
	if err != nil {
		at = time.UnixMilli(r.timeMS).UTC()
	}
	s := summary.ResourceSample{Time: at, T: r.t, Hostname: r.host.String, Tool: r.tool.usage(), Server: r.server.usage()}
	if r.hostCPU.Valid {
		s.Host = &summary.HostUsage{CPUPercent: r.hostCPU.Float64, Cores: int(r.cores.Int64), MemUsedBytes: uint64(r.memUsed.Int64),
			MemTotalBytes: uint64(r.memTotal.Int64), DiskReadBytesPerS: r.diskR.Float64, DiskWriteBytesPerS: r.diskW.Float64,
			NetRecvBytesPerS: r.netR.Float64, NetSentBytesPerS: r.netS.Float64}
	}
	return s
}

func (st *Store) readSamples(ctx context.Context, id, source string) ([]summary.ResourceSample, error) {
	return st.querySamples(ctx, "run_id = ? AND source = ? ORDER BY seq", id, source)
}

// readResources fills a finished run's resource samples, this host's and
// those merged from a database host, from their table. (Runs stored before
// samples left summary_json have them there too; the table wins.)
func (st *Store) readResources(ctx context.Context, s *summary.Summary) error {
	if s.Resources == nil {
		return nil
	}
	for _, src := range []struct {
		name string
		dst  *[]summary.ResourceSample
	}{{"local", &s.Resources.Samples}, {"remote", &s.Resources.Remote}} {
		got, err := st.readSamples(ctx, s.RunID, src.name)
		if err != nil {
			return st.loc.scrubErr("read resource samples of run "+s.RunID, err)
		}
		if len(got) > 0 {
			*src.dst = got
		}
	}
	return nil
}

// querySamples reads the resource samples that match where.
func (st *Store) querySamples(ctx context.Context, where string, args ...any) ([]summary.ResourceSample, error) {
	return queryRows(ctx, st, "SELECT "+sampleCols+" FROM tsbench_resources WHERE "+where, args, func(rows *sql.Rows) (summary.ResourceSample, error) {
		var r sampleRow
		if err := r.scan(rows); err != nil {
			return summary.ResourceSample{}, err
		}
		return r.sample(), nil
	})
}

// Journal sizes: the queue holds a few minutes of a run's items (one
// interval and one sample a second), and a call that takes longer than
// journalCallTimeout counts as failed.
const (
	journalQueue       = 512
	journalCallTimeout = 10 * time.Second
)

// Journal writes a run to a store from its own goroutine. Its methods never
// block the caller: when the queue (a few hundred items) is full, the item
// is dropped and counted — the final Save writes everything anyway. After
// the first error it stops writing and keeps the error. A nil *Journal
// does nothing.
type Journal struct {
	st          *Store
	runID       string
	callTimeout time.Duration

	mu     sync.Mutex // orders sends on queue before its close
	closed bool
	queue  chan journalItem

	dropped atomic.Int64
	ctx     context.Context // canceled when Close gives up waiting
	cancel  context.CancelFunc
	done    chan struct{} // closed when the goroutine has ended
	err     error         // the first error; the goroutine's until done
}

// journalItem is an interval (iv set) or a resource sample.
type journalItem struct {
	seq int
	iv  *summary.Interval
	smp *summary.ResourceSample
}

// NewJournal starts journaling the run s, which it copies as it is now;
// its goroutine calls Begin first.
func NewJournal(st *Store, s *summary.Summary) *Journal {
	return newJournal(st, s, journalCallTimeout)
}

func newJournal(st *Store, s *summary.Summary, callTimeout time.Duration) *Journal {
	ctx, cancel := context.WithCancel(context.Background())
	j := &Journal{st: st, runID: s.RunID, callTimeout: callTimeout, queue: make(chan journalItem, journalQueue),
		ctx: ctx, cancel: cancel, done: make(chan struct{})}
	run, err := copySummary(s)
	if err != nil {
		err = fmt.Errorf("results store %s: journal of run %s: %w", st.loc, s.RunID, err)
	}
	go j.run(run, err)
	return j
}

// copySummary is a deep copy, so that the caller may go on filling s
// while Begin encodes the copy.
func copySummary(s *summary.Summary) (*summary.Summary, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var c summary.Summary
	return &c, json.Unmarshal(b, &c)
}

// Interval queues interval seq of the run. iv must not change afterwards.
func (j *Journal) Interval(seq int, iv summary.Interval) {
	j.enqueue(journalItem{seq: seq, iv: &iv})
}

// Resources queues resource sample seq. smp must not change afterwards.
func (j *Journal) Resources(seq int, smp summary.ResourceSample) {
	j.enqueue(journalItem{seq: seq, smp: &smp})
}

// Dropped is how many items were not queued: the queue was full, or the
// journal closed.
func (j *Journal) Dropped() int64 {
	if j == nil {
		return 0
	}
	return j.dropped.Load()
}

func (j *Journal) enqueue(it journalItem) {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		j.dropped.Add(1)
		return
	}
	select {
	case j.queue <- it:
	default:
		j.dropped.Add(1)
	}
}

// run is the journal's goroutine: Begin, then the queue until Close closes
// it. After an error it only drains, so that Close returns at once.
func (j *Journal) run(s *summary.Summary, err error) {
	defer close(j.done)
	if err == nil {
		err = j.call(func(ctx context.Context) error { return j.st.Begin(ctx, s) })
	}
	j.fail(err)
	for it := range j.queue {
		if j.err != nil || j.ctx.Err() != nil {
			continue
		}
		j.fail(j.call(func(ctx context.Context) error { return j.write(ctx, it) }))
	}
}

// fail keeps err unless Close canceled the call that returned it: Close
// then reports its own deadline instead.
func (j *Journal) fail(err error) {
	if err != nil && j.ctx.Err() == nil {
		j.err = err
	}
}

func (j *Journal) call(f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(j.ctx, j.callTimeout)
	defer cancel()
	return f(ctx)
}

func (j *Journal) write(ctx context.Context, it journalItem) error {
	if it.iv != nil {
		return j.st.AppendInterval(ctx, j.runID, it.seq, *it.iv)
	}
	return j.st.AppendResources(ctx, j.runID, it.seq, *it.smp)
}

// Close drains the queue (bounded by ctx), stops the goroutine and returns
// the first error (nil if none). When ctx ends first, the call under way is
// canceled and the rest dropped; Close returns once the goroutine has
// ended, so nothing is written after it — a Save that follows is final.
func (j *Journal) Close(ctx context.Context) error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	if !j.closed {
		j.closed = true
		close(j.queue)
	}
	j.mu.Unlock()
	select {
	case <-j.done:
		j.cancel()
		return j.err
	case <-ctx.Done():
	}
	left := len(j.queue)
	j.cancel()
	<-j.done
	if j.err != nil {
		return j.err
	}
	return fmt.Errorf("results store %s: journal of run %s: %d items left unwritten: %w", j.st.loc, j.runID, left, ctx.Err())
}
