package victoriametrics

import (
	"context"
	"fmt"
	"github.com/tsbench/tsbench/internal/targets/promql"
	"net/url"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

// language is how the user's own queries meet VictoriaMetrics: PromQL
// (promql.NewLanguage), whose keywords MetricsQL, its superset, extends:
// a metric named like one of them is written as {__name__="..."}.
var language = promql.NewLanguage(promql.EngineMetricsQL, strings.Fields(`with if ifnot default keep_metric_names limit
	quantiles distinct sum2 geomean histogram median mode share zscore any mad outliers_mad outliers_iqr
	outliersk bottomk_avg bottomk_max bottomk_min bottomk_median bottomk_last topk_avg topk_max topk_min
	topk_median topk_last`)...)

var _ targets.StatementRunner = (*Target)(nil)

// RunStatement runs one of the user's own PromQL queries as an instant
// query (/api/v1/query) at st.At, or now when it is zero; its answer's
// rows are promql.DecodeInstant's (sort() or sort_by_label() in the query
// makes the order of a vector's a known one).
func (t *Target) RunStatement(ctx context.Context, st *targets.Statement) (targets.Rows, error) {
	if len(st.Args) > 0 {
		return targets.Rows{}, fmt.Errorf("victoriametrics: a PromQL query binds no parameters (%d given)", len(st.Args))
	}
	at := st.At
	if at.IsZero() {
		at = time.Now()
	}
	data, _, err := t.get(ctx, "/api/v1/query", url.Values{"query": {st.Text}, "time": {promql.Seconds(at.UnixMilli())}})
	if err != nil {
		return targets.Rows{}, err
	}
	rows, err := promql.DecodeInstant(data)
	if err != nil {
		return rows, fmt.Errorf("victoriametrics: %w", err)
	}
	return rows, nil
}

var _ targets.PathQuerier = (*Target)(nil)

// QueryPath sends a request as another tool wrote it (TSBS's query files):
// the path and its query string unchanged, under the target's API base.
func (t *Target) QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	method, r := httpclient.Written(method, body)
	p, query, _ := strings.Cut(path, "?")
	return t.doInto(ctx, method, p, query, r, nil)
}
