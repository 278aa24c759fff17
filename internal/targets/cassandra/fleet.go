package cassandra

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gocql/gocql"
	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// the way TSBS's own Cassandra client does: CQL can neither group by tags
// nor find driving sessions, so TSBS's Cassandra iot queries read the rows
// and compute the answer in the client. Here too: CQL reads each truck's
// points of the question's fields in [Start, End) (for low-fuel and
// high-load, each truck's newest point of the field), and fleet.Answer
// computes the rows from what the server returned. The truck tags are the
// schema's (the table stores no tags, as TSBS's Cassandra keeps them in
// its series id, outside the rows), and trucks of other fleets are not
// read for the questions about one fleet.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	s, err := t.binding.Lock(&t.mu)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	fields, cols, err := clientside.FleetColumns(q, s, func(sn int, _ string) string { return t.cols[sn] })
	if err != nil {
		return nil, fmt.Errorf("cassandra: fleet query: %w", err)
	}
	devs := clientside.FleetTrucks(q)
	newest := q.Fleet.Kind == ts.LowFuel || q.Fleet.Kind == ts.HighLoad
	var days map[string][]int64
	if newest && len(devs) > 0 {
		if days, err = t.partitionDays(ctx); err != nil {
			return nil, fmt.Errorf("cassandra: fleet query %s: %w", q.Fleet.Kind, err)
		}
	}
	trucks := make([]fleet.Truck, 0, len(devs))
	for _, d := range devs {
		tr := fleet.Truck{Tags: fleet.TagsOf(d), Points: map[string][]fleet.Point{}}
		var pts [][]fleet.Point
		if newest {
			pts, err = t.newestPoint(ctx, d.Name, cols[0], days[d.Name])
		} else {
			pts, err = t.pointsIn(ctx, d.Name, cols, q.Start, q.End)
		}
		if err != nil {
			return nil, fmt.Errorf("cassandra: fleet query %s of %s: %w", q.Fleet.Kind, d.Name, err)
		}
		for i, f := range fields {
			tr.Points[f] = pts[i]
		}
		trucks = append(trucks, tr)
	}
	return fleet.Answer(q, trucks), nil
}

// partitionDays lists every device's day partitions, newest first. A
// device's newest point may lie in any of its partitions, and CQL finds a
// device's partitions only by scanning the partition keys: one SELECT
// DISTINCT of the keys per question (it reads one key per device and day,
// not the rows), rather than one filtering scan per truck.
func (t *Target) partitionDays(ctx context.Context) (map[string][]int64, error) {
	iter := t.session.Query("SELECT DISTINCT device, day FROM " + t.table()).WithContext(ctx).Iter()
	days := map[string][]int64{}
	var dev string
	var day int64
	for iter.Scan(&dev, &day) {
		days[dev] = append(days[dev], day)
	}
	if err := iter.Close(); err != nil {
		return nil, t.wrap("list partitions", err)
	}
	for _, ds := range days {
		slices.SortFunc(ds, func(a, b int64) int { return int(b - a) }) // days are small: no overflow
	}
	return days, nil
}

// newestPoint is the newest point of column c of device (as one series),
// from its day partitions newest first (days): each is read newest row
// first until a row holds the field, a few rows a page, since a row
// without it (a missing value) is rare.
func (t *Target) newestPoint(ctx context.Context, device, c string, days []int64) ([][]fleet.Point, error) {
	for _, day := range days {
		stmt := "SELECT t, " + c + " FROM " + t.table() + " WHERE device = ? AND day = ? ORDER BY t DESC"
		var found []fleet.Point
		err := t.scan(ctx, t.session.Query(stmt, device, day).PageSize(16), func(tm int64, vals []float64, null []bool) bool {
			if null[0] {
				return true
			}
			found = []fleet.Point{{T: tm, V: vals[0]}}
			return false
		})
		if err != nil {
			return nil, err
		}
		if found != nil {
			return [][]fleet.Point{found}, nil
		}
	}
	return [][]fleet.Point{nil}, nil
}

// pointsIn reads device's points of columns cols in [start, end) from the
// day partitions the window touches: one series per column, in time
// order, a row's empty cell no point.
func (t *Target) pointsIn(ctx context.Context, device string, cols []string, start, end int64) ([][]fleet.Point, error) {
	out := make([][]fleet.Point, len(cols))
	if end <= start {
		return out, nil
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	stmt := "SELECT t, " + strings.Join(cols, ", ") + " FROM " + t.table() + " WHERE device = ? AND day IN " +
		daysOf(start, end) + " AND t >= " + i64(start) + " AND t < " + i64(end)
	err := t.scan(ctx, t.session.Query(stmt, device).PageSize(5000), func(tm int64, vals []float64, null []bool) bool {
		for i := range cols {
			if !null[i] {
				out[i] = append(out[i], fleet.Point{T: tm, V: vals[i]})
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	// Each partition's rows come in time order, but the order of the
	// partitions an IN lists is the server's: sort.
	for i := range out {
		slices.SortStableFunc(out[i], func(a, b fleet.Point) int { return int(a.T - b.T) }) // one device's times: no overflow
	}
	return out, nil
}

// scan runs a statement whose rows are a time then values, calling f with
// each row's numbers and which of them are NULL until f returns false.
// The values are scanned through pointers, which gocql sets to nil for an
// empty cell, whatever the column's type.
func (t *Target) scan(ctx context.Context, q *gocql.Query, f func(tm int64, vals []float64, null []bool) bool) error {
	iter := q.WithContext(ctx).Iter()
	rd, err := iter.RowData()
	if err != nil {
		iter.Close()
		return t.wrap("read points", err)
	}
	dst := make([]any, len(rd.Values))
	for i, v := range rd.Values {
		dst[i] = reflect.New(reflect.TypeOf(v)).Interface()
	}
	vals := make([]float64, len(dst)-1)
	null := make([]bool, len(dst)-1)
	for iter.Scan(dst...) {
		var tm float64
		for i, d := range dst {
			var v float64
			var isNull bool
			if p := reflect.ValueOf(d).Elem(); p.IsNil() {
				isNull = true
			} else {
				v, isNull = number(p.Interface())
			}
			if i == 0 {
				tm = v
				continue
			}
			vals[i-1], null[i-1] = v, isNull
		}
		if !f(int64(tm), vals, null) {
			break
		}
	}
	if err := iter.Close(); err != nil {
		return t.wrap("read points", err)
	}
	return nil
}
