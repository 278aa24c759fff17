package sqlite

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/ts"
)

// Analyze runs an analytics query (targets.Analyzer). Tags live in the
// devices table as a JSON object, so grouping by a tag is a json_extract of
// it (Dialect.Tag); the points of one sensor are found through the series
// table.
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return ts.Result{}, err
	}
	res, err := Dialect.AnalyzeDB(ctx, t.db, a)
	if err != nil {
		return ts.Result{}, fmt.Errorf("sqlite: analytics %s: %w", a.Name, err)
	}
	return res, nil
}

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// with the shared SQL of sqlfamily (Dialect.Fleet): tags read with
// json_extract, the session questions with lag and lead.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	if q.Fleet == nil {
		return nil, fmt.Errorf("sqlite: fleet: %s is not a fleet question", q.Kind)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.binding.Schema(); err != nil {
		return nil, err
	}
	rows, err := Dialect.FleetDB(ctx, t.db, q)
	if err != nil {
		return nil, fmt.Errorf("sqlite: fleet %s: %w", q.Fleet.Kind, err)
	}
	return rows, nil
}
