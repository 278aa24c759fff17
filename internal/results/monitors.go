package results

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// A monitor session is what 'tsbench monitor --store' records on a database
// host: one row in tsbench_monitors and its samples in tsbench_resources
// under the session's id with source "monitor". It belongs to no run: the
// clocks of the two hosts tie it to the runs, so a report merges whatever
// samples fall within a run's measured phase, whichever session took them.

// SourceMonitor marks the resource rows of monitor sessions.
const SourceMonitor = "monitor"

// MonitorSession describes one 'tsbench monitor' session.
type MonitorSession struct {
	ID       string    `json:"id"`
	Hostname string    `json:"hostname"`
	Started  time.Time `json:"started"`
	// Ended is zero while the session runs (or when it was killed).
	Ended      time.Time `json:"ended,omitzero"`
	ServerPID  int32     `json:"server_pid,omitempty"`
	ServerName string    `json:"server_name,omitempty"`
	IntervalS  float64   `json:"interval_s"`
	Samples    int64     `json:"samples"`
}

var monitorColumns = []string{"monitor_id", "hostname", "started_ms", "ended_ms", "server_pid", "server_name", "interval_s"}

// BeginMonitor records a session that starts now. Beginning an id again
// fails: a session's samples are never mixed with another's.
func (st *Store) BeginMonitor(ctx context.Context, m MonitorSession) error {
	if m.ID == "" {
		return fmt.Errorf("results store %s: begin monitor session: no id", st.loc)
	}
	row := []any{m.ID, nullIfEmpty(m.Hostname), m.Started.UTC().UnixMilli(), nil, nullIfZero(m.ServerPID),
		nullIfEmpty(m.ServerName), m.IntervalS}
	return st.inTx(ctx, "begin monitor session "+m.ID, func(tx *sql.Tx) error {
		return st.insert(ctx, tx, "tsbench_monitors", monitorColumns, [][]any{row})
	})
}

// AppendMonitorSample stores sample seq of a session.
func (st *Store) AppendMonitorSample(ctx context.Context, id string, seq int, smp summary.ResourceSample) error {
	what := fmt.Sprintf("store sample %d of monitor session %s", seq, id)
	return st.inTx(ctx, what, func(tx *sql.Tx) error {
		return st.insert(ctx, tx, "tsbench_resources", resourceColumns, resourceRows(id, SourceMonitor, seq, []summary.ResourceSample{smp}))
	})
}

// EndMonitor marks a session ended at end.
func (st *Store) EndMonitor(ctx context.Context, id string, end time.Time) error {
	_, err := st.db.ExecContext(ctx, st.d.rebind("UPDATE tsbench_monitors SET ended_ms = ? WHERE monitor_id = ?"), end.UTC().UnixMilli(), id)
	return st.loc.scrubErr("end monitor session "+id, err)
}

// Monitors lists the sessions, newest first, with their sample counts.
func (st *Store) Monitors(ctx context.Context) ([]MonitorSession, error) {
	out, err := queryRows(ctx, st, `SELECT m.monitor_id, m.hostname, m.started_ms, m.ended_ms, m.server_pid,
		m.server_name, m.interval_s, (SELECT COUNT(*) FROM tsbench_resources r WHERE r.run_id = m.monitor_id AND r.source = ?)
		FROM tsbench_monitors m ORDER BY m.started_ms DESC, m.monitor_id`, []any{SourceMonitor}, func(rows *sql.Rows) (MonitorSession, error) {
		var m MonitorSession
		var host, server sql.NullString
		var started int64
		var ended, pid sql.NullInt64
		err := rows.Scan(&m.ID, &host, &started, &ended, &pid, &server, &m.IntervalS, &m.Samples)
		m.Hostname, m.ServerName, m.ServerPID = host.String, server.String, int32(pid.Int64)
		m.Started = time.UnixMilli(started).UTC()
		if ended.Valid {
			m.Ended = time.UnixMilli(ended.Int64).UTC()
		}
		return m, err
	})
	return out, st.loc.scrubErr("list monitor sessions", err)
}

// MonitorSamples returns the samples of every session taken from from to
// to (inclusive), in time order.
func (st *Store) MonitorSamples(ctx context.Context, from, to time.Time) ([]summary.ResourceSample, error) {
	lo, hi := from.UTC().UnixMilli(), to.UTC().UnixMilli()
	// The sessions first, then each one's samples by its key: the
	// resources table has no index on time.
	ids, err := queryRows(ctx, st, `SELECT monitor_id FROM tsbench_monitors
		WHERE started_ms <= ? AND (ended_ms IS NULL OR ended_ms >= ?)`, []any{hi, lo}, func(rows *sql.Rows) (string, error) {
		var id string
		err := rows.Scan(&id)
		return id, err
	})
	if err != nil {
		return nil, st.loc.scrubErr("find monitor sessions", err)
	}
	var out []summary.ResourceSample
	for _, id := range ids {
		got, err := st.querySamples(ctx, "run_id = ? AND source = ? AND time_ms BETWEEN ? AND ?", id, SourceMonitor, lo, hi)
		if err != nil {
			return nil, st.loc.scrubErr("read samples of monitor session "+id, err)
		}
		out = append(out, got...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}

// DeleteMonitor removes a session and its samples.
func (st *Store) DeleteMonitor(ctx context.Context, id string) error {
	var n int
	err := st.db.QueryRowContext(ctx, st.d.rebind("SELECT COUNT(*) FROM tsbench_monitors WHERE monitor_id = ?"), id).Scan(&n)
	if err != nil {
		return st.loc.scrubErr("find monitor session "+id, err)
	}
	if n == 0 {
		return fmt.Errorf("monitor session %q: not in the results store %s (see 'tsbench monitor ls'): %w", id, st.loc, ErrNotFound)
	}
	return st.inTx(ctx, "remove monitor session "+id, func(tx *sql.Tx) error {
		q := st.d.rebind("DELETE FROM tsbench_resources WHERE run_id = ? AND source = ?")
		if _, err := tx.ExecContext(ctx, q, id, SourceMonitor); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, st.d.rebind("DELETE FROM tsbench_monitors WHERE monitor_id = ?"), id)
		return err
	})
}

func nullIfZero(v int32) any {
	if v == 0 {
		return nil
	}
	return v
}
