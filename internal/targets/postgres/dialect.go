package postgres

import "github.com/tsbench/tsbench/internal/targets/sqlfamily"

// Dialect is PostgreSQL's SQL: numbered parameters, the series as one
// INTEGER array parameter (= ANY($n): one prepared statement whatever the
// list), tags read from the devices table's JSONB column, and ON CONFLICT to
// replace a rewritten point. The casts of the point INSERT let pgx send
// every row without asking the server for the parameter types.
var Dialect = sqlfamily.Dialect{
	Name:        "postgres",
	Placeholder: sqlfamily.Dollar,
	IDs:         sqlfamily.IDArray,
	Table:       "points",
	ZeroTime:    "0::bigint",
	Count:       "count(*)::double precision",
	Sum:         "sum(v)",
	Bucket:      sqlfamily.ParamDiv,
	Latest:      sqlfamily.LatestLateral,
	Tag: func(b *sqlfamily.Builder, key string) string {
		return "d.tags->>" + b.Param(key)
	},
	Real:   "double precision",
	Insert: "INSERT INTO points (series, t, v, s) VALUES ",
	Row:    []string{"::integer", "::bigint", "::double precision", "::text"},
	Upsert: " ON CONFLICT (series, t) DO UPDATE SET v = EXCLUDED.v, s = EXCLUDED.s",
}

// TimescaleDialect is Dialect with TimescaleDB's time_bucket for Q7.
var TimescaleDialect = timescale(Dialect)

func timescale(d sqlfamily.Dialect) sqlfamily.Dialect {
	d.Name = "timescaledb"
	d.Bucket = func(b *sqlfamily.Builder, start, width int64) string {
		return "time_bucket(" + b.Param(width) + "::bigint, t, " + b.Param(start) + "::bigint)"
	}
	return d
}
