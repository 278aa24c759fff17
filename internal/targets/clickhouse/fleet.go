package clickhouse

// TSBS's iot questions (ts.FleetQuery) answered by the server: one
// statement per question over points and devices, whose rows are those of
// internal/fleet's Answer.
//
// 18.16 has no window functions (no lag or lead), so the questions that
// compare a truck's period with the one before it (avg-daily-driving-
// session, breakdown-frequency) gather each truck's periods into an array
// sorted by time and walk it with arrayEnumerate and arrayFilter. Tags are
// read from devices' JSON with visitParamExtractString (18.16 has no
// JSONExtract), and numeric tags parsed with toFloat64OrNull, so that a
// truck whose number does not parse is left out, as Answer leaves it out.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

func (t *Target) devices() string { return quoteIdent(t.db) + ".devices" }

// recordDevices creates devices and writes the tags of every device of s
// into it. ReplacingMergeTree keyed by position, read with FINAL: a Setup
// without reset rewrites the rows of the same positions.
func (t *Target) recordDevices(ctx context.Context, s *ts.Schema) error {
	if _, err := t.exec(ctx, "CREATE TABLE IF NOT EXISTS "+t.devices()+
		" (pos UInt32, device String, tags String) ENGINE = ReplacingMergeTree() ORDER BY pos", nil); err != nil {
		return fmt.Errorf("clickhouse: create devices: %w", err)
	}
	m := sqlfamily.MetadataOf(s)
	if len(m.DevName) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for pos := range m.DevName {
		buf.WriteString(strconv.Itoa(pos))
		buf.WriteByte('\t')
		sqlfamily.EscapeTSV(&buf, m.DevName[pos])
		buf.WriteByte('\t')
		sqlfamily.EscapeTSV(&buf, m.DevTags[pos])
		buf.WriteByte('\n')
	}
	if _, err := t.exec(ctx, "INSERT INTO "+t.devices()+" FORMAT TabSeparated", &buf); err != nil {
		return fmt.Errorf("clickhouse: record devices: %w", err)
	}
	return nil
}

// unescapeTSV reads a TabSeparated text field (ClickHouse escapes
// backslash, tab, newline and a few more with a backslash).
func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(c) // \\, \' and any other escaped byte stand for themselves
		}
	}
	return b.String()
}

// FleetQuery implements targets.FleetQuerier.
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	if err := targets.CheckFleet(q); err != nil {
		return nil, fmt.Errorf("clickhouse: fleet query: %w", err)
	}
	s, err := t.Binding.SchemaUnder(&t.Mu)
	if err != nil {
		return nil, err
	}
	stmt, err := t.fleetStatement(s, q)
	if err != nil {
		return nil, err
	}
	data, err := t.exec(ctx, stmt+" FORMAT TabSeparated", nil)
	if err != nil {
		return nil, fmt.Errorf("fleet %s: %w", q.Fleet.Kind, err) // exec's error names the target
	}
	keys, values := fleet.Columns(q.Fleet.Kind)
	rows, err := parseFleetRows(data, len(keys), len(values))
	if err != nil {
		return nil, fmt.Errorf("clickhouse: fleet %s: %w", q.Fleet.Kind, err)
	}
	return rows, nil
}

// parseFleetRows reads TabSeparated lines of nk text columns then nv
// numbers.
func parseFleetRows(data []byte, nk, nv int) ([]ts.FleetRow, error) {
	var rows []ts.FleetRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "\t")
		if len(cells) != nk+nv {
			return nil, fmt.Errorf("answer line %q has %d columns, want %d", sc.Text(), len(cells), nk+nv)
		}
		row := ts.FleetRow{Key: make([]string, nk)}
		for i := range nk {
			row.Key[i] = unescapeTSV(cells[i])
		}
		for _, c := range cells[nk:] {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				return nil, fmt.Errorf("answer value %q: %w", c, err)
			}
			row.Values = append(row.Values, v)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	return rows, nil
}

// quote is s as a ClickHouse string literal.
func quote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// quoteIdent is s as a ClickHouse quoted identifier (a database name):
// backticks, a backtick or backslash inside escaped with a backslash.
func quoteIdent(s string) string {
	return "`" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(s) + "`"
}

