package iotdb

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/iotdb-client-go/v2/client"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	s, devs, err := t.lockPaths(q.Devices)
	if err != nil {
		return ts.Result{}, err
	}
	defer t.mu.Unlock()
	var total ts.Result
	if q.Across {
		r, err := t.run(ctx, acrossStatement(s, t.measurements(), q, devs), q)
		if err != nil {
			return ts.Result{}, err
		}
		if q.Limit == 0 {
			r.First, r.Last = 0, 0 // the order of buckets is not asked for
		}
		return r, nil
	}
	if q.Kind.HasValueFilter() {
		// One statement per series: a filter on s_1 over several devices
		// would keep only times where every device passes.
		for _, d := range devs {
			for _, sn := range q.Sensors {
				r, err := t.run(ctx, statement(s, t.measurements(), q, []string{d}, []int{sn}), q)
				if err != nil {
					return ts.Result{}, err
				}
				total.Merge(r, q.Kind.Descending())
			}
		}
	} else {
		if total, err = t.run(ctx, statement(s, t.measurements(), q, devs, q.Sensors), q); err != nil {
			return ts.Result{}, err
		}
	}
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		total.First, total.Last = 0, 0
	}
	return total, nil
}

// measurements are the bound schema's sensors' measurements, quoted.
// t.mu must be held.
func (t *Target) measurements() []string {
	out := make([]string, len(t.schemas))
	for i, m := range t.schemas {
		out[i] = m.Measurement
	}
	return out
}

// statement translates a query for the given device paths and sensors;
// meas are the schema's sensors' measurements, quoted.
func statement(s *ts.Schema, meas []string, q *ts.Query, devs []string, sensors []int) string {
	names := make([]string, len(sensors))
	for i, sn := range sensors {
		names[i] = meas[sn]
	}
	from := " FROM " + strings.Join(devs, ", ")
	ms := func(v int64) string { return strconv.FormatInt(v, 10) }
	rng := " WHERE time >= " + ms(q.Start) + " AND time < " + ms(q.End)
	val := ""
	if q.Kind.HasValueFilter() {
		lower := strconv.FormatFloat(q.Lower, 'f', -1, 64)
		if typ := s.Sensors[sensors[0]].Type; typ == ts.Int32 || typ == ts.Int64 {
			// IoTDB will not compare an integer with 20.5; for integers
			// v > 20.5 is exactly v > 20.
			lower = strconv.FormatFloat(math.Floor(q.Lower), 'f', 0, 64)
		}
		val = names[0] + " > " + lower
	}
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT " + strings.Join(names, ", ") + from + " WHERE time = " + ms(q.Start)
	case ts.TimeRange:
		return "SELECT " + strings.Join(names, ", ") + from + rng
	case ts.RangeQueryDesc:
		return "SELECT " + strings.Join(names, ", ") + from + rng + " ORDER BY TIME DESC"
	case ts.ValueRange:
		return "SELECT " + strings.Join(names, ", ") + from + rng + " AND " + val
	case ts.ValueRangeQueryDesc:
		return "SELECT " + strings.Join(names, ", ") + from + rng + " AND " + val + " ORDER BY TIME DESC"
	case ts.LatestPoint:
		return "SELECT LAST " + strings.Join(names, ", ") + from
	}
	aggs := make([]string, len(names))
	for i, n := range names {
		aggs[i] = aggFunc(q.Agg) + "(" + n + ")"
	}
	sel := "SELECT " + strings.Join(aggs, ", ") + from
	switch q.Kind {
	case ts.AggRange:
		return sel + rng
	case ts.AggValue:
		return sel + " WHERE " + val
	case ts.AggRangeValue:
		return sel + rng + " AND " + val
	}
	b := max(q.Bucket, 1)
	if q.ClockBuckets {
		// IoTDB's windows start at the GROUP BY's start: from Start's clock
		// bucket, the rows before Start left out by the WHERE.
		return sel + rng + " GROUP BY ([" + ms(q.Start/b*b) + ", " + ms(q.End) + "), " + ms(b) + "ms)"
	}
	return sel + " GROUP BY ([" + ms(q.Start) + ", " + ms(q.End) + "), " + ms(b) + "ms)"
}

// acrossStatement translates a Q7 with Across: GROUP BY LEVEL = 0 merges
// the buckets of every selected series with the same measurement name (the
// level kept is root, which all share), and aggregates over exactly the
// query's devices because the FROM lists only them — no client-side
// reduction. An average is the server's over all the points, not a mean of
// means. A limit keeps only buckets that hold a point (HAVING count > 0:
// GROUP BY returns empty buckets too) and returns the newest first.
func acrossStatement(s *ts.Schema, meas []string, q *ts.Query, devs []string) string {
	sel := statement(s, meas, q, devs, q.Sensors) + ", LEVEL = 0"
	if q.Limit > 0 && len(q.Sensors) > 0 {
		// The limit's one sensor (checkGroupByLimit): its count says
		// whether a bucket holds a point.
		sel += " HAVING count(" + meas[q.Sensors[0]] + ") > 0 ORDER BY TIME DESC LIMIT " + strconv.Itoa(q.Limit)
	}
	return sel
}

func aggFunc(a ts.Aggregate) string {
	return [...]string{"count", "sum", "avg", "min_value", "max_value"}[a]
}

