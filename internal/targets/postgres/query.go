package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// dialect is the target's SQL: TimescaleDialect in the timescaledb mode.
func (t *Target) dialect() *sqlfamily.Dialect {
	if t.timescale {
		return &TimescaleDialect
	}
	return &Dialect
}

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	if err := t.c.lock(ctx); err != nil {
		return ts.Result{}, t.wrap("query", err)
	}
	defer t.c.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return ts.Result{}, err
	}
	if t.wide {
		return t.queryWide(ctx, s, q)
	}
	d := t.dialect()
	b := sqlfamily.NewBuilder(d)
	if err := d.Query(b, q, s.SeriesIDs(q.Devices, q.Sensors), len(s.Sensors)); err != nil {
		return ts.Result{}, err
	}
	rows, err := t.c.pg.Query(ctx, b.String(), b.Args...)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	res, err := d.Collect(rows, q)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	return res, nil
}

// Count returns the distinct points stored (the primary key makes every
// stored row a distinct point).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	if err := t.c.lock(ctx); err != nil {
		return 0, t.wrap("count", err)
	}
	defer t.c.mu.Unlock()
	if t.wide {
		s, err := t.binding.Schema()
		if err != nil {
			return 0, err
		}
		return t.countWide(ctx, s, r)
	}
	b := sqlfamily.NewBuilder(&Dialect)
	if len(r.Devices) > 0 {
		s, err := t.binding.Schema()
		if err != nil {
			return 0, err
		}
		Dialect.CountPoints(b, s.SeriesIDs(r.Devices, s.AllSensors()), false, r.Start, r.End)
	} else {
		Dialect.CountPoints(b, nil, true, r.Start, r.End)
	}
	var n int64
	if err := t.c.pg.QueryRow(ctx, b.String(), b.Args...).Scan(&n); err != nil {
		return 0, t.wrap("count", err)
	}
	return n, nil
}

// Analyze runs an analytics query (targets.Analyzer); tags are read from the
// devices table's JSONB column.
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	if err := t.c.lock(ctx); err != nil {
		return ts.Result{}, t.wrap("analytics query", err)
	}
	defer t.c.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return ts.Result{}, err
	}
	b := sqlfamily.NewBuilder(&Dialect)
	if err := Dialect.Analytic(b, a); err != nil {
		return ts.Result{}, err
	}
	rows, err := t.c.pg.Query(ctx, b.String(), b.Args...)
	if err != nil {
		return ts.Result{}, t.wrap("analytics "+a.Name, err)
	}
	defer rows.Close()
	res, err := sqlfamily.CollectAnalytic(rows)
	if err != nil {
		return ts.Result{}, t.wrap("analytics "+a.Name, err)
	}
	return res, nil
}

var _ pgx.CopyFromSource = (*rowSource)(nil)