// floorExpr is x rounded down to a multiple of unit, also below zero
// (ClickHouse's % keeps the dividend's sign, intDiv truncates).
func floorExpr(x string, unit int64) string {
	u := strconv.FormatInt(unit, 10)
	return "(" + x + " - ((" + x + " % " + u + ") + " + u + ") % " + u + ")"
}

// fleetSQL holds what every statement of one question shares.
type fleetSQL struct {
	q       *ts.Query
	points  string // the points table, FINAL
	devices string // the devices table, FINAL
	perDev  string // sensors per device: series / perDev is the device position
	ids     []int64
}

// tags is a subquery of devices: pos and the tags named (each as
// tag_<name>; a numeric tag, in nums, also parsed as num_<name>), of the
// devices of the question's fleet when it names one.
func (f *fleetSQL) tags(strs []string, nums []string) string {
	var b strings.Builder
	b.WriteString("(SELECT pos")
	for _, n := range strs {
		fmt.Fprintf(&b, ", visitParamExtractString(tags, %s) AS tag_%s", quote(n), n)
	}
	var where []string
	for _, n := range nums {
		fmt.Fprintf(&b, ", toFloat64OrNull(visitParamExtractString(tags, %s)) AS num_%s", quote(n), n)
		where = append(where, "isNotNull(num_"+n+")")
	}
	b.WriteString(" FROM " + f.devices)
	if fleet.NeedsFleet(f.q.Fleet.Kind) {
		where = append(where, f.inFleet())
	}
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	b.WriteString(")")
	return b.String()
}

func (f *fleetSQL) inFleet() string {
	return "visitParamExtractString(tags, 'fleet') = " + quote(f.q.Fleet.Fleet)
}

// where selects the points of the question's series (of its fleet's
// trucks only, when it names one) with a value, in [Start, End) when
// windowed.
func (f *fleetSQL) where(windowed bool) string {
	var b strings.Builder
	b.WriteString(" WHERE series IN (")
	if len(f.ids) == 0 {
		b.WriteString("NULL")
	}
	for i, id := range f.ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteString(") AND isNotNull(v)")
	if windowed {
		fmt.Fprintf(&b, " AND t >= %d AND t < %d", f.q.Start, f.q.End)
	}
	if fleet.NeedsFleet(f.q.Fleet.Kind) {
		// Filters the points before aggregating them: the join with the
		// fleet's tags alone would aggregate every truck first.
		b.WriteString(" AND " + f.pos() + " IN (SELECT pos FROM " + f.devices + " WHERE " + f.inFleet() + ")")
	}
	return b.String()
}

// pos is the device position of a point's series (UInt32, devices' type:
// 18.16 joins only keys of the same type).
func (f *fleetSQL) pos() string { return "toUInt32(intDiv(series, " + f.perDev + "))" }

// perSeries is each series' aggregates (one field per question: a series
// is a truck) over the window.
func (f *fleetSQL) perSeries(aggs string, windowed bool) string {
	return "(SELECT " + f.pos() + " AS pos, " + aggs + " FROM " + f.points + f.where(windowed) + " GROUP BY series)"
}

// perPeriod is each series' aggregates by 10-minute period p (only the
// periods with a point) over the window.
func (f *fleetSQL) perPeriod(aggs string) string {
	return "(SELECT " + f.pos() + " AS pos, " + floorExpr("t", fleet.Period) + " AS p, " + aggs +
		" FROM " + f.points + f.where(true) + " GROUP BY series, p)"
}

