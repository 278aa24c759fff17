package sqlfamily

import (
	"context"
	"database/sql"

	"github.com/tsbench/tsbench/internal/ts"
)

// Querier runs statements that return rows: *sql.DB and *sql.Conn are.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// QueryDB runs q over the series ids on a database/sql handle.
func (d *Dialect) QueryDB(ctx context.Context, db Querier, q *ts.Query, ids []int64) (ts.Result, error) {
	b := NewBuilder(d)
	if err := d.Query(b, q, ids); err != nil {
		return ts.Result{}, err
	}
	rows, err := db.QueryContext(ctx, b.String(), b.Args...)
	if err != nil {
		return ts.Result{}, err
	}
	defer rows.Close()
	return d.Collect(rows, q)
}

// AnalyzeDB runs the analytics query a on a database/sql handle.
func (d *Dialect) AnalyzeDB(ctx context.Context, db Querier, a *ts.Analytic) (ts.Result, error) {
	b := NewBuilder(d)
	if err := d.Analytic(b, a); err != nil {
		return ts.Result{}, err
	}
	rows, err := db.QueryContext(ctx, b.String(), b.Args...)
	if err != nil {
		return ts.Result{}, err
	}
	defer rows.Close()
	return CollectAnalytic(rows)
}

// CountDB counts the points of r on a database/sql handle; s names the
// series of r's devices (nil when r has none).
func (d *Dialect) CountDB(ctx context.Context, db Querier, s *ts.Schema, r ts.CountRange) (int64, error) {
	b := NewBuilder(d)
	if len(r.Devices) > 0 {
		d.CountPoints(b, s.SeriesIDs(r.Devices, s.AllSensors()), false, r.Start, r.End)
	} else {
		d.CountPoints(b, nil, true, r.Start, r.End)
	}
	var n int64
	err := db.QueryRowContext(ctx, b.String(), b.Args...).Scan(&n)
	return n, err
}
