package clickhouse

import (
	"strconv"

	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
)

// Dialect is ClickHouse's SQL over HTTP, without parameters: values and
// series written into the statement, intDiv for Q7's buckets, argMax for Q8,
// counts as nullable floats. Table is the target's "`db`.points FINAL":
// FINAL collapses the rows a rewrite left before the merge does.
var Dialect = sqlfamily.Dialect{
	Name:        "clickhouse",
	Placeholder: sqlfamily.Inline,
	IDs:         sqlfamily.IDList,
	Table:       "points FINAL",
	ZeroTime:    "0",
	Count:       "toNullable(toFloat64(count()))",
	Sum:         "sum(v)",
	Bucket: func(_ *sqlfamily.Builder, start, width int64) string {
		st, w := strconv.FormatInt(start, 10), strconv.FormatInt(width, 10)
		return st + " + intDiv(t - " + st + ", " + w + ") * " + w
	},
	Latest:             sqlfamily.LatestArgMax,
	SkipNullAggregates: true,
}
