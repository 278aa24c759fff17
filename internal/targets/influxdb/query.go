package influxdb

import (
	"context"
	"fmt"
	"sort"
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
	if q.Kind.HasValueFilter() {
		// One statement per sensor: InfluxQL's WHERE on fields filters rows.
		var total ts.Result
		for _, sn := range q.Sensors {
			one := *q
			one.Sensors = []int{sn}
			r, err := t.query(ctx, s, &one)
			if err != nil {
				return ts.Result{}, err
			}
			total.Merge(r, q.Kind.Descending())
		}
		return finish(q, total), nil
	}
	r, err := t.query(ctx, s, q)
	if err != nil {
		return ts.Result{}, err
	}
	return finish(q, r), nil
}

func finish(q *ts.Query, r ts.Result) ts.Result {
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		r.First, r.Last = 0, 0
	}
	return r
}

func (t *Target) query(ctx context.Context, s *ts.Schema, q *ts.Query) (ts.Result, error) {
	stmt, err := influxQL(s, q)
	if err != nil {
		return ts.Result{}, err
	}
	resp, err := t.influxql(ctx, stmt)
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
		fields[i] = ident(s.Sensors[sn].Name)
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
		// InfluxDB aligns buckets to the epoch; the offset moves them to Start.
		offset := ((q.Start % q.Bucket) + q.Bucket) % q.Bucket
		return agg + rng + " GROUP BY time(" + ms(q.Bucket) + ", " + ms(offset) + "), device fill(none)", nil
	}
	return "", fmt.Errorf("influxdb: query kind %s: unknown", q.Kind)
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
		conds = append(conds, "device = "+literal(d.Name))
	}
	sort.Strings(ms)
	if len(conds) == 0 {
		conds = []string{"device = ''"}
	}
	if len(ms) == 0 {
		ms = []string{ident("points")}
	}
	return strings.Join(ms, ", "), strings.Join(conds, " OR ")
}

func aggFunc(a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count:
		return "count", nil
	case ts.Sum:
		return "sum", nil
	case ts.Avg:
		return "mean", nil
	case ts.Min:
		return "min", nil
	case ts.Max:
		return "max", nil
	}
	return "", fmt.Errorf("influxdb: aggregate %s: unknown", a)
}

// Count adds up count(field) over every field of the selected devices.
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	s, err := t.binding.Schema()
	t.mu.Unlock()
	if err != nil {
		return 0, err
	}
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
