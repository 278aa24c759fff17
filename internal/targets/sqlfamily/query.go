package sqlfamily

import (
	"fmt"
	"strconv"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query writes q over the series ids into b (which it resets first). Every
// statement yields (time, value) rows:
//   - Q1 by series; Q8 one row per series with a point, by series;
//   - Q2 and Q3 by time, then series; Q9 and Q10 by time descending, then
//     series;
//   - Q4..Q6 one aggregate per series with a matching point, by series,
//     with time ZeroTime;
//   - Q7 by bucket, then series, with the bucket's start as the time;
//     across devices by bucket, then sensor (series % perDevice, as
//     ts.Schema.SeriesID numbers them); with a limit, the newest buckets
//     first (the limit needs one sensor: one row per bucket).
//
// perDevice is the schema's sensors per device.
func (d *Dialect) Query(b *Builder, q *ts.Query, ids []int64, perDevice int) error {
	b.Reset()
	if q.Kind < ts.PrecisePoint || q.Kind > ts.ValueRangeQueryDesc {
		return fmt.Errorf("%s: unknown query kind %d", d.Name, q.Kind)
	}
	agg := ""
	if q.Kind.Aggregates() {
		var err error
		if agg, err = d.Aggregate(q.Agg); err != nil {
			return err
		}
	}
	switch q.Kind {
	case ts.PrecisePoint:
		b.S("SELECT t, v FROM ").S(d.Table).S(" WHERE ")
		d.series(b, ids)
		b.S(" AND t = ").P(q.Start).S(" ORDER BY series")
	case ts.TimeRange, ts.ValueRange, ts.RangeQueryDesc, ts.ValueRangeQueryDesc:
		b.S("SELECT t, v FROM ").S(d.Table).S(" WHERE ")
		d.series(b, ids)
		d.filter(b, q)
		if q.Kind.Descending() {
			b.S(" ORDER BY t DESC, series")
		} else {
			b.S(" ORDER BY t, series")
		}
	case ts.AggRange, ts.AggValue, ts.AggRangeValue:
		b.S("SELECT ").S(d.ZeroTime).S(", ").S(agg).S(" FROM ").S(d.Table).S(" WHERE ")
		d.series(b, ids)
		d.filter(b, q)
		b.S(" GROUP BY series ORDER BY series")
	case ts.GroupBy:
		if q.Bucket <= 0 {
			return fmt.Errorf("%s: GROUP_BY bucket %d must be positive", d.Name, q.Bucket)
		}
		// GROUP BY names the bucket by its alias: the expression written
		// twice would take its parameters twice, and with "?" the engine
		// could not tell that both are the same.
		b.S("SELECT ").S(d.Bucket(b, q.BucketOrigin(), q.Bucket)).S(" AS bt, ").S(agg).S(" FROM ").S(d.Table).S(" WHERE ")
		d.series(b, ids)
		d.filter(b, q)
		switch sensor := "series % " + strconv.Itoa(max(perDevice, 1)); {
		case q.Across && q.Limit > 0:
			b.S(" GROUP BY bt ORDER BY bt DESC LIMIT ").S(strconv.Itoa(q.Limit))
		case q.Across:
			b.S(" GROUP BY ").S(sensor).S(", bt ORDER BY bt, ").S(sensor)
		default:
			b.S(" GROUP BY series, bt ORDER BY bt, series")
		}
	case ts.LatestPoint:
		d.latest(b, ids)
	}
	return nil
}

// filter appends the time range and value filter of q's kind.
func (d *Dialect) filter(b *Builder, q *ts.Query) {
	if q.Kind.HasTimeRange() {
		b.S(" AND t >= ").P(q.Start).S(" AND t < ").P(q.End)
	}
	if q.Kind.HasValueFilter() {
		b.S(" AND v > ").P(q.Lower)
	}
}

func (d *Dialect) latest(b *Builder, ids []int64) {
	switch d.Latest {
	case LatestArgMax:
		b.S("SELECT max(t), argMax(v, t) FROM ").S(d.Table).S(" WHERE ")
		d.series(b, ids)
		b.S(" GROUP BY series ORDER BY series")
	case LatestLateral:
		arr := make([]int32, len(ids))
		for i, id := range ids {
			arr[i] = int32(id)
		}
		b.S("SELECT p.t, p.v FROM unnest(").P(arr).S("::integer[]) AS ids(id) CROSS JOIN LATERAL (SELECT t, v FROM ").S(d.Table).
			S(" WHERE series = ids.id ORDER BY t DESC LIMIT 1) p ORDER BY ids.id")
	case LatestProbe:
		// One index probe per series: the greatest t, then its row.
		b.S("WITH ids(id) AS (VALUES ")
		d.list(b, ids, "(", ")")
		b.S(") SELECT p.t, p.v FROM ids JOIN ").S(d.Table).S(" p ON p.series = ids.id AND p.t = (SELECT t FROM ").
			S(d.Table).S(" WHERE series = ids.id ORDER BY t DESC LIMIT 1) ORDER BY ids.id")
	default:
		b.S("SELECT p.t, p.v FROM ").S(d.Table).S(" p JOIN (SELECT series, max(t) AS t FROM ").S(d.Table).S(" WHERE ")
		d.series(b, ids)
		b.S(" GROUP BY series) l ON p.series = l.series AND p.t = l.t ORDER BY p.series")
	}
}

// bound tells whether ids go into the statement as parameters.
func (d *Dialect) bound(ids []int64) bool {
	return d.IDs == IDBound && len(ids) <= d.MaxBound && d.Placeholder != Inline
}

// Bound tells whether a statement over ids has them as parameters (and so
// is worth preparing once for its shape).
func (d *Dialect) Bound(ids []int64) bool {
	return d.IDs != IDList && (d.IDs == IDArray || d.bound(ids))
}

// series appends the condition "the row is of one of ids".
func (d *Dialect) series(b *Builder, ids []int64) {
	switch {
	case d.IDs == IDArray:
		arr := make([]int32, len(ids))
		for i, id := range ids {
			arr[i] = int32(id)
		}
		b.S("series = ANY(").P(arr).S(")")
		return
	case len(ids) == 0:
		b.S("series IN (NULL)")
		return
	}
	b.S("series IN (")
	d.list(b, ids, "", "")
	b.S(")")
}

// list appends ids separated by commas, each between pre and post: as
// parameters when bound, else as literals.
func (d *Dialect) list(b *Builder, ids []int64, pre, post string) {
	bound := d.bound(ids)
	for i, id := range ids {
		if i > 0 {
			b.S(",")
		}
		b.S(pre)
		if bound {
			b.P(id)
		} else {
			b.Int(id)
		}
		b.S(post)
	}
}

// Aggregate is the SQL of a over the value column.
func (d *Dialect) Aggregate(a ts.Aggregate) (string, error) {
	names := targets.AggregateNames{Count: d.Count, Sum: d.Sum, Avg: "avg(v)", Min: "min(v)", Max: "max(v)"}
	return names.Of(d.Name, a)
}

// CountPoints writes into b the count of the points of ids (all series when
// all) with times in [start, end) (any time when end <= start).
func (d *Dialect) CountPoints(b *Builder, ids []int64, all bool, start, end int64) {
	b.Reset()
	b.S("SELECT count(*) FROM ").S(d.Table).S(" WHERE 1=1")
	if !all {
		b.S(" AND ")
		d.series(b, ids)
	}
	if end > start {
		b.S(" AND t >= ").P(start).S(" AND t < ").P(end)
	}
}

// Rows is what Collect reads: *sql.Rows and pgx.Rows both are.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Collect adds the (time, value) rows of q's statement to a Result. A NULL
// or text value counts as 0; with SkipNullAggregates a NULL aggregate is no
// row.
func (d *Dialect) Collect(rows Rows, q *ts.Query) (ts.Result, error) {
	var (
		res ts.Result
		tm  int64
		v   any
	)
	skip := d.SkipNullAggregates && q.Kind.Aggregates()
	for rows.Next() {
		if err := rows.Scan(&tm, &v); err != nil {
			return ts.Result{}, err
		}
		if v == nil && skip {
			continue
		}
		res.Add(tm, Number(v))
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, err
	}
	d.Finish(&res, q)
	return res, nil
}

// Finish clears the first and last times of a result whose rows have no
// defined time order (aggregates but a bucket-limited Q7, and Q8), unless
// the dialect KeepsTimes.
func (d *Dialect) Finish(res *ts.Result, q *ts.Query) {
	if !d.KeepTimes && (q.Kind.Aggregates() && q.Limit == 0 || q.Kind == ts.LatestPoint) {
		res.First, res.Last = 0, 0
	}
}

// Number is the numeric value of a scanned column: integers (booleans are
// stored as 0/1) and floats as they are, numbers the driver sent as text
// parsed, anything else (text values, NULL) 0.
func Number(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case int32:
		return float64(x)
	case float32:
		return float64(x)
	case []byte:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	}
	return 0
}
