package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// maxBoundIDs is the largest series list passed as parameters; longer lists
// (thousands of series) are written into the SQL as integer literals, which
// keeps clear of SQLite's parameter limit. Statements with parameters are
// prepared once and cached, so a repeated query shape costs no parsing.
var maxBoundIDs = 1000

// maxCachedStmts bounds the prepared query statements of a connection.
const maxCachedStmts = 64

type stmtCache struct {
	m map[string]*sql.Stmt
}

func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	if st, ok := c.m[query]; ok {
		return st, nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	if len(c.m) >= maxCachedStmts {
		c.closeAll()
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.m[query] = st
	return st, nil
}

func (c *stmtCache) closeAll() {
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

// queryState holds Query's reusable buffers.
type queryState struct {
	ids  []int64
	args []any
	sql  strings.Builder
}

// rowShape says what the columns of a query's rows are.
type rowShape uint8

const (
	shapePoint  rowShape = iota // t, v
	shapeAgg                    // v (no time: t = 0)
	shapeBucket                 // bucket number, v (t = Start + bucket*Bucket)
)

// Query translates q into SQL over the points table. Rows come back:
//   - Q1 and Q8 by series;
//   - Q2 and Q3 by time, then series; Q9 and Q10 by time descending, then series;
//   - Q4..Q6 one aggregate per series that has a matching point, by series,
//     with t = 0;
//   - Q7 by bucket, then series, with t = the bucket's start.
//
// Value filters and sum/avg/min/max apply to numeric series only
// (ts.DataType.Numeric: INT32, INT64, FLOAT, DOUBLE): a BOOLEAN or TEXT series
// of such a query matches nothing.
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	res, err := t.query(ctx, q)
	if err != nil {
		return ts.Result{}, fmt.Errorf("sqlite: query %v: %w", q.Kind.Short(), err)
	}
	return res, nil
}

func (t *Target) query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	var res ts.Result
	s, err := t.binding.Schema()
	if err != nil {
		return res, err
	}
	if q.Kind < ts.PrecisePoint || q.Kind > ts.ValueRangeQueryDesc {
		return res, fmt.Errorf("unknown query kind %d", q.Kind)
	}
	agg := ""
	if q.Kind.Aggregates() {
		if agg, err = aggSQL(q.Agg); err != nil {
			return res, err
		}
	}
	if q.Kind == ts.GroupBy && q.Bucket <= 0 {
		return res, fmt.Errorf("group-by bucket must be positive, got %d", q.Bucket)
	}

	qs := &t.qbuf
	numericOnly := q.Kind.HasValueFilter() || (q.Kind.Aggregates() && q.Agg.NeedsNumeric())
	ids := qs.ids[:0]
	for _, d := range q.Devices {
		_, pos, err := t.binding.DevicePos(d)
		if err != nil {
			return res, err
		}
		for _, i := range q.Sensors {
			if i < 0 || i >= len(s.Sensors) {
				return res, fmt.Errorf("sensor index %d out of range (schema has %d sensors)", i, len(s.Sensors))
			}
			if numericOnly && !t.numeric[i] {
				continue
			}
			ids = append(ids, s.SeriesID(pos, i))
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	qs.ids = ids
	if len(ids) == 0 {
		return res, nil
	}

	b := &qs.sql
	b.Reset()
	args := qs.args[:0]
	bound := len(ids) <= maxBoundIDs
	list := func() {
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			if bound {
				b.WriteByte('?')
				args = append(args, id)
			} else {
				b.WriteString(strconv.FormatInt(id, 10))
			}
		}
	}
	shape := shapePoint
	switch q.Kind {
	case ts.PrecisePoint:
		b.WriteString("SELECT t, v FROM points WHERE series IN (")
		list()
		b.WriteString(") AND t = ? ORDER BY series")
		args = append(args, q.Start)
	case ts.TimeRange, ts.ValueRange, ts.RangeQueryDesc, ts.ValueRangeQueryDesc:
		b.WriteString("SELECT t, v FROM points WHERE series IN (")
		list()
		b.WriteString(") AND t >= ? AND t < ?")
		args = append(args, q.Start, q.End)
		if q.Kind.HasValueFilter() {
			b.WriteString(" AND v > ?")
			args = append(args, q.Lower)
		}
		if q.Kind.Descending() {
			b.WriteString(" ORDER BY t DESC, series")
		} else {
			b.WriteString(" ORDER BY t, series")
		}
	case ts.AggRange, ts.AggValue, ts.AggRangeValue:
		shape = shapeAgg
		b.WriteString("SELECT ")
		b.WriteString(agg)
		b.WriteString(" FROM points WHERE series IN (")
		list()
		b.WriteByte(')')
		if q.Kind.HasTimeRange() {
			b.WriteString(" AND t >= ? AND t < ?")
			args = append(args, q.Start, q.End)
		}
		if q.Kind.HasValueFilter() {
			b.WriteString(" AND v > ?")
			args = append(args, q.Lower)
		}
		b.WriteString(" GROUP BY series ORDER BY series")
	case ts.GroupBy:
		shape = shapeBucket
		// t >= Start, so the integer division is a floor and bucket i
		// holds [Start + i*Bucket, Start + (i+1)*Bucket); t < End clips
		// the last one, and GROUP BY yields no row for an empty bucket.
		b.WriteString("SELECT (t - ?) / ? AS b, ")
		args = append(args, q.Start, q.Bucket)
		b.WriteString(agg)
		b.WriteString(" FROM points WHERE series IN (")
		list()
		b.WriteString(") AND t >= ? AND t < ? GROUP BY series, b ORDER BY b, series")
		args = append(args, q.Start, q.End)
	case ts.LatestPoint:
		// One index probe per series: the greatest t, then its row.
		b.WriteString("WITH ids(id) AS (VALUES ")
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			if bound {
				b.WriteString("(?)")
				args = append(args, id)
			} else {
				b.WriteByte('(')
				b.WriteString(strconv.FormatInt(id, 10))
				b.WriteByte(')')
			}
		}
		b.WriteString(") SELECT p.t, p.v FROM ids JOIN points p ON p.series = ids.id" +
			" AND p.t = (SELECT t FROM points WHERE series = ids.id ORDER BY t DESC LIMIT 1) ORDER BY ids.id")
	}
	qs.args = args
	defer clear(args)

	var rows *sql.Rows
	if bound {
		st, err := t.stmts.get(ctx, t.db, b.String())
		if err != nil {
			return res, err
		}
		rows, err = st.QueryContext(ctx, args...)
		if err != nil {
			return res, err
		}
	} else {
		rows, err = t.db.QueryContext(ctx, b.String(), args...)
		if err != nil {
			return res, err
		}
	}
	defer rows.Close()

	var (
		tm int64
		v  any
	)
	for rows.Next() {
		switch shape {
		case shapePoint:
			err = rows.Scan(&tm, &v)
		case shapeAgg:
			err = rows.Scan(&v)
		case shapeBucket:
			err = rows.Scan(&tm, &v)
			tm = q.Start + tm*q.Bucket
		}
		if err != nil {
			return ts.Result{}, err
		}
		res.Add(tm, number(v))
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, err
	}
	return res, nil
}

