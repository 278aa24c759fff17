package cassandra

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs a supported query kind device by device (and sensor by sensor
// for value filters); unsupported kinds return targets.ErrUnsupported.
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	if !Driver.Caps.SupportsQuery(q.Kind) {
		return ts.Result{}, fmt.Errorf("cassandra: %s: %w (CQL cannot express it without a full scan)", q.Kind, targets.ErrUnsupported)
	}
	s, err := t.binding.Lock(&t.mu)
	if err != nil {
		return ts.Result{}, err
	}
	defer t.mu.Unlock()
	var total ts.Result
	for _, d := range q.Devices {
		for _, sens := range targets.SensorSets(q) {
			r, err := t.run(ctx, s, q, d.Name, sens)
			if err != nil {
				return ts.Result{}, err
			}
			total.Merge(r, q.Kind.Descending())
		}
	}
	if q.Kind.Aggregates() {
		total.First, total.Last = 0, 0
	}
	return total, nil
}

func (t *Target) run(ctx context.Context, s *ts.Schema, q *ts.Query, device string, sensors []int) (ts.Result, error) {
	stmt := t.statement(s, q, sensors)
	iter := t.session.Query(stmt, device).WithContext(ctx).PageSize(0).Iter()
	res, err := scanResult(iter, q)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	if err := iter.Close(); err != nil {
		return ts.Result{}, t.wrap(q.Kind.String()+": "+stmt, err)
	}
	return res, nil
}

// statement is the CQL of q over sensors of one device (bound as ?), within
// the day partitions q's range covers.
func (t *Target) statement(s *ts.Schema, q *ts.Query, sensors []int) string {
	cols := make([]string, len(sensors))
	for i, sn := range sensors {
		cols[i] = t.cols[sn]
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	where := " FROM " + t.table() + " WHERE device = ? AND day IN " + daysOf(q.Start, q.End) +
		" AND t >= " + i64(q.Start) + " AND t < " + i64(q.End)
	filter := ""
	if q.Kind.HasValueFilter() {
		filter = " AND " + cols[0] + " > " + strconv.FormatFloat(q.Lower, 'f', -1, 64)
		if typ := s.Sensors[sensors[0]].Type; typ == ts.Int32 || typ == ts.Int64 {
			filter = " AND " + cols[0] + " > " + i64(int64(floor(q.Lower)))
		}
	}
	var stmt string
	switch q.Kind {
	case ts.PrecisePoint:
		stmt = "SELECT t, " + strings.Join(cols, ", ") + " FROM " + t.table() + " WHERE device = ? AND day = " +
			i64(q.Start/dayMs) + " AND t = " + i64(q.Start)
	case ts.TimeRange, ts.ValueRange:
		stmt = "SELECT t, " + strings.Join(cols, ", ") + where + filter
	case ts.RangeQueryDesc, ts.ValueRangeQueryDesc:
		stmt = "SELECT t, " + strings.Join(cols, ", ") + where + filter + " ORDER BY t DESC"
	case ts.AggRange, ts.AggRangeValue:
		// count first: a series without matching points returns nothing.
		fn := [...]string{"count", "sum", "avg", "min", "max"}[q.Agg]
		var aggs []string
		for _, c := range cols {
			arg := c
			if q.Agg == ts.Sum || q.Agg == ts.Avg {
				// CQL sums and averages in the column's own type:
				// integer averages truncate, float ones lose digits.
				arg = "cast(" + c + " as double)"
			}
			aggs = append(aggs, "count("+c+")", fn+"("+arg+")")
		}
		stmt = "SELECT " + strings.Join(aggs, ", ") + where + filter
	}
	if filter != "" {
		stmt += " ALLOW FILTERING"
	}
	return stmt
}

// scanResult reads iter's rows into q's result: a point per non-null cell,
// or, for an aggregate, the aggregate of each series that has points. The
// caller closes iter, whose error it reports.
func scanResult(iter *gocql.Iter, q *ts.Query) (ts.Result, error) {
	rd, err := iter.RowData()
	if err != nil {
		iter.Close()
		return ts.Result{}, err
	}
	// Scan into pointers to the columns' pointers: gocql sets a pointer to
	// nil for a NULL (an empty cell of a sparse row), where scanning into
	// the value itself would give the type's zero.
	dst := make([]any, len(rd.Values))
	for i, v := range rd.Values {
		dst[i] = reflect.New(reflect.TypeOf(v)).Interface()
	}
	var res ts.Result
	for iter.Scan(dst...) {
		vals := make([]float64, len(dst))
		null := make([]bool, len(dst))
		for i, d := range dst {
			if p := reflect.ValueOf(d).Elem(); p.IsNil() {
				null[i] = true
			} else {
				vals[i], null[i] = number(p.Interface())
			}
		}
		if q.Kind.Aggregates() {
			for i := 0; i+1 < len(vals); i += 2 {
				if vals[i] > 0 { // count of the series
					res.Add(0, vals[i+1])
				}
			}
			continue
		}
		for i := 1; i < len(vals); i++ {
			if !null[i] {
				res.Add(int64(vals[0]), vals[i])
			}
		}
	}
	return res, nil
}

func floor(v float64) float64 {
	i := float64(int64(v))
	if v < 0 && i != v {
		return i - 1
	}
	return i
}

// number dereferences a scanned value: booleans 0/1, text 0; true when null.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case *bool:
		if x == nil {
			return 0, true
		}
		if *x {
			return 1, false
		}
		return 0, false
	case *int:
		return float64(*x), false
	case *int32:
		return float64(*x), false
	case *int64:
		return float64(*x), false
	case *float32:
		return float64(*x), false
	case *float64:
		return *x, false
	case *string:
		return 0, false
	}
	return 0, true
}

// Count counts the values present: count(column) of every sensor, which
// skips the empty cells of sparse rows (rows x sensors would count them).
// With no time range it counts the whole table (or filters by device),
// which scans.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	s, err := t.binding.Lock(&t.mu)
	if err != nil {
		return 0, err
	}
	defer t.mu.Unlock()
	counts := make([]string, len(s.Sensors))
	for i := range s.Sensors {
		counts[i] = "count(" + t.cols[i] + ")"
	}
	sel := "SELECT " + strings.Join(counts, ", ") + " FROM " + t.table()
	var total int64
	count := func(stmt string, args ...any) error {
		ns := make([]int64, len(counts))
		dst := make([]any, len(ns))
		for i := range ns {
			dst[i] = &ns[i]
		}
		if err := t.session.Query(stmt, args...).WithContext(ctx).Scan(dst...); err != nil {
			return t.wrap("count", err)
		}
		for _, n := range ns {
			total += n
		}
		return nil
	}
	switch {
	case r.End > r.Start:
		for _, d := range r.Devices {
			if err := count(sel+" WHERE device = ? AND day IN "+daysOf(r.Start, r.End)+
				" AND t >= ? AND t < ?", d.Name, r.Start, r.End); err != nil {
				return 0, err
			}
		}
	case len(r.Devices) > 0 && len(r.Devices) < len(s.Devices):
		for _, d := range r.Devices {
			if err := count(sel+" WHERE device = ? ALLOW FILTERING", d.Name); err != nil {
				return 0, err
			}
		}
	default:
		if err := count(sel); err != nil {
			return 0, err
		}
	}
	return total, nil
}
