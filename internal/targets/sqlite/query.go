package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/tsbench/tsbench/internal/ts"
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
	t.Mu.Lock()
	defer t.Mu.Unlock()
	res, err := t.query(ctx, q)
	if err != nil {
		return ts.Result{}, fmt.Errorf("sqlite: query %v: %w", q.Kind.Short(), err)
	}
	return res, nil
}

func (t *Target) query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	var res ts.Result
	s, err := t.Binding.Schema()
	if err != nil {
		return res, err
	}
	if q.Kind < ts.PrecisePoint || q.Kind > ts.ValueRangeQueryDesc {
		return res, fmt.Errorf("unknown query kind %d", q.Kind)
	}
	if q.Kind.Aggregates() {
		if _, err := Dialect.Aggregate(q.Agg); err != nil {
			return res, err
		}
	}
	if q.Kind == ts.GroupBy && q.Bucket <= 0 {
		return res, fmt.Errorf("group-by bucket must be positive, got %d", q.Bucket)
	}

	numericOnly := q.Kind.HasValueFilter() || (q.Kind.Aggregates() && q.Agg.NeedsNumeric())
	ids := t.ids[:0]
	for _, d := range q.Devices {
		_, pos, err := t.Binding.DevicePos(d)
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
	t.ids = ids
	if len(ids) == 0 {
		return res, nil
	}

	b := &t.qb
	if err := Dialect.Query(b, q, ids, len(s.Sensors)); err != nil {
		return res, err
	}
	defer b.Reset() // drop the references to the boxed parameters
	var rows *sql.Rows
	if Dialect.Bound(ids) {
		st, err := t.stmts.Get(ctx, t.db, b.String())
		if err != nil {
			return res, err
		}
		rows, err = st.QueryContext(ctx, b.Args...)
		if err != nil {
			return res, err
		}
	} else {
		rows, err = t.db.QueryContext(ctx, b.String(), b.Args...)
		if err != nil {
			return res, err
		}
	}
	defer rows.Close()
	return Dialect.Collect(rows, q)
}

// Count returns the number of points stored for the devices of r (all when
// empty) with times in [r.Start, r.End) (all when r.End <= r.Start). The
// primary key makes each counted row a distinct (series, time) point.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	n, err := t.count(ctx, r)
	if err != nil {
		return -1, fmt.Errorf("sqlite: count: %w", err)
	}
	return n, nil
}

func (t *Target) count(ctx context.Context, r ts.CountRange) (int64, error) {
	timed := r.End > r.Start
	s, err := t.Binding.Schema()
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
			_, p, err := t.Binding.DevicePos(d)
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
