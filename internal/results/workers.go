package results

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// WorkerRow is one worker of a run group that reached one stage of the
// start barrier (internal/cluster): "schema" (worker 0 created the schema)
// or "ready" (its clients are connected).
type WorkerRow struct {
	Group    string
	Index    int
	Stage    string
	Workers  int // the group's size as this worker was told it
	RunID    string
	Hostname string
	At       time.Time // the worker's clock when it registered
}

// ErrWorkerTaken is returned by RegisterWorker when the group already has a
// worker with that index at that stage.
var ErrWorkerTaken = errors.New("worker index already registered")

// RegisterWorker records that a worker reached a stage. The primary key
// makes an index register once per group and stage: a second process
// given the same index (a retried pod, a typo) is refused with
// ErrWorkerTaken and the row that holds the place.
func (st *Store) RegisterWorker(ctx context.Context, w WorkerRow) error {
	_, err := st.db.ExecContext(ctx, st.d.rebind(`INSERT INTO tsbench_workers
		(run_group, worker_index, stage, workers, run_id, hostname, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`),
		w.Group, w.Index, w.Stage, w.Workers, w.RunID, w.Hostname, w.At.UTC().UnixMilli())
	if err == nil {
		return nil
	}
	if st.d.duplicate(err) {
		rows, lerr := st.WorkerRows(ctx, w.Group, w.Stage)
		if lerr == nil {
			for _, r := range rows {
				if r.Index == w.Index {
					return fmt.Errorf("group %q already has worker %d at stage %s (run %s on %s, %s): %w",
						w.Group, w.Index, w.Stage, r.RunID, r.Hostname, r.At.Format(time.RFC3339), ErrWorkerTaken)
				}
			}
		}
		return fmt.Errorf("group %q, worker %d: %w", w.Group, w.Index, ErrWorkerTaken)
	}
	return st.loc.scrubErr("register worker", err)
}

// WorkerRows returns the workers of group that reached stage ("" for every
// stage), by index.
func (st *Store) WorkerRows(ctx context.Context, group, stage string) ([]WorkerRow, error) {
	q := `SELECT run_group, worker_index, stage, workers, run_id, hostname, at_ms FROM tsbench_workers WHERE run_group = ?`
	args := []any{group}
	if stage != "" {
		q += " AND stage = ?"
		args = append(args, stage)
	}
	out, err := queryRows(ctx, st, q+" ORDER BY worker_index, stage", args, func(rows *sql.Rows) (WorkerRow, error) {
		var w WorkerRow
		var host sql.NullString
		var at int64
		err := rows.Scan(&w.Group, &w.Index, &w.Stage, &w.Workers, &w.RunID, &host, &at)
		w.Hostname, w.At = host.String, time.UnixMilli(at).UTC()
		return w, err
	})
	return out, st.loc.scrubErr("read workers", err)
}
