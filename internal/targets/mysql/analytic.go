package mysql

import (
	"context"

	"github.com/tsbench/tsbench/internal/ts"
)

// Analyze runs an analytics query (targets.Analyzer); tags are read from the
// devices table's JSON text with JSON_VALUE (Dialect.Tag).
func (t *Target) Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error) {
	return t.Analytic(ctx, a)
}

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// with sqlfamily's SQL: CTEs and the window functions lag and lead
// (MariaDB 10.2, MySQL 8.0), numbers as CAST(... AS DOUBLE) (MySQL
// 8.0.17).
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	return t.Fleet(ctx, q)
}
