package clickhouse

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	t.mu.Lock()
	s, err := t.binding.Schema()
	t.mu.Unlock()
	if err != nil {
		return ts.Result{}, err
	}
	sql, err := querySQL(t.table(), q, ts.IDList(s.SeriesIDs(q.Devices, q.Sensors)))
	if err != nil {
		return ts.Result{}, err
	}
	data, err := t.exec(ctx, sql+" FORMAT TabSeparated", nil)
	if err != nil {
		return ts.Result{}, fmt.Errorf("%s: %w", q.Kind, err)
	}
	var res ts.Result
	err = rows(data, func(tm int64, v float64, null bool) {
		if null && q.Kind.Aggregates() {
			return // an aggregate over no numbers
		}
		res.Add(tm, v)
	})
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		res.First, res.Last = 0, 0
	}
	return res, err
}

// querySQL returns a statement yielding (time, value) rows.
func querySQL(table string, q *ts.Query, in string) (string, error) {
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	from := " FROM " + table + " FINAL WHERE series IN " + in
	rng := " AND t >= " + i64(q.Start) + " AND t < " + i64(q.End)
	val := " AND v > " + strconv.FormatFloat(q.Lower, 'g', -1, 64)
	order := " ORDER BY t, series"
	if q.Kind.Descending() {
		order = " ORDER BY t DESC, series"
	}
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT t, v" + from + " AND t = " + i64(q.Start) + " ORDER BY series", nil
	case ts.TimeRange, ts.RangeQueryDesc:
		return "SELECT t, v" + from + rng + order, nil
	case ts.ValueRange, ts.ValueRangeQueryDesc:
		return "SELECT t, v" + from + rng + val + order, nil
	case ts.LatestPoint:
		return "SELECT max(t), argMax(v, t)" + from + " GROUP BY series ORDER BY series", nil
	}
	agg := [...]string{"toNullable(toFloat64(count()))", "sum(v)", "avg(v)", "min(v)", "max(v)"}[q.Agg]
	switch q.Kind {
	case ts.AggRange:
		return "SELECT 0, " + agg + from + rng + " GROUP BY series ORDER BY series", nil
	case ts.AggValue:
		return "SELECT 0, " + agg + from + val + " GROUP BY series ORDER BY series", nil
	case ts.AggRangeValue:
		return "SELECT 0, " + agg + from + rng + val + " GROUP BY series ORDER BY series", nil
	case ts.GroupBy:
		if q.Bucket <= 0 {
			return "", fmt.Errorf("clickhouse: GROUP_BY bucket %d must be positive", q.Bucket)
		}
		st, b := i64(q.Start), i64(q.Bucket)
		return "SELECT " + st + " + intDiv(t - " + st + ", " + b + ") * " + b + " AS bt, " + agg + from + rng +
			" GROUP BY series, bt ORDER BY bt, series", nil
	}
	return "", fmt.Errorf("clickhouse: query kind %s: unknown", q.Kind)
}

// Count returns the distinct points: FINAL collapses rewritten rows.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	s, err := t.binding.Schema()
	t.mu.Unlock()
	if err != nil {
		return 0, err
	}
	sql := "SELECT count() FROM " + t.table() + " FINAL WHERE 1"
	if len(r.Devices) > 0 {
		sql += " AND series IN " + ts.IDList(s.SeriesIDs(r.Devices, s.AllSensors()))
	}
	if r.End > r.Start {
		sql += fmt.Sprintf(" AND t >= %d AND t < %d", r.Start, r.End)
	}
	data, err := t.exec(ctx, sql, nil)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
}
