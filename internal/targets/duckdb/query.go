package duckdb

import (
	"context"

	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return ts.Result{}, err
	}
	res, err := Dialect.QueryDB(ctx, t.conn, q, s.SeriesIDs(q.Devices, q.Sensors))
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	return res, nil
}

// Count returns the distinct points (one row per point by the primary key).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return 0, err
	}
	n, err := Dialect.CountDB(ctx, t.conn, s, r)
	if err != nil {
		return 0, t.wrap("count", err)
	}
	return n, nil
}