// aggSQL is the SQL of an aggregate. Sums use TOTAL, which always returns a
// float and never fails on integer overflow (SUM would, over large INT64
// values).
func aggSQL(a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count:
		return "COUNT(*)", nil
	case ts.Sum:
		return "TOTAL(v)", nil
	case ts.Avg:
		return "AVG(v)", nil
	case ts.Min:
		return "MIN(v)", nil
	case ts.Max:
		return "MAX(v)", nil
	}
	return "", fmt.Errorf("unknown aggregate %v", a)
}

// number is the numeric value of a scanned column: integers (booleans are
// stored as 0/1) and reals as they are, text and NULL as 0.
func number(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// Count returns the number of points stored for the devices of r (all when
// empty) with times in [r.Start, r.End) (all when r.End <= r.Start). The
// primary key makes each counted row a distinct (series, time) point.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n, err := t.count(ctx, r)
	if err != nil {
		return -1, fmt.Errorf("sqlite: count: %w", err)
	}
	return n, nil
}

func (t *Target) count(ctx context.Context, r ts.CountRange) (int64, error) {
	timed := r.End > r.Start
	s, err := t.binding.Schema()
	if len(r.Devices) == 0 && (!timed || err != nil) {
		// Everything (or a time range over everything, when no schema says
		// which series exist: a full scan).
		var n int64
		if timed {
			err = t.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM points WHERE t >= ? AND t < ?`, r.Start, r.End).Scan(&n)
		} else {
			err = t.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM points`).Scan(&n)
		}
		return n, err
	}
	if err != nil {
		return 0, err
	}
	// Device positions, merged into contiguous ranges [lo, hi): a device's
	// series are the contiguous ids [pos*sensors, (pos+1)*sensors).
	var pos []int
	if len(r.Devices) == 0 {
		pos = []int{0, len(s.Devices)}
	} else {
		ps := make([]int, 0, len(r.Devices))
		for _, d := range r.Devices {
			_, p, err := t.binding.DevicePos(d)
			if err != nil {
				return 0, err
			}
			ps = append(ps, p)
		}
		slices.Sort(ps)
		ps = slices.Compact(ps)
		for _, p := range ps {
			if n := len(pos); n > 0 && pos[n-1] == p {
				pos[n-1] = p + 1
			} else {
				pos = append(pos, p, p+1)
			}
		}
	}
	var total int64
	for i := 0; i+1 < len(pos); i += 2 {
		lo, hi := s.SeriesID(pos[i], 0), s.SeriesID(pos[i+1], 0)
		if hi <= lo {
			continue
		}
		var n int64
		if timed {
			// Walk the series ids and probe the (series, t) key for the
			// time range of each: no scan of points outside the range.
			err = t.db.QueryRowContext(ctx, `WITH RECURSIVE ids(id) AS (SELECT ? UNION ALL SELECT id + 1 FROM ids WHERE id + 1 < ?)
SELECT COUNT(*) FROM ids JOIN points p ON p.series = ids.id AND p.t >= ? AND p.t < ?`, lo, hi, r.Start, r.End).Scan(&n)
		} else {
			err = t.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM points WHERE series >= ? AND series < ?`, lo, hi).Scan(&n)
		}
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}
