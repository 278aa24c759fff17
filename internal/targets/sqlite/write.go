package sqlite

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// rowsPerStmt is how many points one INSERT statement carries (3 parameters
// each, far below SQLite's limit of 32766 parameters). Larger statements save
// little: past a few hundred rows the time goes into the B-tree, not into
// statement overhead.
const rowsPerStmt = 500

// writer holds what Write reuses from batch to batch.
type writer struct {
	ins   sqlfamily.Inserter // statements prepared once per connection
	times []any              // the batch's timestamps, boxed once per row
}

func (w *writer) closeStmts() { w.ins.Close() }

// Write stores the batch in one transaction: the points go column by column
// (series by series) into multi-row INSERT OR REPLACE statements prepared
// once per connection.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	if err := t.write(ctx, b); err != nil {
		return fmt.Errorf("sqlite: write batch: %w", err)
	}
	return nil
}

func (t *Target) write(ctx context.Context, b *ts.Batch) error {
	s, pos, err := t.Binding.DevicePos(b.Device)
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
	defer clear(w.times)

	in := &w.ins
	if err := in.Begin(ctx, t.db, int(b.Points())); err != nil { // an empty cell is no point: no row
		return err
	}
	defer in.Rollback()
	for j := range b.Columns {
		c := &b.Columns[j]
		var sid any = s.SeriesID(pos, j)
		for i := 0; i < rows; i++ {
			if !c.Present(i) {
				continue
			}
			// v keeps each value's own storage class (the column has no
			// type): BOOLEAN as the INTEGER 0 or 1.
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
			in.Args = append(in.Args, sid, w.times[i], v)
			if in.Full() {
				if err := in.Flush(ctx); err != nil {
					return err
				}
			}
		}
	}
	return in.Commit(ctx)
}
