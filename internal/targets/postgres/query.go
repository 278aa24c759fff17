package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	if err := t.c.lock(ctx); err != nil {
		return ts.Result{}, t.wrap("query", err)
	}
	defer t.c.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return ts.Result{}, err
	}
	if t.wide {
		return t.queryWide(ctx, s, q)
	}
	sql, args, err := querySQL(q, seriesIDs(s, q.Devices, q.Sensors), t.timescale)
	if err != nil {
		return ts.Result{}, err
	}
	rows, err := t.c.pg.Query(ctx, sql, args...)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	var res ts.Result
	var tm int64
	var v *float64
	for rows.Next() {
		if err := rows.Scan(&tm, &v); err != nil {
			return ts.Result{}, t.wrap(q.Kind.String(), err)
		}
		val := 0.0
		if v != nil {
			val = *v
		}
		res.Add(tm, val)
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		res.First, res.Last = 0, 0
	}
	return res, nil
}

// querySQL translates a query. Every statement returns (time, value) rows:
// the time of a point, or of a Q7 bucket's start, or 0 for Q4-Q6.
func querySQL(q *ts.Query, ids []int32, timescale bool) (string, []any, error) {
	const where = "series = ANY($1)"
	rng := " AND t >= $2 AND t < $3"
	args := []any{ids}
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT t, v FROM points WHERE " + where + " AND t = $2 ORDER BY series", append(args, q.Start), nil
	case ts.TimeRange, ts.RangeQueryDesc:
		return "SELECT t, v FROM points WHERE " + where + rng + " ORDER BY t" + desc(q) + ", series",
			append(args, q.Start, q.End), nil
	case ts.ValueRange, ts.ValueRangeQueryDesc:
		return "SELECT t, v FROM points WHERE " + where + rng + " AND v > $4 ORDER BY t" + desc(q) + ", series",
			append(args, q.Start, q.End, q.Lower), nil
	case ts.LatestPoint:
		return "SELECT p.t, p.v FROM points p JOIN (SELECT series, max(t) AS t FROM points WHERE " + where +
			" GROUP BY series) l ON p.series = l.series AND p.t = l.t ORDER BY p.series", args, nil
	}
	agg, err := aggSQL(q.Agg)
	if err != nil {
		return "", nil, err
	}
	switch q.Kind {
	case ts.AggRange:
		return "SELECT 0::bigint, " + agg + " FROM points WHERE " + where + rng + " GROUP BY series ORDER BY series",
			append(args, q.Start, q.End), nil
	case ts.AggValue:
		return "SELECT 0::bigint, " + agg + " FROM points WHERE " + where + " AND v > $2 GROUP BY series ORDER BY series",
			append(args, q.Lower), nil
	case ts.AggRangeValue:
		return "SELECT 0::bigint, " + agg + " FROM points WHERE " + where + rng + " AND v > $4 GROUP BY series ORDER BY series",
			append(args, q.Start, q.End, q.Lower), nil
	case ts.GroupBy:
		if q.Bucket <= 0 {
			return "", nil, fmt.Errorf("postgres: GROUP_BY bucket %d must be positive", q.Bucket)
		}
		if timescale {
			return "SELECT time_bucket($4::bigint, t, $2::bigint), " + agg + " FROM points WHERE " + where + rng +
				" GROUP BY series, 1 ORDER BY 1, series", append(args, q.Start, q.End, q.Bucket), nil
		}
		return "SELECT $2 + (t - $2) / $4 * $4, " + agg + " FROM points WHERE " + where + rng +
			" GROUP BY series, (t - $2) / $4 ORDER BY 1, series", append(args, q.Start, q.End, q.Bucket), nil
	}
	return "", nil, fmt.Errorf("postgres: query kind %s: unknown", q.Kind)
}

func desc(q *ts.Query) string {
	if q.Kind.Descending() {
		return " DESC"
	}
	return ""
}

// aggSQL is the aggregate over the value column. count counts points of
// every type (text included), the others work on numbers.
func aggSQL(a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count:
		return "count(*)::double precision", nil
	case ts.Sum:
		return "sum(v)", nil
	case ts.Avg:
		return "avg(v)", nil
	case ts.Min:
		return "min(v)", nil
	case ts.Max:
		return "max(v)", nil
	}
	return "", fmt.Errorf("postgres: aggregate %s: unknown", a)
}

// Count returns the distinct points stored (the primary key makes every
// stored row a distinct point).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	if err := t.c.lock(ctx); err != nil {
		return 0, t.wrap("count", err)
	}
	defer t.c.mu.Unlock()
	if t.wide {
		s, err := t.binding.Schema()
		if err != nil {
			return 0, err
		}
		return t.countWide(ctx, s, r)
	}
	sql := "SELECT count(*) FROM points WHERE true"
	var args []any
	if len(r.Devices) > 0 {
		s, err := t.binding.Schema()
		if err != nil {
			return 0, err
		}
		args = append(args, seriesIDs(s, r.Devices, s.AllSensors()))
		sql += " AND series = ANY($1)"
	}
	if r.End > r.Start {
		args = append(args, r.Start, r.End)
		sql += fmt.Sprintf(" AND t >= $%d AND t < $%d", len(args)-1, len(args))
	}
	var n int64
	if err := t.c.pg.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
		return 0, t.wrap("count", err)
	}
	return n, nil
}

var _ pgx.CopyFromSource = (*rowSource)(nil)
