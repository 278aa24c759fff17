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
