package mysql

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
	res, err := Dialect.QueryDB(ctx, t.db, q, s.SeriesIDs(q.Devices, q.Sensors))
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	return res, nil
}

// Count returns the distinct points stored (one row per point by the
// primary key).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var s *ts.Schema
	if len(r.Devices) > 0 {
		var err error
		if s, err = t.binding.Schema(); err != nil {
			return 0, err
		}
	}
	n, err := Dialect.CountDB(ctx, t.db, s, r)
	if err != nil {
		return 0, t.wrap("count", err)
	}
	return n, nil
}

// Analyze runs an analytics query (targets.Analyzer); tags are read from the
// devices table's JSON text with JSON_VALUE.
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return ts.Result{}, err
	}
	res, err := Dialect.AnalyzeDB(ctx, t.db, a)
	if err != nil {
		return ts.Result{}, t.wrap("analytics "+a.Name, err)
	}
	return res, nil
}