// run executes a statement and adds up its non-null values. Aggregates drop
// zero counts and nulls: series or buckets without points.
func (t *Target) run(ctx context.Context, sql string, q *ts.Query) (ts.Result, error) {
	ds, err := t.session.ExecuteStatementWithContext(ctx, sql)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String()+": "+sql, err)
	}
	defer ds.Close()
	// A GROUP BY LEVEL answer names its merged column once per series
	// merged into it (max_value(root.*.*.*.s_4) for each device), and every
	// name reads the one column: each is read once.
	cols := distinct(ds.GetColumnNames())
	var res ts.Result
	for {
		ok, err := ds.Next()
		if err != nil {
			return ts.Result{}, t.wrap(q.Kind.String(), err)
		}
		if !ok {
			break
		}
		tm := int64(0)
		if len(cols) > 0 && cols[0] == "Time" {
			tm = ds.GetCurrentRowTime().UnixMilli()
		}
		if q.Kind == ts.LatestPoint {
			v, err := ds.GetString("Value")
			if err != nil {
				return ts.Result{}, t.wrap(q.Kind.String(), err)
			}
			typ, err := ds.GetString("DataType")
			if err != nil {
				return ts.Result{}, t.wrap(q.Kind.String(), err)
			}
			res.Add(0, parse(v, typ))
			continue
		}
		for _, c := range cols {
			if c == "Time" {
				continue
			}
			v, err := ds.GetObject(c)
			if err != nil {
				return ts.Result{}, t.wrap(q.Kind.String(), err)
			}
			x, ok := number(v)
			if !ok || (q.Kind.Aggregates() && q.Agg == ts.Count && x == 0) {
				continue
			}
			res.Add(tm, x)
		}
	}
	return res, nil
}

// distinct lists names without their repetitions, in order.
func distinct(names []string) []string {
	seen := make(map[string]bool, len(names))
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// number reads a result value as targets.Number does; a nil *client.Binary
// (a text column's NULL) is NULL too.
func number(v any) (float64, bool) {
	if b, isText := v.(*client.Binary); isText && b == nil {
		return 0, false
	}
	return targets.Number(v)
}

// parse reads a LAST query's value column, always text, as the type its
// DataType column names: a FLOAT's text ("20.29") stands for the nearest
// float32, which the table holds and every other query returns
// (20.290000915...), not for the float64 20.29.
func parse(v, dataType string) float64 {
	switch v {
	case "true":
		return 1
	case "false":
		return 0
	}
	bits := 64
	if dataType == "FLOAT" {
		bits = 32
	}
	f, err := strconv.ParseFloat(v, bits)
	if err != nil {
		return 0 // a TEXT value
	}
	return f
}

// lockPaths takes the connection (Binding.Lock) and returns the bound
// schema with the device paths of devs it holds, in their order: what a
// statement reads FROM. On an error t.mu is released again; else the
// caller releases it.
func (t *Target) lockPaths(devs []*ts.Device) (*ts.Schema, []string, error) {
	s, err := t.binding.Lock(&t.mu)
	if err != nil {
		return nil, nil, err
	}
	var paths []string
	for _, d := range devs {
		if pos := s.DevicePos(d.Index); pos >= 0 {
			paths = append(paths, t.paths[pos])
		}
	}
	return s, paths, nil
}

// Count adds up count(*) over every series of the selected devices.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	s, from, err := t.lockPaths(r.Devices)
	if err != nil {
		return 0, err
	}
	defer t.mu.Unlock()
	if len(r.Devices) == 0 {
		from = []string{t.root() + ".**"}
	}
	// One count over tens of thousands of series (CRRC: 100 devices x 300
	// sensors) exceeds the DataNode's query memory. Count at most
	// countSeriesPerQuery series per statement, and fewer devices again when
	// the server still says it lacks memory.
	per := max(1, countSeriesPerQuery/max(1, len(s.Sensors)))
	return countInChunks(from, per, func(paths []string) (int64, error) { return t.countPaths(ctx, paths, r) })
}

// countInChunks adds up count over consecutive chunks of at most per paths,
// halving the chunk while count fails for want of server memory.
func countInChunks(from []string, per int, count func(paths []string) (int64, error)) (int64, error) {
	var n int64
	for len(from) > 0 {
		k := min(per, len(from))
		c, err := count(from[:k])
		if err != nil && k > 1 && isOutOfMemory(err) {
			per = k / 2
			continue
		}
		if err != nil {
			return 0, err
		}
		n += c
		from = from[k:]
	}
	return n, nil
}

// isOutOfMemory reports IoTDB's "not enough memory to execute current
// fragment instance" (status 719).
func isOutOfMemory(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "error code: 719") || strings.Contains(msg, "not enough memory")
}

// countSeriesPerQuery bounds the series one count statement covers.
const countSeriesPerQuery = 1000

// countPaths counts the points of the devices (or path patterns) in from.
func (t *Target) countPaths(ctx context.Context, from []string, r ts.CountRange) (int64, error) {
	sql := "SELECT count(*) FROM " + strings.Join(from, ", ")
	if r.End > r.Start {
		sql += fmt.Sprintf(" WHERE time >= %d AND time < %d", r.Start, r.End)
	}
	ds, err := t.session.ExecuteStatementWithContext(ctx, sql)
	if err != nil {
		return 0, t.wrap("count", err)
	}
	defer ds.Close()
	var n int64
	for {
		ok, err := ds.Next()
		if err != nil {
			return 0, t.wrap("count", err)
		}
		if !ok {
			break
		}
		for _, c := range ds.GetColumnNames() {
			if c == "Time" {
				continue
			}
			v, err := ds.GetObject(c)
			if err != nil {
				return 0, t.wrap("count", err)
			}
			x, _ := number(v)
			n += int64(x)
		}
	}
	return n, nil
}
