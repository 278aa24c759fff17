package questdb

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Query runs one of Q1..Q10 (see ts.Query for the semantics), once per
// table that holds queried devices, and once per sensor where a value filter
// applies (SQL's WHERE on several columns would keep only rows where all
// pass).
func (t *Target) Query(ctx context.Context, q *ts.Query) (ts.Result, error) {
	s, err := t.lockSQL(ctx)
	if err != nil {
		return ts.Result{}, err
	}
	defer t.mu.Unlock()
	if q.Across {
		return t.across(ctx, s, q)
	}
	var total ts.Result
	for _, tbl := range t.byTable(q.Devices) {
		for _, sens := range targets.SensorSets(q) {
			r, nulls, err := t.run(ctx, querySQL(s, t.names.sensors, q, tbl.name, tbl.devices, sens), q)
			if err != nil {
				return ts.Result{}, err
			}
			if q.Kind == ts.LatestPoint && nulls > 0 {
				// A device's last row lacks some sensor (sparse data): ask
				// each sensor for its last present value. Dense data never
				// comes here, and keeps one statement per table.
				r = ts.Result{}
				for _, sn := range sens {
					one, _, err := t.run(ctx, latestPresentSQL(s, t.names.sensors, tbl.name, tbl.devices, sn), q)
					if err != nil {
						return ts.Result{}, err
					}
					r.Merge(one, false)
				}
			}
			total.Merge(r, q.Kind.Descending())
		}
	}
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		total.First, total.Last = 0, 0
	}
	return total, nil
}

type tableDevices struct {
	name    string
	devices string // SQL list: 'd_0','d_3'
}

// byTable groups devices by the table of their group, in table order.
// t.mu must be held, a schema bound.
func (t *Target) byTable(devs []*ts.Device) []tableDevices {
	lists := map[string][]string{}
	var order []string
	for _, d := range devs {
		tbl := t.table(d)
		if _, ok := lists[tbl]; !ok {
			order = append(order, tbl)
		}
		lists[tbl] = append(lists[tbl], literal(d.Name))
	}
	out := make([]tableDevices, len(order))
	for i, tbl := range order {
		out[i] = tableDevices{tbl, strings.Join(lists[tbl], ",")}
	}
	return out
}

func micros(ms int64) string { return "cast(" + strconv.FormatInt(ms*1000, 10) + " as timestamp)" }

// querySQL builds a statement whose rows start with a time in milliseconds
// (0 for Q4-Q6 and Q8) followed by one value per sensor; columns are the
// schema's sensors' columns.
func querySQL(s *ts.Schema, columns []string, q *ts.Query, tbl, devices string, sensors []int) string {
	cols := make([]string, len(sensors))
	for i, sn := range sensors {
		cols[i] = quote(columns[sn])
	}
	from := " FROM " + quote(tbl) + " WHERE device IN (" + devices + ")"
	rng := " AND ts >= " + micros(q.Start) + " AND ts < " + micros(q.End)
	val := ""
	if q.Kind.HasValueFilter() {
		val = " AND " + cols[0] + " > " + strconv.FormatFloat(q.Lower, 'g', -1, 64)
	}
	tms := "cast(ts as long) / 1000"
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT " + tms + ", " + strings.Join(cols, ", ") + from + " AND ts = " + micros(q.Start)
	case ts.TimeRange, ts.ValueRange:
		return "SELECT " + tms + ", " + strings.Join(cols, ", ") + from + rng + val + " ORDER BY ts"
	case ts.RangeQueryDesc, ts.ValueRangeQueryDesc:
		return "SELECT " + tms + ", " + strings.Join(cols, ", ") + from + rng + val + " ORDER BY ts DESC"
	case ts.LatestPoint:
		return "SELECT 0, " + strings.Join(cols, ", ") + " FROM " + quote(tbl) + " WHERE " + symbolIn(colDevice, devices) +
			" LATEST ON ts PARTITION BY device"
	}
	aggs := make([]string, len(cols))
	for i, c := range cols {
		aggs[i] = aggFunc(q.Agg) + "(" + c + ")"
		if q.Agg == ts.Count {
			aggs[i] = countSQL(columns[sensors[i]], s.Sensors[sensors[i]].Type)
		}
	}
	switch q.Kind {
	case ts.AggRange:
		return "SELECT 0, device, " + strings.Join(aggs, ", ") + from + rng
	case ts.AggValue:
		return "SELECT 0, device, " + strings.Join(aggs, ", ") + from + val
	case ts.AggRangeValue:
		return "SELECT 0, device, " + strings.Join(aggs, ", ") + from + rng + val
	}
	// GROUP_BY: buckets from the query's bucket origin (the window start,
	// or the epoch), by arithmetic on the time.
	b := strconv.FormatInt(max(q.Bucket, 1), 10)
	st := strconv.FormatInt(q.BucketOrigin(), 10)
	bucket := "(" + tms + " - " + st + ") / " + b
	return "SELECT " + st + " + " + bucket + " * " + b + " bt, device, " + bucket + " bk, " + strings.Join(aggs, ", ") +
		from + rng + " GROUP BY bt, device, bk ORDER BY bt"
}

