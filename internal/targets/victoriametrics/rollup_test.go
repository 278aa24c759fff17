package victoriametrics

import (
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// The MetricsQL of each aggregate, per series and across devices.
func TestGroupByExpr(t *testing.T) {
	const sel = `{db="test",gen="1",__name__!="tsbench_generation",__name__=~"s_0|s_1",device=~"d_0|d_1"}`
	for _, c := range []struct {
		agg    ts.Aggregate
		across bool
		want   string
	}{
		{ts.Count, false, `count_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Sum, false, `sum_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Avg, false, `avg_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Min, false, `min_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Max, false, `max_over_time(` + sel + `[60000ms]) keep_metric_names`},
		{ts.Count, true, `sum(count_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Sum, true, `sum(sum_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Min, true, `min(min_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Max, true, `max(max_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__)`},
		{ts.Avg, true, `label_set(sum(sum_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__), "tsbench_part", "sum")` +
			` or label_set(sum(count_over_time(` + sel + `[60000ms]) keep_metric_names) by (__name__), "tsbench_part", "count")`},
	} {
		t.Run(fmt.Sprintf("%s_across_%v", c.agg, c.across), func(t *testing.T) {
			got, err := groupByExpr(&ts.Query{Kind: ts.GroupBy, Agg: c.agg, Across: c.across, Bucket: 60_000}, sel, 60_000)
			if err != nil || got != c.want {
				t.Fatalf("groupByExpr =\n%s (%v)\nwant\n%s", got, err, c.want)
			}
		})
	}
}
