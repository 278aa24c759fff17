package influxdb

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	names, err := t.server()
	if err != nil {
		return ts.Result{}, err
	}
	s, q := names.srv, names.onServer(q)
	if q.Across {
		return t.across(ctx, s, q)
	}
	// One statement per sensor set: InfluxQL's WHERE on fields filters rows.
	var total ts.Result
	for _, sens := range targets.SensorSets(q) {
		one := *q
		one.Sensors = sens
		r, err := t.query(ctx, s, &one)
		if err != nil {
			return ts.Result{}, err
		}
		total.Merge(r, q.Kind.Descending())
	}
	return finish(q, total), nil
}

func finish(q *ts.Query, r ts.Result) ts.Result {
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		r.First, r.Last = 0, 0
	}
	return r
}

// ask makes q's statement with build and runs it.
func (t *Target) ask(ctx context.Context, s *ts.Schema, q *ts.Query, build func(*ts.Schema, *ts.Query) (string, error)) (string, *response, error) {
	stmt, err := build(s, q)
	if err != nil {
		return "", nil, err
	}
	resp, err := t.influxql(ctx, stmt)
	return stmt, resp, err
}

func (t *Target) query(ctx context.Context, s *ts.Schema, q *ts.Query) (ts.Result, error) {
	_, resp, err := t.ask(ctx, s, q, influxQL)
	if err != nil {
		return ts.Result{}, err
	}
	// Each measurement (group) comes as a series of its own, in time order:
	// merged, so that the first and last times are the extremes over all
	// of them (sparse series do not all start at the same time).
	var res ts.Result
	for _, r := range resp.Results {
		for _, se := range r.Series {
			var one ts.Result
			for _, row := range se.Values {
				tm := int64(num(row[0]))
				for _, v := range row[1:] {
					if v == nil {
						continue
					}
					x := num(v)
					if q.Kind.Aggregates() && q.Agg == ts.Count && x == 0 {
						continue // a series or bucket without matching points
					}
					one.Add(tm, x)
				}
			}
			res.Merge(one, q.Kind.Descending())
		}
	}
	return res, nil
}

// across answers a Q7 with Across (and Limit). InfluxQL aggregates over
// every series a statement selects within a measurement, but never across
// measurements: a FROM of several, even in a subquery, answers one series
// per measurement. So the statement leaves out GROUP BY device — each
// measurement returns its buckets over all of its selected devices — and
// clientside.Partials combines the measurements' buckets. When the devices
// share a group (TSBS's hosts all do) the server's answer is the whole one.
// Avg asks for sum and count: a mean of the measurements' means would weigh
// them wrongly. With a limit each measurement returns its Limit newest
// buckets, which hold every point of the overall Limit newest ones.
func (t *Target) across(ctx context.Context, s *ts.Schema, q *ts.Query) (ts.Result, error) {
	stmt, resp, err := t.ask(ctx, s, q, acrossQL)
	if err != nil {
		return ts.Result{}, err
	}
	per := 1 // columns per sensor after time
	if q.Agg == ts.Avg {
		per = 2 // sum, count
	}
	p := clientside.NewPartials(q)
	for _, r := range resp.Results {
		for _, se := range r.Series {
			for _, row := range se.Values {
				if len(row) != 1+per*len(q.Sensors) {
					return ts.Result{}, fmt.Errorf("influxdb: %s: a row of %d columns, want %d", stmt, len(row), 1+per*len(q.Sensors))
				}
				tm := int64(num(row[0]))
				for i := range q.Sensors {
					v := row[1+per*i]
					if v == nil {
						continue // no point of this sensor in the bucket
					}
					var n int64
					if q.Agg == ts.Avg {
						n = int64(num(row[2+per*i]))
					}
					if q.Agg == ts.Count && num(v) == 0 || q.Agg == ts.Avg && n == 0 {
						continue // counted nothing: as good as no point
					}
					p.Add(i, tm, num(v), n)
				}
			}
		}
	}
	return p.Result(), nil
}

// acrossQL is across's statement: q's aggregate of each sensor per bucket
// from q.BucketOrigin(), over every selected device of a measurement; with a
// limit, newest bucket first.
func acrossQL(s *ts.Schema, q *ts.Query) (string, error) {
	if q.Bucket <= 0 {
		return "", fmt.Errorf("influxdb: GROUP_BY bucket %d must be positive", q.Bucket)
	}
	fn, err := aggFunc(q.Agg)
	if err != nil {
		return "", err
	}
	var cols []string
	for _, sn := range q.Sensors {
		f := field(s.Sensors[sn].Name)
		if q.Agg == ts.Avg {
			cols = append(cols, "sum("+f+")", "count("+f+")")
		} else {
			cols = append(cols, fn+"("+f+")")
		}
	}
	from, devs := sources(s, q.Devices)
	ms := func(v int64) string { return strconv.FormatInt(v, 10) + "ms" }
	stmt := "SELECT " + strings.Join(cols, ", ") + " FROM " + from + " WHERE (" + devs + ")" +
		" AND time >= " + ms(q.Start) + " AND time < " + ms(q.End) +
		" GROUP BY time(" + ms(q.Bucket) + ", " + ms(bucketOffset(q)) + ") fill(none)"
	if q.Limit > 0 {
		// LIMIT counts the rows of each measurement's series: its buckets.
		stmt += " ORDER BY time DESC LIMIT " + strconv.Itoa(q.Limit)
	}
	return stmt, nil
}