// across answers a Q7 with Across (and Limit): per table, one statement
// groups the rows of all its queried devices by bucket alone. Devices of
// several groups live in several tables, whose buckets
// clientside.Partials combines (a UNION ALL would meet a sensor's column
// typed INT in one table and BOOLEAN in another: see nullableBools); TSBS's
// hosts share one table, whose answer is the whole one. With a limit each
// table returns its Limit newest buckets, which hold every point of the
// overall Limit newest ones.
func (t *Target) across(ctx context.Context, s *ts.Schema, q *ts.Query) (ts.Result, error) {
	p := clientside.NewPartials(q)
	for _, tbl := range t.byTable(q.Devices) {
		sql := acrossSQL(s, t.names.sensors, q, tbl.name, tbl.devices)
		if err := t.addPartials(ctx, sql, q, p); err != nil {
			return ts.Result{}, err
		}
	}
	return p.Result(), nil
}

// acrossSQL is across's statement for one table: rows of the bucket time
// in milliseconds, the bucket number, then per sensor q's aggregate (for
// Avg, sum and count); with a limit the newest Limit buckets, newest first.
// columns are the schema's sensors' columns.
func acrossSQL(s *ts.Schema, columns []string, q *ts.Query, tbl, devices string) string {
	var aggs []string
	for _, sn := range q.Sensors {
		col := quote(columns[sn])
		typ := s.Sensors[sn].Type
		switch q.Agg {
		case ts.Count:
			aggs = append(aggs, countSQL(columns[sn], typ))
		case ts.Avg:
			aggs = append(aggs, "sum("+col+")", countSQL(columns[sn], typ))
		default:
			aggs = append(aggs, aggFunc(q.Agg)+"("+col+")")
		}
	}
	// Buckets from the bucket origin, by arithmetic on the time as Q7's.
	b := strconv.FormatInt(max(q.Bucket, 1), 10)
	st := strconv.FormatInt(q.BucketOrigin(), 10)
	bucket := "(cast(ts as long) / 1000 - " + st + ") / " + b
	where := " WHERE device IN (" + devices + ") AND ts >= " + micros(q.Start) + " AND ts < " + micros(q.End)
	order := " ORDER BY bt"
	if q.Limit > 0 {
		// A bucket whose rows all lack the sensor (sparse data) would take
		// a place in the limit with a NULL: rows without it are left out,
		// which a limit's one sensor (checkGroupByLimit) allows.
		if len(q.Sensors) == 1 {
			where += " AND " + present(columns[q.Sensors[0]], s.Sensors[q.Sensors[0]].Type)
		}
		order += " DESC LIMIT " + strconv.Itoa(q.Limit)
	}
	return "SELECT " + st + " + " + bucket + " * " + b + " bt, " + bucket + " bk, " + strings.Join(aggs, ", ") +
		" FROM " + quote(tbl) + where + " GROUP BY bt, bk" + order
}

// addPartials runs an acrossSQL statement and adds its buckets to p.
func (t *Target) addPartials(ctx context.Context, sql string, q *ts.Query, p *clientside.Partials) error {
	rows, err := t.conn.Query(ctx, sql)
	if err != nil {
		return t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	per := 1 // columns per sensor after bt, bk
	if q.Agg == ts.Avg {
		per = 2
	}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return t.wrap(q.Kind.String(), err)
		}
		if len(vals) != 2+per*len(q.Sensors) {
			return fmt.Errorf("questdb: %s: a row of %d columns, want %d", sql, len(vals), 2+per*len(q.Sensors))
		}
		tm, _ := targets.Number(vals[0])
		for i := range q.Sensors {
			x, ok := targets.Number(vals[2+per*i])
			var n float64
			if q.Agg == ts.Avg {
				n, _ = targets.Number(vals[3+per*i])
			}
			if !ok || q.Agg == ts.Count && x == 0 || q.Agg == ts.Avg && n == 0 {
				continue // no value of this sensor in the bucket (sparse data)
			}
			p.Add(i, int64(tm), x, int64(n))
		}
	}
	if err := rows.Err(); err != nil {
		return t.wrap(q.Kind.String(), err)
	}
	return nil
}

