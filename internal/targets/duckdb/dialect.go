package duckdb

import "github.com/tsbench/tsbench/internal/targets/sqlfamily"

// Dialect is DuckDB's SQL: series as literal lists, // for Q7's buckets,
// counts as DOUBLE, tags read with json_extract_string. Points are written
// by the Appender, so the dialect has no point INSERT.
var Dialect = sqlfamily.Dialect{
	Name:               "duckdb",
	Placeholder:        sqlfamily.Question,
	IDs:                sqlfamily.IDList,
	Table:              "points",
	ZeroTime:           "0::BIGINT",
	Count:              "CAST(count(*) AS DOUBLE)",
	Sum:                "sum(v)",
	Bucket:             sqlfamily.IntDiv("//"),
	Latest:             sqlfamily.LatestJoin,
	SkipNullAggregates: true,
	// Tags are JSON text in devices.tags (the fleet questions read them).
	Tag:     sqlfamily.JSONTag("json_extract_string"),
	Real:    "DOUBLE",
	Replace: "INSERT OR REPLACE INTO",
}
