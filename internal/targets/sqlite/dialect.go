package sqlite

import "github.com/tsbench/tsbench/internal/targets/sqlfamily"

// Dialect is SQLite's SQL. Sums use TOTAL, which always returns a float and
// never fails on integer overflow (SUM would, over large INT64 values). Ids
// are bound up to 1000 (a prepared statement per query shape), literal
// beyond, which keeps clear of SQLite's parameter limit. v holds every type,
// so points have no s column.
var Dialect = sqlfamily.Dialect{
	Name:        "sqlite",
	Placeholder: sqlfamily.Question,
	IDs:         sqlfamily.IDBound,
	MaxBound:    1000,
	Table:       "points",
	ZeroTime:    "0",
	Count:       "COUNT(*)",
	Sum:         "TOTAL(v)",
	Bucket:      sqlfamily.ParamDiv,
	Latest:      sqlfamily.LatestProbe,
	KeepTimes:   true,
	Tag:         sqlfamily.JSONTag("json_extract"),
	Real:        "REAL",
	Insert:      "INSERT OR REPLACE INTO points (series, t, v) VALUES ",
	Row:         []string{"", "", ""},
	Replace:     "INSERT OR REPLACE INTO",
}
