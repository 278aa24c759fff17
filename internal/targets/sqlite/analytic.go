package sqlite

import (
	"context"

	"github.com/tsbench/tsbench/internal/ts"
)

// Analyze runs an analytics query (targets.Analyzer). Tags live in the
// devices table as a JSON object, so grouping by a tag is a json_extract of
// it (Dialect.Tag); the points of one sensor are found through the series
// table.
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	return t.family.Analytic(ctx, a)
}

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// with the shared SQL of sqlfamily (Dialect.Fleet): tags read with
// json_extract, the session questions with lag and lead.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	return t.family.Fleet(ctx, q)
}
