package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/ts"
)

var columns = []string{"series", "t", "v", "s"}

// rowSource feeds a batch to COPY point by point (pgx.CopyFromSource),
// walking the columnar batch sensor by sensor.
type rowSource struct {
	b      *ts.Batch
	base   int64 // series id of the batch's device's first sensor
	sensor int
	row    int
	vals   [4]any
}

func (r *rowSource) reset(b *ts.Batch, base int64) {
	r.b, r.base, r.sensor, r.row = b, base, 0, -1
}

func (r *rowSource) Next() bool {
	for {
		r.row++
		if r.row >= len(r.b.Times) {
			r.row = 0
			r.sensor++
		}
		if r.sensor >= len(r.b.Columns) || len(r.b.Times) == 0 {
			return false
		}
		// An empty cell (a sparse batch's) is no point: no row. A dense
		// batch never looks at the marks.
		if r.b.Nulls == 0 || r.b.Columns[r.sensor].Present(r.row) {
			return true
		}
	}
}

func (r *rowSource) Values() ([]any, error) {
	c := &r.b.Columns[r.sensor]
	r.vals[0] = int32(r.base + int64(r.sensor))
	r.vals[1] = r.b.Times[r.row]
	if c.Type == ts.Text {
		r.vals[2], r.vals[3] = nil, c.Texts[r.row]
	} else {
		v, _ := c.Number(r.row)
		r.vals[2], r.vals[3] = v, nil
	}
	return r.vals[:], nil
}

func (r *rowSource) Err() error { return nil }

// Write stores a batch through the configured write path; a rewritten point
// replaces the stored one.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	if err := t.c.lock(ctx); err != nil {
		return t.wrap("write batch", err)
	}
	defer t.c.mu.Unlock()
	s, pos, err := t.binding.DevicePos(b.Device)
	if err != nil {
		return err
	}
	base := s.SeriesID(pos, 0)
	if t.wide {
		err = t.writeWide(ctx, s, b)
	} else if t.writePath == "insert" {
		err = t.insert(ctx, b, base)
	} else {
		err = t.copy(ctx, b, base)
	}
	if err != nil {
		return t.wrap("write batch", err)
	}
	return nil
}

// copy COPYs the batch into points (copyDirect); when a point is already
// stored, through the staging table and an upsert instead.
func (t *Target) copy(ctx context.Context, b *ts.Batch, base int64) error {
	t.rows.reset(b, base)
	if done, err := t.copyDirect(ctx, "points", columns, &t.rows); done || err != nil {
		return err
	}
	if !t.c.staged {
		// Temporary: private to this connection; rows vanish at commit.
		if _, err := t.c.pg.Exec(ctx, `CREATE TEMPORARY TABLE IF NOT EXISTS stage
			(series INTEGER, t BIGINT, v DOUBLE PRECISION, s TEXT) ON COMMIT DELETE ROWS`); err != nil {
			return err
		}
		t.c.staged = true
	}
	tx, err := t.c.pg.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit it is a no-op
	t.rows.reset(b, base)
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"stage"}, columns, &t.rows); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO points SELECT series, t, v, s FROM stage
		ON CONFLICT (series, t) DO UPDATE SET v = EXCLUDED.v, s = EXCLUDED.s`); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// maxInsertRows keeps a statement under PostgreSQL's 65,535 parameters.
const maxInsertRows = 8000

// timescaleInsertRows is the statement size for the timescaledb mode: the
// PGlite build it is tested against crashes on larger messages (~500 rows).
const timescaleInsertRows = 200

func (t *Target) insert(ctx context.Context, b *ts.Batch, base int64) error {
	t.rows.reset(b, base)
	chunk := maxInsertRows
	if t.timescale {
		chunk = timescaleInsertRows
	}
	args := make([]any, 0, 4*min(chunk, int(b.Points())))
	tx, err := t.c.pg.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		// pgx prepares and caches each distinct statement on the
		// connection.
		_, err := tx.Exec(ctx, Dialect.InsertPoints(len(args)/4), args...)
		args = args[:0]
		return err
	}
	for t.rows.Next() {
		vals, _ := t.rows.Values()
		args = append(args, vals...)
		if len(args) == 4*chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
