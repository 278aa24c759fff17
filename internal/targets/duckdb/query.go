package duckdb

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
	query, args := querySQL(q, ts.IDList(s.SeriesIDs(q.Devices, q.Sensors)))
	rows, err := t.conn.QueryContext(ctx, query, args...)
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
		if !v.Valid && q.Kind.Aggregates() {
			continue
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

// querySQL returns a statement yielding (time, value) rows.
func querySQL(q *ts.Query, in string) (string, []any) {
	from := " FROM points WHERE series IN " + in
	rng := " AND t >= ? AND t < ?"
	order := " ORDER BY t, series"
	if q.Kind.Descending() {
		order = " ORDER BY t DESC, series"
	}
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT t, v" + from + " AND t = ? ORDER BY series", []any{q.Start}
	case ts.TimeRange, ts.RangeQueryDesc:
		return "SELECT t, v" + from + rng + order, []any{q.Start, q.End}
	case ts.ValueRange, ts.ValueRangeQueryDesc:
		return "SELECT t, v" + from + rng + " AND v > ?" + order, []any{q.Start, q.End, q.Lower}
	case ts.LatestPoint:
		return "SELECT p.t, p.v FROM points p JOIN (SELECT series, max(t) AS t" + from +
			" GROUP BY series) l ON p.series = l.series AND p.t = l.t ORDER BY p.series", nil
	}
	agg := [...]string{"CAST(count(*) AS DOUBLE)", "sum(v)", "avg(v)", "min(v)", "max(v)"}[q.Agg]
	switch q.Kind {
	case ts.AggRange:
		return "SELECT 0::BIGINT, " + agg + from + rng + " GROUP BY series ORDER BY series", []any{q.Start, q.End}
	case ts.AggValue:
		return "SELECT 0::BIGINT, " + agg + from + " AND v > ? GROUP BY series ORDER BY series", []any{q.Lower}
	case ts.AggRangeValue:
		return "SELECT 0::BIGINT, " + agg + from + rng + " AND v > ? GROUP BY series ORDER BY series", []any{q.Start, q.End, q.Lower}
	}
	st, b := strconv.FormatInt(q.Start, 10), strconv.FormatInt(max(q.Bucket, 1), 10)
	bucket := "(t - " + st + ") // " + b
	return "SELECT " + st + " + " + bucket + " * " + b + " AS bt, " + agg + from + rng +
		" GROUP BY series, bt ORDER BY bt, series", []any{q.Start, q.End}
}

// Count returns the distinct points (one row per point by the primary key).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.binding.Schema()
	if err != nil {
		return 0, err
	}
	q := "SELECT count(*) FROM points WHERE true"
	var args []any
	if len(r.Devices) > 0 {
		q += " AND series IN " + ts.IDList(s.SeriesIDs(r.Devices, s.AllSensors()))
	}
	if r.End > r.Start {
		q += " AND t >= ? AND t < ?"
		args = append(args, r.Start, r.End)
	}
	var n int64
	if err := t.conn.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, t.wrap("count", fmt.Errorf("%w", err))
	}
	return n, nil
}