// sortedFlags is, per truck, the flag cond of each of its periods in time
// order, as the array flags (their starts as ps): the periods as (p, flag)
// tuples sorted (p is unique per truck), then their flags.
func (f *fleetSQL) sortedFlags(aggs, cond string) string {
	// The aggregates of Nullable v are Nullable, and arrayFilter takes
	// UInt8 only: cond is never NULL (v is), ifNull only changes its type.
	return "(SELECT pos, arraySort(groupArray((p, ifNull(" + cond + ", 0)))) AS sorted, arrayMap(x -> tupleElement(x, 1), sorted) AS ps," +
		" arrayMap(x -> tupleElement(x, 2), sorted) AS flags FROM " + f.perPeriod(aggs) + " GROUP BY pos)"
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// fleetStatement is the SQL of fleet question q on schema s.
//
// long: one case per fleet question kind, each its statement
func (t *Target) fleetStatement(s *ts.Schema, q *ts.Query) (string, error) {
	kind := q.Fleet.Kind
	want := len(fleet.Fields(kind))
	if len(q.Sensors) != want {
		return "", fmt.Errorf("clickhouse: fleet %s: %d sensors, want %d (%v)", kind, len(q.Sensors), want, fleet.Fields(kind))
	}
	if len(s.Sensors) == 0 {
		return "", fmt.Errorf("clickhouse: fleet %s: the schema has no sensors", kind)
	}
	f := &fleetSQL{q: q, points: t.table() + " FINAL", devices: t.devices() + " FINAL",
		perDev: strconv.Itoa(len(s.Sensors)), ids: s.SeriesIDs(q.Devices, q.Sensors)}
	day := func(x string) string { return floorExpr(x, fleet.Day) }
	// Each row of left gets its truck's tags: right has one row per
	// position (devices FINAL), so ALL INNER JOIN pairs every left row
	// with it. Not ANY: 18.16's ANY kept every left row, but later
	// releases (26.9 here) keep one row per key of either side. The
	// subqueries are named, which later releases require
	// (joined_subquery_requires_alias) and 18.16 takes.
	join := func(left, right string) string {
		return " FROM " + left + " AS l ALL INNER JOIN " + right + " AS r USING pos"
	}
	switch kind {
	case ts.LowFuel:
		// The newest point of each truck, whatever the window.
		return "SELECT tag_name, tag_driver, last" + join(f.perSeries("argMax(v, t) AS last", false),
			f.tags([]string{fleet.TagName, fleet.TagDriver}, nil)) + " WHERE last < " + num(fleet.LowFuelBelow), nil
	case ts.HighLoad:
		return "SELECT tag_name, tag_driver, last" + join(f.perSeries("argMax(v, t) AS last", false),
			f.tags([]string{fleet.TagName, fleet.TagDriver}, []string{fleet.TagLoad})) +
			" WHERE last / num_" + fleet.TagLoad + " > " + num(fleet.HighLoadAbove), nil
	case ts.StationaryTrucks:
		return "SELECT tag_name, tag_driver" + join(f.perSeries("avg(v) AS mean", true),
			f.tags([]string{fleet.TagName, fleet.TagDriver}, nil)) + " WHERE mean < " + num(fleet.StationaryBelow), nil
	case ts.LongDrivingSession, ts.LongDailySession:
		limit := fleet.LongDrivingPeriods
		if kind == ts.LongDailySession {
			limit = fleet.LongDailyPeriods
		}
		driving := "(SELECT pos, count() AS driving FROM " + f.perPeriod("avg(v) AS mean") +
			" WHERE mean > " + num(fleet.DrivingAbove) + " GROUP BY pos HAVING driving > " + strconv.Itoa(limit) + ")"
		return "SELECT tag_name, tag_driver, driving" + join(driving, f.tags([]string{fleet.TagName, fleet.TagDriver}, nil)), nil
	case ts.AvgVsProjectedFuel:
		// A row is a time where the truck has both fields: the points
		// grouped by truck and time, kept when both sensors are there.
		vel, fuel := strconv.Itoa(q.Sensors[0]), strconv.Itoa(q.Sensors[1])
		sensor := "series % " + f.perDev
		rowsSQL := "(SELECT " + f.pos() + " AS pos, t AS at, sumIf(v, " + sensor + " = " + vel + ") AS velocity," +
			" sumIf(v, " + sensor + " = " + fuel + ") AS consumption, countIf(" + sensor + " = " + vel + ") AS has_velocity," +
			" countIf(" + sensor + " = " + fuel + ") AS has_consumption FROM " + f.points + f.where(true) +
			" GROUP BY pos, at HAVING has_velocity > 0 AND has_consumption > 0 AND velocity > " + num(fleet.DrivingAbove) + ")"
		return "SELECT tag_fleet, avg(consumption), avg(num_" + fleet.TagConsumption + ")" +
			join(rowsSQL, f.tags([]string{fleet.TagFleet}, []string{fleet.TagConsumption})) + " GROUP BY tag_fleet", nil
	case ts.AvgDailyDriving:
		// Driving periods per truck and day, then per truck their total
		// in hours over its days with one.
		perDay := "(SELECT pos, " + day("p") + " AS d, count() AS driving FROM " + f.perPeriod("avg(v) AS mean") +
			" WHERE mean > " + num(fleet.DrivingAbove) + " GROUP BY pos, d)"
		perTruck := "(SELECT pos, sum(driving) / 6 / count() AS hours FROM " + perDay + " GROUP BY pos)"
		return "SELECT tag_fleet, tag_name, tag_driver, hours" +
			join(perTruck, f.tags([]string{fleet.TagFleet, fleet.TagName, fleet.TagDriver}, nil)), nil
	case ts.AvgDailySession:
		// The changes: positions i > 1 in a truck's sorted periods whose
		// driving flag differs from period i-1's; a session starts at a
		// change to driving and lasts until the next change (to not
		// driving), so a change to driving without a next one is left out.
		flags := f.sortedFlags("avg(v) AS mean", "mean > "+num(fleet.SessionDrivingOver))
		// 18.16 drops a subquery's column that the outer query names only
		// inside a lambda (ps, cd: "Unknown identifier"), so each array a
		// lambda reads is also an argument of the function.
		changes := "(SELECT pos, arrayFilter((x, i) -> i > 1 AND flags[i] != flags[i - 1], ps, arrayEnumerate(ps)) AS ct," +
			" arrayFilter((x, i) -> i > 1 AND x != flags[i - 1], flags, arrayEnumerate(flags)) AS cd FROM " + flags + ")"
		sessions := "(SELECT pos, arrayJoin(arrayMap(j -> (ct[j], ct[j + 1] - ct[j])," +
			" arrayFilter((j, c) -> c = 1 AND j < length(ct), arrayEnumerate(ct), cd))) AS session FROM " + changes + ")"
		perDay := "(SELECT pos, " + day("tupleElement(session, 1)") + " AS d, avg(tupleElement(session, 2)) AS mean_ms FROM " +
			sessions + " GROUP BY pos, d)"
		return "SELECT tag_name, d, mean_ms" + join(perDay, f.tags([]string{fleet.TagName}, nil)), nil
	case ts.AvgLoad:
		// Grouped by the capacity's text, as Answer keys it, and given as
		// its number.
		return "SELECT tag_fleet, tag_model, any(num_" + fleet.TagLoad + "), avg(mean / num_" + fleet.TagLoad + ")" +
			join(f.perSeries("avg(v) AS mean", true), f.tags([]string{fleet.TagFleet, fleet.TagModel, fleet.TagLoad}, []string{fleet.TagLoad})) +
			" GROUP BY tag_fleet, tag_model, tag_" + fleet.TagLoad, nil
	case ts.DailyActivity:
		active := "(SELECT pos, " + day("p") + " AS d FROM " + f.perPeriod("avg(v) AS mean") + " WHERE mean < " + num(fleet.ActiveBelow) + ")"
		return "SELECT tag_fleet, tag_model, d, count() / 144" + join(active, f.tags([]string{fleet.TagFleet, fleet.TagModel}, nil)) +
			" GROUP BY tag_fleet, tag_model, d", nil
	case ts.BreakdownFrequency:
		// A period is broken down when at least half its points are 0; a
		// breakdown is a broken period right after one that was not.
		flags := f.sortedFlags("countIf(v = 0) AS zeroes, count() AS points", "2 * zeroes >= points")
		perTruck := "(SELECT pos, length(arrayFilter(i -> i > 1 AND flags[i] = 1 AND flags[i - 1] = 0, arrayEnumerate(flags))) AS breakdowns FROM " +
			flags + ")"
		return "SELECT tag_model, sum(breakdowns) AS total" + join(perTruck, f.tags([]string{fleet.TagModel}, nil)) +
			" GROUP BY tag_model HAVING total > 0", nil
	}
	return "", fmt.Errorf("clickhouse: fleet: unknown kind %s", kind)
}
