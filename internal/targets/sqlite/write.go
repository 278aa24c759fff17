package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tsbench/tsbench/internal/ts"
)

// rowsPerStmt is how many points one INSERT statement carries (3 parameters
// each, far below SQLite's limit of 32766 parameters). Larger statements save
// little: past a few hundred rows the time goes into the B-tree, not into
// statement overhead.
const rowsPerStmt = 500

// maxRemainderStmts bounds the cache of statements for the last, shorter
// chunk of a batch. Workloads use one batch size, so one or two entries are
// the rule.
const maxRemainderStmts = 8

const insertHead = "INSERT OR REPLACE INTO points (series, t, v) VALUES "

// writer holds what Write reuses from batch to batch.
type writer struct {
	full  *sql.Stmt         // rowsPerStmt rows
	rem   map[int]*sql.Stmt // shorter statements by row count
	args  []any             // parameters of one statement
	times []any             // the batch's timestamps, boxed once per row
}

func (w *writer) closeStmts() {
	if w.full != nil {
		w.full.Close()
		w.full = nil
	}
	for n, st := range w.rem {
		st.Close()
		delete(w.rem, n)
	}
}

// stmt returns the prepared statement inserting rows points.
func (w *writer) stmt(ctx context.Context, db *sql.DB, rows int) (*sql.Stmt, error) {
	if rows == rowsPerStmt {
		if w.full == nil {
			st, err := db.PrepareContext(ctx, valuesSQL(insertHead, 3, rows))
			if err != nil {
				return nil, err
			}
			w.full = st
		}
		return w.full, nil
	}
	if st, ok := w.rem[rows]; ok {
		return st, nil
	}
	if len(w.rem) >= maxRemainderStmts {
		for n, st := range w.rem {
			st.Close()
			delete(w.rem, n)
		}
	}
	st, err := db.PrepareContext(ctx, valuesSQL(insertHead, 3, rows))
	if err != nil {
		return nil, err
	}
	w.rem[rows] = st
	return st, nil
}

// Write stores the batch in one transaction: the points go column by column
// (series by series) into multi-row INSERT OR REPLACE statements prepared
// once per connection.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.write(ctx, b); err != nil {
		return fmt.Errorf("sqlite: write batch: %w", err)
	}
	return nil
}

func (t *Target) write(ctx context.Context, b *ts.Batch) error {
	s, pos, err := t.binding.DevicePos(b.Device)
	if err != nil {
		return err
	}
	if len(b.Columns) != len(s.Sensors) {
		return fmt.Errorf("batch has %d columns, schema has %d sensors", len(b.Columns), len(s.Sensors))
	}
	rows := len(b.Times)
	for j := range b.Columns {
		c := &b.Columns[j]
		if c.Type != s.Sensors[j].Type {
			return fmt.Errorf("column %d is %v, sensor %q is %v", j, c.Type, s.Sensors[j].Name, s.Sensors[j].Type)
		}
		if c.Len() != rows {
			return fmt.Errorf("column %d has %d values for %d timestamps", j, c.Len(), rows)
		}
	}
	if rows == 0 || len(b.Columns) == 0 {
		return nil
	}

	w := &t.w
	// Box each timestamp once: every sensor of the row shares it.
	if cap(w.times) < rows {
		w.times = make([]any, rows)
	}
	w.times = w.times[:rows]
	for i, tm := range b.Times {
		w.times[i] = tm
	}
	if cap(w.args) < 3*rowsPerStmt {
		w.args = make([]any, 0, 3*rowsPerStmt)
	}

	// Prepare before BeginTx: the pool has one connection, which the
	// transaction holds until it ends.
	total := int(b.Points()) // an empty cell is no point: no row
	var fullDB, remDB *sql.Stmt
	if total >= rowsPerStmt {
		if fullDB, err = w.stmt(ctx, t.db, rowsPerStmt); err != nil {
			return err
		}
	}
	if r := total % rowsPerStmt; r > 0 {
		if remDB, err = w.stmt(ctx, t.db, r); err != nil {
			return err
		}
	}

	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit

	var full *sql.Stmt // fullDB bound to tx, made on first use
	args := w.args[:0]
	exec := func() error {
		var st *sql.Stmt
		if len(args) == 3*rowsPerStmt {
			if full == nil {
				full = tx.StmtContext(ctx, fullDB)
			}
			st = full
		} else {
			st = tx.StmtContext(ctx, remDB)
		}
		_, err := st.ExecContext(ctx, args...)
		// Drop the references so that the boxed values can be collected.
		clear(args)
		args = args[:0]
		return err
	}

	for j := range b.Columns {
		c := &b.Columns[j]
		var sid any = s.SeriesID(pos, j)
		for i := 0; i < rows; i++ {
			if !c.Present(i) {
				continue
			}
			var v any
			switch c.Type {
			case ts.Boolean:
				if c.Bools[i] {
					v = int64(1)
				} else {
					v = int64(0)
				}
			case ts.Int32:
				v = int64(c.Int32s[i])
			case ts.Int64:
				v = c.Int64s[i]
			case ts.Float:
				v = float64(c.Floats[i])
			case ts.Double:
				v = c.Doubles[i]
			default:
				v = c.Texts[i]
			}
			args = append(args, sid, w.times[i], v)
			if len(args) == 3*rowsPerStmt {
				if err := exec(); err != nil {
					return err
				}
			}
		}
	}
	if len(args) > 0 {
		if err := exec(); err != nil {
			return err
		}
	}
	w.args = args
	clear(w.times)
	return tx.Commit()
}