// num reads a JSON value as a number: booleans as 0/1, strings as 0.
func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

// influxQL translates a query.
func influxQL(s *ts.Schema, q *ts.Query) (string, error) {
	fields := make([]string, len(q.Sensors))
	for i, sn := range q.Sensors {
		fields[i] = field(s.Sensors[sn].Name)
	}
	from, devs := sources(s, q.Devices)
	where := "(" + devs + ")"
	ms := func(v int64) string { return strconv.FormatInt(v, 10) + "ms" }
	rng := " AND time >= " + ms(q.Start) + " AND time < " + ms(q.End)
	val := ""
	if q.Kind.HasValueFilter() {
		val = " AND " + fields[0] + " > " + strconv.FormatFloat(q.Lower, 'g', -1, 64)
	}
	order := ""
	if q.Kind.Descending() {
		order = " ORDER BY time DESC"
	}
	sel := "SELECT " + strings.Join(fields, ", ") + " FROM " + from + " WHERE " + where
	switch q.Kind {
	case ts.PrecisePoint:
		return sel + " AND time = " + ms(q.Start), nil
	case ts.TimeRange, ts.RangeQueryDesc, ts.ValueRange, ts.ValueRangeQueryDesc:
		return sel + rng + val + order, nil
	case ts.LatestPoint:
		return "SELECT " + wrap("last", fields) + " FROM " + from + " WHERE " + where + " GROUP BY device", nil
	}
	fn, err := aggFunc(q.Agg)
	if err != nil {
		return "", err
	}
	agg := "SELECT " + wrap(fn, fields) + " FROM " + from + " WHERE " + where
	switch q.Kind {
	case ts.AggRange:
		return agg + rng + " GROUP BY device", nil
	case ts.AggValue:
		return agg + val + " GROUP BY device", nil
	case ts.AggRangeValue:
		return agg + rng + val + " GROUP BY device", nil
	case ts.GroupBy:
		if q.Bucket <= 0 {
			return "", fmt.Errorf("influxdb: GROUP_BY bucket %d must be positive", q.Bucket)
		}
		return agg + rng + " GROUP BY time(" + ms(q.Bucket) + ", " + ms(bucketOffset(q)) + "), device fill(none)", nil
	}
	return "", fmt.Errorf("influxdb: query kind %s: unknown", q.Kind)
}

// bucketOffset is GROUP BY time's offset for q: InfluxDB aligns buckets to
// the epoch, and the offset, in [0, Bucket), moves them to the query's
// bucket origin (Start, or the epoch itself with ClockBuckets).
func bucketOffset(q *ts.Query) int64 {
	return ((q.BucketOrigin() % q.Bucket) + q.Bucket) % q.Bucket
}

func wrap(fn string, fields []string) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = fn + "(" + f + ")"
	}
	return strings.Join(out, ", ")
}

// sources lists the measurements of the devices and the device condition.
func sources(s *ts.Schema, devs []*ts.Device) (from, cond string) {
	seen := map[string]bool{}
	var ms, conds []string
	for _, d := range devs {
		m := measurement(s, d)
		if !seen[m] {
			seen[m] = true
			ms = append(ms, ident(m))
		}
		conds = append(conds, deviceTag+" = "+literal(d.Name))
	}
	sort.Strings(ms)
	if len(conds) == 0 {
		conds = []string{deviceTag + " = ''"}
	}
	if len(ms) == 0 {
		ms = []string{ident("points")}
	}
	return strings.Join(ms, ", "), strings.Join(conds, " OR ")
}

// aggFuncs are InfluxQL's aggregate functions.
var aggFuncs = targets.AggregateNames{Count: "count", Sum: "sum", Avg: "mean", Min: "min", Max: "max"}

func aggFunc(a ts.Aggregate) (string, error) { return aggFuncs.Of("influxdb", a) }

// Count adds up count(field) over every field of the selected devices.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	names, err := t.server()
	if err != nil {
		return 0, err
	}
	s := names.srv
	r.Devices = names.serverDevices(r.Devices)
	var from, where string
	if len(r.Devices) > 0 {
		var devs string
		from, devs = sources(s, r.Devices)
		where = " WHERE (" + devs + ")"
	} else {
		var ms []string
		for _, g := range s.Groups {
			ms = append(ms, ident(g))
		}
		from = strings.Join(ms, ", ")
	}
	if r.End > r.Start {
		cond := "time >= " + strconv.FormatInt(r.Start, 10) + "ms AND time < " + strconv.FormatInt(r.End, 10) + "ms"
		if where == "" {
			where = " WHERE " + cond
		} else {
			where += " AND " + cond
		}
	}
	resp, err := t.influxql(ctx, "SELECT count(*) FROM "+from+where)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, res := range resp.Results {
		for _, se := range res.Series {
			for _, row := range se.Values {
				for _, v := range row[1:] {
					n += int64(num(v))
				}
			}
		}
	}
	return n, nil
}