// present is a condition true where a sensor's column col of type typ
// holds a value. A BOOLEAN sensor's column is BOOLEAN (never NULL, and
// QuestDB reads NULL as false in conditions on it) or, once sparse data
// left one of its cells empty, INT (see Target.nullableBools): cast to
// INT, both say it right.
func present(col string, typ ts.DataType) string {
	if typ == ts.Boolean {
		return "cast(" + quote(col) + " as int) IS NOT NULL"
	}
	return quote(col) + " IS NOT NULL"
}

// countSQL counts a sensor's values present in column col of type typ
// (QuestDB has no count(BOOLEAN); see present for the cast).
func countSQL(col string, typ ts.DataType) string {
	if typ == ts.Boolean {
		return "count(cast(" + quote(col) + " as int))"
	}
	return "count(" + quote(col) + ")"
}

// latestPresentSQL is LATEST_POINT for one sensor over the rows where it
// has a value (QuestDB applies WHERE before LATEST ON).
func latestPresentSQL(s *ts.Schema, columns []string, tbl, devices string, sensor int) string {
	col := columns[sensor]
	return "SELECT 0, " + quote(col) + " FROM " + quote(tbl) + " WHERE " + symbolIn(colDevice, devices) + " AND " +
		present(col, s.Sensors[sensor].Type) + " LATEST ON ts PARTITION BY device"
}

// symbolIn is the condition col IN (list) on a SYMBOL column col for a
// statement with LATEST ON. There QuestDB (9.3.4) looks the literals up
// without undoing a doubled quote (the literal of it's finds no row); a
// list holding one compares the column's text instead, which reads every
// row, so only then.
func symbolIn(col, list string) string {
	if strings.Contains(list, "''") {
		return "cast(" + col + " as string) IN (" + list + ")"
	}
	return col + " IN (" + list + ")"
}

func aggFunc(a ts.Aggregate) string {
	return [...]string{"count", "sum", "avg", "min", "max"}[a]
}

// run executes a statement and adds up its values: every column after the
// time (and, for aggregates, after the group columns) is one point, a NULL
// none (nulls counts them).
func (t *Target) run(ctx context.Context, sql string, q *ts.Query) (res ts.Result, nulls int, err error) {
	rows, err := t.conn.Query(ctx, sql)
	if err != nil {
		return ts.Result{}, 0, t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	skip := 1 // the time column
	switch {
	case q.Kind == ts.GroupBy:
		skip = 3 // bt, device, bk
	case q.Kind.Aggregates():
		skip = 2 // 0, device
	}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return ts.Result{}, 0, t.wrap(q.Kind.String(), err)
		}
		tm, _ := targets.Number(vals[0])
		for _, v := range vals[skip:] {
			x, ok := targets.Number(v)
			if !ok {
				nulls++
				continue // NULL: no point
			}
			if q.Kind.Aggregates() && q.Agg == ts.Count && x == 0 {
				continue // a group where this sensor has no value (sparse data)
			}
			res.Add(int64(tm), x)
		}
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, 0, t.wrap(q.Kind.String(), err)
	}
	return res, nulls, nil
}

// Count waits for the WAL to be applied, then counts each sensor column's
// values present (a sparse row holds NULL where a sensor has no value);
// DEDUP makes rows distinct per (ts, device).
func (t *Target) Count(ctx context.Context, r ts.CountRange) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.settled(ctx)
	if err != nil {
		return 0, err
	}
	var tables []tableDevices
	if len(r.Devices) > 0 {
		tables = t.byTable(r.Devices)
	} else {
		for _, tbl := range t.tables() {
			tables = append(tables, tableDevices{name: tbl})
		}
	}
	counts := make([]string, len(s.Sensors))
	for i, sn := range s.Sensors {
		counts[i] = countSQL(t.names.sensors[i], sn.Type)
	}
	if len(counts) == 0 {
		return 0, nil
	}
	var total int64
	for _, tbl := range tables {
		sql := "SELECT " + strings.Join(counts, ", ") + " FROM " + quote(tbl.name) + " WHERE true"
		if tbl.devices != "" {
			sql += " AND device IN (" + tbl.devices + ")"
		}
		if r.End > r.Start {
			sql += " AND ts >= " + micros(r.Start) + " AND ts < " + micros(r.End)
		}
		n, err := t.sumRow(ctx, sql)
		if err != nil {
			return 0, t.wrap("count", err)
		}
		total += n
	}
	return total, nil
}

// sumRow adds up the integers of the one row sql returns.
func (t *Target) sumRow(ctx context.Context, sql string) (int64, error) {
	rows, err := t.conn.Query(ctx, sql)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return 0, err
		}
		for _, v := range vals {
			x, _ := targets.Number(v)
			n += int64(x)
		}
	}
	return n, rows.Err()
}
