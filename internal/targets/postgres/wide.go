package postgres

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// The wide layout (target option layout=wide): one table per group,
// wide_<group>(device TEXT, t BIGINT, <sensor> <type>, ..., PRIMARY KEY (device, t)),
// one row per device and timestamp with a typed column per sensor, named
// after it (wideNames) — the shape most applications use. PostgreSQL allows
// at most 1,600 columns, so schemas with more sensors need the narrow
// layout.

// maxWideSensors leaves room for device and t under PostgreSQL's limit.
const maxWideSensors = 1598

var sqlTypes = map[ts.DataType]string{ts.Boolean: "BOOLEAN", ts.Int32: "INTEGER", ts.Int64: "BIGINT",
	ts.Float: "REAL", ts.Double: "DOUBLE PRECISION", ts.Text: "TEXT"}

// wideTable is the quoted table of group g.
func (t *Target) wideTable(g int) string { return quoteIdent(t.names.table(g)) }

func (t *Target) setupWide(ctx context.Context, s *ts.Schema, names *wideNames, reset bool) error {
	if len(s.Sensors) > maxWideSensors {
		return fmt.Errorf("postgres: layout=wide holds at most %d sensors per table (PostgreSQL's 1,600-column limit); "+
			"this schema has %d: use layout=narrow: %w", maxWideSensors, len(s.Sensors), targets.ErrUnsupported)
	}
	cols := []string{"device TEXT NOT NULL", "t BIGINT NOT NULL"}
	for i, sn := range s.Sensors {
		cols = append(cols, names.cols[i]+" "+sqlTypes[sn.Type])
	}
	for g := range s.Groups {
		tbl := quoteIdent(names.table(g))
		if reset {
			if _, err := t.c.pg.Exec(ctx, "DROP TABLE IF EXISTS "+tbl); err != nil {
				return t.wrap("drop table", err)
			}
		}
		if _, err := t.c.pg.Exec(ctx, "CREATE TABLE IF NOT EXISTS "+tbl+" ("+strings.Join(cols, ", ")+", PRIMARY KEY (device, t))"); err != nil {
			return t.wrap("create table", err)
		}
		if t.timescale {
			if _, err := t.c.pg.Exec(ctx, "SELECT create_hypertable("+sqlfamily.Quote(tbl)+", 't', chunk_time_interval => 86400000, if_not_exists => true)"); err != nil {
				return t.wrap("create hypertable", err)
			}
		}
	}
	return nil
}

// sparseRows lists the rows of a sparse batch that hold a value (a row
// with none carries no point); nil for a dense batch, all of whose rows
// are written.
func sparseRows(b *ts.Batch) []int {
	if b.Nulls == 0 {
		return nil
	}
	keep := []int{}
	for i := range b.Times {
		if b.RowPresent(i) {
			keep = append(keep, i)
		}
	}
	return keep
}

// wideRow is the values of the n-th row written (keep: sparseRows) of a
// wide table width columns wide: the device, the time, then each column's
// value or NULL for an empty cell.
func wideRow(b *ts.Batch, keep []int, width, n int) []any {
	i := n
	if keep != nil {
		i = keep[n]
	}
	vals := make([]any, 0, width)
	vals = append(vals, b.Device.Name, b.Times[i])
	for c := range b.Columns {
		if col := &b.Columns[c]; col.Present(i) {
			vals = append(vals, col.Value(i))
		} else {
			vals = append(vals, nil) // an empty cell: NULL
		}
	}
	return vals
}

