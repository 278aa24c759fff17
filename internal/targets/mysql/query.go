package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return ts.Result{}, err
	}
	query, args, err := querySQL(q, ts.IDList(s.SeriesIDs(q.Devices, q.Sensors)))
	if err != nil {
		return ts.Result{}, err
	}
	rows, err := t.db.QueryContext(ctx, query, args...)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	var res ts.Result
	var tm int64
	var v sql.NullFloat64
	for rows.Next() {
		if err := rows.Scan(&tm, &v); err != nil {
			return ts.Result{}, t.wrap(q.Kind.String(), err)
		}
		res.Add(tm, v.Float64)
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		res.First, res.Last = 0, 0
	}
	return res, nil
}

// querySQL translates a query into rows of (time, value).
func querySQL(q *ts.Query, in string) (string, []any, error) {
	where := "series IN " + in
	rng := " AND t >= ? AND t < ?"
	order := " ORDER BY t, series"
	if q.Kind.Descending() {
		order = " ORDER BY t DESC, series"
	}
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT t, v FROM points WHERE " + where + " AND t = ? ORDER BY series", []any{q.Start}, nil
	case ts.TimeRange, ts.RangeQueryDesc:
		return "SELECT t, v FROM points WHERE " + where + rng + order, []any{q.Start, q.End}, nil
	case ts.ValueRange, ts.ValueRangeQueryDesc:
		return "SELECT t, v FROM points WHERE " + where + rng + " AND v > ?" + order, []any{q.Start, q.End, q.Lower}, nil
	case ts.LatestPoint:
		return "SELECT p.t, p.v FROM points p JOIN (SELECT series, max(t) AS t FROM points WHERE " + where +
			" GROUP BY series) l ON p.series = l.series AND p.t = l.t ORDER BY p.series", nil, nil
	}
	agg, err := aggSQL(q.Agg)
	if err != nil {
		return "", nil, err
	}
	switch q.Kind {
	case ts.AggRange:
		return "SELECT 0, " + agg + " FROM points WHERE " + where + rng + " GROUP BY series", []any{q.Start, q.End}, nil
	case ts.AggValue:
		return "SELECT 0, " + agg + " FROM points WHERE " + where + " AND v > ? GROUP BY series", []any{q.Lower}, nil
	case ts.AggRangeValue:
		return "SELECT 0, " + agg + " FROM points WHERE " + where + rng + " AND v > ? GROUP BY series",
			[]any{q.Start, q.End, q.Lower}, nil
	case ts.GroupBy:
		if q.Bucket <= 0 {
			return "", nil, fmt.Errorf("mysql: GROUP_BY bucket %d must be positive", q.Bucket)
		}
		b := strconv.FormatInt(q.Bucket, 10)
		st := strconv.FormatInt(q.Start, 10)
		bucket := "(t - " + st + ") DIV " + b
		return "SELECT " + st + " + " + bucket + " * " + b + " AS bt, " + agg + " FROM points WHERE " + where + rng +
			" GROUP BY series, " + bucket + " ORDER BY bt, series", []any{q.Start, q.End}, nil
	}
	return "", nil, fmt.Errorf("mysql: query kind %s: unknown", q.Kind)
}

func aggSQL(a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count:
		return "COUNT(*)", nil
	case ts.Sum:
		return "SUM(v)", nil
	case ts.Avg:
		return "AVG(v)", nil
	case ts.Min:
		return "MIN(v)", nil
	case ts.Max:
		return "MAX(v)", nil
	}
	return "", fmt.Errorf("mysql: aggregate %s: unknown", a)
}

// Count returns the distinct points stored (one row per point by the
// primary key).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := "SELECT COUNT(*) FROM points WHERE 1=1"
	var args []any
	if len(r.Devices) > 0 {
		s, err := t.binding.Schema()
		if err != nil {
			return 0, err
		}
		q += " AND series IN " + ts.IDList(s.SeriesIDs(r.Devices, s.AllSensors()))
	}
	if r.End > r.Start {
		q += " AND t >= ? AND t < ?"
		args = append(args, r.Start, r.End)
	}
	var n int64
	if err := t.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, t.wrap("count", err)
	}
	return n, nil
}
