package targets

import (
	"context"

	"github.com/tsbench/tsbench/internal/ts"
)

// Analyzer is implemented by targets that can run analytics queries
// (ts.Analytic): aggregates over whole tables grouped by device tags. The
// event scenarios need it; a target without it reports them unsupported.
type Analyzer interface {
	Analyze(ctx context.Context, a *ts.Analytic) (ts.Result, error)
}