// writeWide writes one row per timestamp, a rewritten row replacing the
// stored one: multi-row INSERT ... ON CONFLICT; or COPY straight into the
// table, and where a row is already stored COPY into a staging table
// followed by one INSERT ... SELECT ... ON CONFLICT (copyDirect).
func (t *Target) writeWide(ctx context.Context, s *ts.Schema, b *ts.Batch) error {
	raw := t.names.table(b.Device.Group)
	tbl := quoteIdent(raw)
	names := append([]string{"device", "t"}, t.names.cols...)
	var set []string
	for _, q := range t.names.cols {
		set = append(set, q+" = EXCLUDED."+q)
	}
	nrows := b.Len()
	keep := sparseRows(b)
	if keep != nil {
		nrows = len(keep)
		// A NULL cell is no value, so it must not erase a value already
		// stored at that (device, t): keep the stored one.
		for i, q := range t.names.cols {
			set[i] = q + " = COALESCE(EXCLUDED." + q + ", " + tbl + "." + q + ")"
		}
	}
	upsert := " ON CONFLICT (device, t) DO UPDATE SET " + strings.Join(set, ", ")
	rowOf := func(n int) []any { return wideRow(b, keep, len(names), n) }
	if nrows == 0 {
		return nil
	}
	rowsOf := func() pgx.CopyFromSource {
		return pgx.CopyFromSlice(nrows, func(i int) ([]any, error) { return rowOf(i), nil })
	}
	rawNames := append([]string{"device", "t"}, t.names.raw...)
	if t.writePath == "copy" {
		// New rows: COPY straight into the table; a stored row: the
		// staging upsert below (copyDirect).
		if done, err := t.copyDirect(ctx, raw, rawNames, rowsOf()); done || err != nil {
			return err
		}
	}
	tx, err := t.c.pg.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if t.writePath == "copy" {
		stage := quoteIdent(stagePrefix + raw)
		if _, err := tx.Exec(ctx, "CREATE TEMPORARY TABLE IF NOT EXISTS "+stage+" (LIKE "+tbl+") ON COMMIT DELETE ROWS"); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{stagePrefix + raw}, rawNames, rowsOf()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO "+tbl+" SELECT * FROM "+stage+upsert); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}
	per := max(1, 60000/len(names))
	if t.timescale {
		// The PGlite build crashes on large messages (timescaleInsertRows):
		// as many parameters as its narrow statements, whatever the width.
		per = max(1, timescaleInsertRows*4/len(names))
	}
	for start := 0; start < nrows; start += per {
		end := min(start+per, nrows)
		var args []any
		var rows []string
		for i := start; i < end; i++ {
			ph := make([]string, len(names))
			for j := range names {
				ph[j] = "$" + strconv.Itoa(len(args)+j+1)
			}
			rows = append(rows, "("+strings.Join(ph, ",")+")")
			args = append(args, rowOf(i)...)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO "+tbl+" ("+strings.Join(names, ", ")+") VALUES "+strings.Join(rows, ",")+upsert, args...); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// devicesByGroup names the devices of each group (a wide table each), the
// groups in the order their first device comes.
func devicesByGroup(devs []*ts.Device) (groups []int, byGroup map[int][]string) {
	byGroup = map[int][]string{}
	for _, d := range devs {
		if _, ok := byGroup[d.Group]; !ok {
			groups = append(groups, d.Group)
		}
		byGroup[d.Group] = append(byGroup[d.Group], d.Name)
	}
	return groups, byGroup
}

// queryWide runs a query table by table (devices grouped by group), and
// sensor by sensor where a value filter applies.
func (t *Target) queryWide(ctx context.Context, s *ts.Schema, q *ts.Query) (ts.Result, error) {
	// The sensors' columns in schema order: the statement's text then
	// depends on which sensors a query asks, not on their order, so pgx's
	// cache of prepared statements finds it again. TSBS asks its sensors
	// in random order (lastpoint all ten: one text instead of a new one,
	// parsed, described and planned afresh, nearly every query). The
	// answer's checksums add the values up, in any order.
	if !slices.IsSorted(q.Sensors) {
		sorted := *q
		sorted.Sensors = slices.Sorted(slices.Values(q.Sensors))
		q = &sorted
	}
	if q.Across {
		return t.queryWideAcross(ctx, q)
	}
	groups, byGroup := devicesByGroup(q.Devices)
	var total ts.Result
	for _, g := range groups {
		sets := [][]int{q.Sensors}
		if q.Kind.HasValueFilter() {
			sets = nil
			for _, sn := range q.Sensors {
				sets = append(sets, []int{sn})
			}
		}
		for _, sens := range sets {
			devices := byGroup[g]
			if q.Kind == ts.LatestPoint {
				r, incomplete, err := t.newestRows(ctx, q, t.wideTable(g), sens, devices)
				if err != nil {
					return ts.Result{}, err
				}
				total.Merge(r, false)
				if len(incomplete) == 0 {
					continue
				}
				devices = incomplete
			}
			sql, args := wideSQL(t.names, q, t.wideTable(g), sens, devices, t.timescale)
			r, err := t.runWide(ctx, q, sql, args)
			if err != nil {
				return ts.Result{}, err
			}
			total.Merge(r, q.Kind.Descending())
		}
	}
	if q.Kind.Aggregates() || q.Kind == ts.LatestPoint {
		total.First, total.Last = 0, 0
	}
	return total, nil
}

// newestRows answers a LATEST_POINT from each device's newest row: the
// values of the devices whose newest row holds every sensor asked, and
// the devices whose row lacks one (a NULL cell of sparse data, or no row
// at all), which wideSQL's statement then answers sensor by sensor. On
// dense data, as TSBS's, this one statement is the whole answer: a
// backward index step per device, and a plan as cheap to make as that of
// TSBS's lastpoint. (The statement that also looks past NULL cells takes
// a subplan per sensor: planning it made one query in ten, the first five
// of each connection, before the generic plan, cost 1 ms and more.)
func (t *Target) newestRows(ctx context.Context, q *ts.Query, tbl string, sensors []int,
	devices []string) (ts.Result, []string, error) {
	cols := make([]string, len(sensors))
	for i, sn := range sensors {
		cols[i] = t.names.cols[sn]
	}
	sql := "SELECT d.device, r." + strings.Join(cols, ", r.") + " FROM unnest($1::text[]) AS d(device)" +
		" LEFT JOIN LATERAL (SELECT " + strings.Join(cols, ", ") + " FROM " + tbl +
		" w WHERE w.device = d.device ORDER BY w.t DESC LIMIT 1) r ON true"
	rows, err := t.c.pg.Query(ctx, sql, devices)
	if err != nil {
		return ts.Result{}, nil, t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	var res ts.Result
	var incomplete []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return ts.Result{}, nil, t.wrap(q.Kind.String(), err)
		}
		device, _ := vals[0].(string)
		if slices.Contains(vals[1:], nil) {
			incomplete = append(incomplete, device)
			continue
		}
		for _, v := range vals[1:] {
			if x, ok := targets.Number(v); ok {
				res.Add(0, x)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return ts.Result{}, nil, t.wrap(q.Kind.String(), err)
	}
	return res, incomplete, nil
}

// wideSQL returns a statement whose rows are (time, value per sensor).
func wideSQL(names *wideNames, q *ts.Query, tbl string, sensors []int, devices []string, timescale bool) (string, []any) {
	cols := make([]string, len(sensors))
	for i, sn := range sensors {
		cols[i] = names.cols[sn]
	}
	where := " FROM " + tbl + " WHERE device = ANY($1)"
	args := []any{devices}
	rng := " AND t >= $2 AND t < $3"
	// The bound is cast: the timescaledb mode (QueryExecModeExec) sends it as
	// text, which an INTEGER column would refuse to read as 20.5.
	val := func(n int) string { return " AND " + cols[0] + " > $" + strconv.Itoa(n) + "::double precision" }
	order := " ORDER BY t, device"
	if q.Kind.Descending() {
		order = " ORDER BY t DESC, device"
	}
	list := strings.Join(cols, ", ")
	switch q.Kind {
	case ts.PrecisePoint:
		return "SELECT t, " + list + where + " AND t = $2 ORDER BY device", append(args, q.Start)
	case ts.TimeRange, ts.RangeQueryDesc:
		return "SELECT t, " + list + where + rng + order, append(args, q.Start, q.End)
	case ts.ValueRange, ts.ValueRangeQueryDesc:
		return "SELECT t, " + list + where + rng + val(4) + order, append(args, q.Start, q.End, q.Lower)
	case ts.LatestPoint:
		// Each sensor's last present value, for the devices whose newest
		// row lacks one (newestRows answers the others). That row, read by
		// one backward step of the (device, t) key, holds most of them; only
		// for a NULL cell does COALESCE run that sensor's own backward scan,
		// which stops at its newest non-NULL value.
		sub := make([]string, len(cols))
		for i, c := range cols {
			sub[i] = "COALESCE(r." + c + ", (SELECT " + c + " FROM " + tbl + " w WHERE w.device = d.device AND " + c +
				" IS NOT NULL ORDER BY w.t DESC LIMIT 1))"
		}
		return "SELECT 0::bigint, " + strings.Join(sub, ", ") + " FROM unnest($1::text[]) AS d(device)" +
			" LEFT JOIN LATERAL (SELECT " + list + " FROM " + tbl + " w WHERE w.device = d.device ORDER BY w.t DESC LIMIT 1) r ON true" +
			" ORDER BY d.device", args
	}
	aggs := make([]string, len(cols))
	for i, c := range cols {
		aggs[i] = [...]string{"count(" + c + ")::double precision", "sum(" + c + ")::double precision",
			"avg(" + c + ")::double precision", "min(" + c + ")::double precision", "max(" + c + ")::double precision"}[q.Agg]
	}
	alist := strings.Join(aggs, ", ")
	switch q.Kind {
	case ts.AggRange:
		return "SELECT 0::bigint, " + alist + where + rng + " GROUP BY device", append(args, q.Start, q.End)
	case ts.AggValue:
		return "SELECT 0::bigint, " + alist + where + val(2) + " GROUP BY device", append(args, q.Lower)
	case ts.AggRangeValue:
		return "SELECT 0::bigint, " + alist + where + rng + val(4) + " GROUP BY device", append(args, q.Start, q.End, q.Lower)
	}
	bucket := "$5 + (t - $5) / $4 * $4" // $5: the bucket origin
	if timescale {
		bucket = "time_bucket($4::bigint, t, $5::bigint)"
	}
	return "SELECT " + bucket + " AS bt, " + alist + where + rng + " GROUP BY device, bt ORDER BY bt, device",
		append(args, q.Start, q.End, max(q.Bucket, 1), q.BucketOrigin())
}

// queryWideAcross answers a Q7 across devices: one statement per group's
// table aggregates every device of the group per bucket (with a limit, the
// newest buckets: a bucket among the newest overall is among the newest of
// every table holding it), and clientside.Partials combines the tables.
// Each sensor's column gives its aggregate, or for avg its sum, and its
// count.
func (t *Target) queryWideAcross(ctx context.Context, q *ts.Query) (ts.Result, error) {
	groups, byGroup := devicesByGroup(q.Devices)
	fn := [...]string{"count", "sum", "sum", "min", "max"}[q.Agg]
	cols := make([]string, len(q.Sensors))
	for i, sn := range q.Sensors {
		c := t.names.cols[sn]
		cols[i] = fn + "(" + c + ")::double precision, count(" + c + ")"
	}
	bucket := "$5 + (t - $5) / $4 * $4" // $5: the bucket origin
	if t.timescale {
		bucket = "time_bucket($4::bigint, t, $5::bigint)"
	}
	order := " ORDER BY bt"
	if q.Limit > 0 {
		order = " ORDER BY bt DESC LIMIT " + strconv.Itoa(q.Limit)
	}
	parts := clientside.NewPartials(q)
	for _, g := range groups {
		sql := "SELECT " + bucket + " AS bt, " + strings.Join(cols, ", ") + " FROM " + t.wideTable(g) +
			" WHERE device = ANY($1) AND t >= $2 AND t < $3 GROUP BY bt" + order
		rows, err := t.c.pg.Query(ctx, sql, withValues(q, byGroup[g], q.Start, q.End, max(q.Bucket, 1), q.BucketOrigin())...)
		if err != nil {
			return ts.Result{}, t.wrap(q.Kind.String(), err)
		}
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				rows.Close()
				return ts.Result{}, t.wrap(q.Kind.String(), err)
			}
			tm, _ := vals[0].(int64)
			for i := range q.Sensors {
				n, _ := vals[2+2*i].(int64)
				if v, ok := targets.Number(vals[1+2*i]); ok && n > 0 {
					parts.Add(i, tm, v, n)
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return ts.Result{}, t.wrap(q.Kind.String(), err)
		}
	}
	return parts.Result(), nil
}

// withValues returns a statement's arguments, led, for a query over a time
// range, by pgx.QueryExecModeExec: an unnamed statement, which PostgreSQL
// plans with the values bound, in one round trip, as it plans TSBS's
// statements (their values written into the SQL). A statement of the
// prepared statement cache gets a generic plan after its fifth run, blind
// to how much of the table the range and the devices take: on TSBS's
// double-groupby-all (all hosts, 12 of 24 hours) 38 ms a query instead of
// 21 ms, on cpu-max-all-8 15 instead of 9. The newest rows and the
// points at one time (LATEST_POINT, PRECISE_POINT) keep the cached
// statement: their plan is an index step whatever the values.
func withValues(q *ts.Query, args ...any) []any {
	if q.Kind == ts.LatestPoint || q.Kind == ts.PrecisePoint {
		return args
	}
	return append([]any{pgx.QueryExecModeExec}, args...)
}

func (t *Target) runWide(ctx context.Context, q *ts.Query, sql string, args []any) (ts.Result, error) {
	rows, err := t.c.pg.Query(ctx, sql, withValues(q, args...)...)
	if err != nil {
		return ts.Result{}, t.wrap(q.Kind.String(), err)
	}
	defer rows.Close()
	var res ts.Result
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return ts.Result{}, t.wrap(q.Kind.String(), err)
		}
		tm, _ := vals[0].(int64)
		for _, v := range vals[1:] {
			x, ok := targets.Number(v)
			if !ok || (q.Kind.Aggregates() && q.Agg == ts.Count && x == 0) {
				continue
			}
			res.Add(tm, x)
		}
	}
	return res, rows.Err()
}

// countWide counts the values present: the non-NULL cells of each sensor
// column (a sparse row holds NULL where a sensor has no value).
func (t *Target) countWide(ctx context.Context, s *ts.Schema, r ts.CountRange) (int64, error) {
	counts := make([]string, len(s.Sensors))
	for i := range s.Sensors {
		counts[i] = "count(" + t.names.cols[i] + ")"
	}
	if len(counts) == 0 {
		return 0, nil
	}
	var total int64
	for g := range s.Groups {
		sql := "SELECT (" + strings.Join(counts, " + ") + ")::bigint FROM " + t.wideTable(g) + " WHERE true"
		var args []any
		if len(r.Devices) > 0 {
			var names []string
			for _, d := range r.Devices {
				if d.Group == g {
					names = append(names, d.Name)
				}
			}
			if len(names) == 0 {
				continue
			}
			args = append(args, names)
			sql += " AND device = ANY($1)"
		}
		if r.End > r.Start {
			args = append(args, r.Start, r.End)
			sql += fmt.Sprintf(" AND t >= $%d AND t < $%d", len(args)-1, len(args))
		}
		var n int64
		if err := t.c.pg.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
			return 0, t.wrap("count", err)
		}
		total += n
	}
	return total, nil
}
