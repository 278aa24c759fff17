package sqlfamily

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetSource is where a fleet statement reads its points; each method
// writes the body of one CTE (a SELECT), with its parameters.
type FleetSource interface {
	// Points selects (truck, t, v): the points of field in [start, end).
	Points(b *Builder, field string, start, end int64)
	// Newest selects (truck, v): each truck's newest point of field,
	// whatever its time (low-fuel and high-load).
	Newest(b *Builder, field string)
	// Both selects (truck, v1, v2): the times in [start, end) where the
	// truck has a point of both fields, with their values.
	Both(b *Builder, field1, field2 string, start, end int64)
}

// Fleet writes TSBS's iot question q (q.Fleet set) over the narrow layout
// into b (see FleetFrom).
func (d *Dialect) Fleet(b *Builder, q *ts.Query) error { return d.FleetFrom(b, q, Narrow{D: d}) }

// FleetFrom writes TSBS's iot question q (q.Fleet set) into b, which it
// resets first: one statement whose rows are fleet.Answer's, in any order,
// with the key columns of fleet.Columns as text, then the values as numbers
// (each CAST to Dialect.Real, so that every driver scans a float). src
// gives the points.
//
// Every kind reads them the same way:
//   - tr is the trucks: devices' name and the tags the kind needs, read
//     once there with Dialect.Tag, so that the outer query groups by plain
//     columns (a tag expression written twice has two parameters, which
//     the engine does not see as one expression);
//   - raw is src's points of the kind's field in [Start, End), pts the
//     same with each point's 10-minute period, floor(t / Period) * Period written with %
//     only (t - ((t % P) + P) % P), which is a floor before 1970 too in
//     every engine whose % keeps the dividend's sign;
//   - per is what the kind needs of each truck's periods, and the session
//     kinds compare a period with the one before it (lag) or after it
//     (lead) in the truck's own time order: the periods that exist, as
//     fleet's definitions say, not the calendar's.
//
// Thresholds and units are fleet's constants, written as literals: they
// are part of the question's shape, not its parameters.
//
// long: one case per fleet question kind, each its SQL
func (d *Dialect) FleetFrom(b *Builder, q *ts.Query, src FleetSource) error {
	b.Reset()
	if q.Fleet == nil {
		return fmt.Errorf("%s: fleet question without Fleet", d.Name)
	}
	k := q.Fleet.Kind
	if d.Tag == nil || d.Real == "" {
		return fmt.Errorf("%s: fleet %s: %w: the dialect has no tag access or float cast", d.Name, k, targets.ErrUnsupported)
	}
	f := fleetSQL{d: d, b: b, q: q, src: src}
	fields := fleet.Fields(k)
	switch k {
	case ts.LowFuel, ts.HighLoad:
		f.newest(fields[0])
	case ts.StationaryTrucks:
		f.with(fleet.TagName, fleet.TagDriver)
		f.points(fields[0])
		b.S(" SELECT tr.name, tr.driver FROM pts JOIN tr ON tr.truck = pts.truck" +
			" GROUP BY tr.truck, tr.name, tr.driver HAVING avg(pts.v) < ").S(num(fleet.StationaryBelow))
	case ts.LongDrivingSession, ts.LongDailySession:
		limit := fleet.LongDrivingPeriods
		if k == ts.LongDailySession {
			limit = fleet.LongDailyPeriods
		}
		f.with(fleet.TagName, fleet.TagDriver)
		f.points(fields[0])
		b.S(", per AS (SELECT truck, pt FROM pts GROUP BY truck, pt HAVING avg(v) > ").S(num(fleet.DrivingAbove)).
			S(") SELECT tr.name, tr.driver, ").S(d.real("count(*)")).
			S(" FROM per JOIN tr ON tr.truck = per.truck GROUP BY tr.truck, tr.name, tr.driver HAVING count(*) > ").
			S(strconv.Itoa(limit))
	case ts.AvgVsProjectedFuel:
		f.avgVsProjected(fields)
	case ts.AvgDailyDriving:
		f.with(fleet.TagFleet, fleet.TagName, fleet.TagDriver)
		f.points(fields[0])
		b.S(", per AS (SELECT truck, pt FROM pts GROUP BY truck, pt HAVING avg(v) > ").S(num(fleet.DrivingAbove)).
			S(") SELECT tr.fleet, tr.name, tr.driver, ").S(d.real("count(*)")).S(" / 6 / ").
			S(d.real("count(DISTINCT " + day("per.pt") + ")")).
			S(" FROM per JOIN tr ON tr.truck = per.truck GROUP BY tr.truck, tr.fleet, tr.name, tr.driver")
	case ts.AvgDailySession:
		// A change is a period whose driving differs from the period
		// before (lag; the first period has none and is no change); a
		// session is a change to driving and lasts to the next change
		// (lead), without which it has no length.
		f.with(fleet.TagName)
		f.points(fields[0])
		b.S(", per AS (SELECT truck, pt, CASE WHEN avg(v) > ").S(num(fleet.SessionDrivingOver)).
			S(" THEN 1 ELSE 0 END AS drv FROM pts GROUP BY truck, pt)" +
				", lagged AS (SELECT truck, pt, drv, lag(drv) OVER (PARTITION BY truck ORDER BY pt) AS prev FROM per)" +
				", chg AS (SELECT truck, pt, drv, lead(pt) OVER (PARTITION BY truck ORDER BY pt) AS nxt FROM lagged WHERE drv <> prev)" +
				", ses AS (SELECT truck, ").S(day("pt")).S(" AS dy, nxt - pt AS ms FROM chg WHERE drv = 1 AND nxt IS NOT NULL)" +
			" SELECT tr.name, ").S(d.real("ses.dy")).S(", avg(").S(d.real("ses.ms")).
			S(") FROM ses JOIN tr ON tr.truck = ses.truck GROUP BY tr.truck, tr.name, ses.dy")
	case ts.AvgLoad:
		f.with(fleet.TagFleet, fleet.TagModel, fleet.TagLoad)
		f.points(fields[0])
		b.S(", per AS (SELECT truck, avg(v) AS m FROM pts GROUP BY truck)" +
			" SELECT tr.fleet, tr.model, ").S(d.real("tr.load_capacity")).S(", avg(per.m / ").S(d.real("tr.load_capacity")).
			S(") FROM per JOIN tr ON tr.truck = per.truck WHERE tr.load_capacity IS NOT NULL" +
				" GROUP BY tr.fleet, tr.model, tr.load_capacity")
	case ts.DailyActivity:
		f.with(fleet.TagFleet, fleet.TagModel)
		f.points(fields[0])
		b.S(", per AS (SELECT truck, pt FROM pts GROUP BY truck, pt HAVING avg(v) < ").S(num(fleet.ActiveBelow)).
			S("), act AS (SELECT truck, ").S(day("pt")).S(" AS dy FROM per)" +
			" SELECT tr.fleet, tr.model, ").S(d.real("act.dy")).S(", ").S(d.real("count(*)")).
			S(" / 144 FROM act JOIN tr ON tr.truck = act.truck GROUP BY tr.fleet, tr.model, act.dy")
	case ts.BreakdownFrequency:
		// Broken down: at least half the period's status points are 0.
		f.with(fleet.TagModel)
		f.points(fields[0])
		b.S(", per AS (SELECT truck, pt, CASE WHEN 2 * sum(CASE WHEN v = 0 THEN 1 ELSE 0 END) >= count(*)" +
			" THEN 1 ELSE 0 END AS brk FROM pts GROUP BY truck, pt)" +
			", lagged AS (SELECT truck, brk, lag(brk) OVER (PARTITION BY truck ORDER BY pt) AS prev FROM per)" +
			" SELECT tr.model, ").S(d.real("count(*)")).
			S(" FROM lagged JOIN tr ON tr.truck = lagged.truck WHERE lagged.brk = 1 AND lagged.prev = 0 GROUP BY tr.model")
	default:
		return fmt.Errorf("%s: fleet kind %s: %w", d.Name, k, targets.ErrUnsupported)
	}
	return nil
}

// fleetSQL writes the parts the kinds share.
type fleetSQL struct {
	d   *Dialect
	b   *Builder
	q   *ts.Query
	src FleetSource
}

// with starts the statement with the trucks, tr(truck, <tags>): a column
// per tag, named as the tag; only the fleet asked about when the kind asks
// about one.
func (f *fleetSQL) with(tags ...string) {
	f.b.S("WITH tr AS (SELECT d.name AS truck")
	for _, t := range tags {
		f.b.S(", ").S(f.d.Tag(f.b, t)).S(" AS ").S(t)
	}
	f.b.S(" FROM devices d")
	if fleet.NeedsFleet(f.q.Fleet.Kind) {
		f.b.S(" WHERE ").S(f.d.Tag(f.b, fleet.TagFleet)).S(" = ").P(f.q.Fleet.Fleet)
	}
	f.b.S(")")
}

// points adds raw, the field's points in [Start, End), and pts(truck, t,
// v, pt): those points with their periods.
func (f *fleetSQL) points(field string) {
	f.b.S(", raw AS (")
	f.src.Points(f.b, field, f.q.Start, f.q.End)
	f.b.S("), pts AS (SELECT truck, t, v, ").S(period("t")).S(" AS pt FROM raw)")
}

// newest is low-fuel and high-load: each truck's newest point of the field
// (whatever the window, as fleet defines them), when below the fuel or
// above the load threshold.
func (f *fleetSQL) newest(field string) {
	d, b := f.d, f.b
	high := f.q.Fleet.Kind == ts.HighLoad
	if high {
		f.with(fleet.TagName, fleet.TagDriver, fleet.TagLoad)
	} else {
		f.with(fleet.TagName, fleet.TagDriver)
	}
	b.S(", nw AS (")
	f.src.Newest(b, field)
	b.S(") SELECT tr.name, tr.driver, ").S(d.real("nw.v")).S(" FROM nw JOIN tr ON tr.truck = nw.truck WHERE ")
	if high {
		b.S("nw.v / ").S(d.real("tr.load_capacity")).S(" > ").S(num(fleet.HighLoadAbove))
	} else {
		b.S("nw.v < ").S(num(fleet.LowFuelBelow))
	}
}

// avgVsProjected reads the times where a truck has both velocity and
// fuel_consumption, and keeps those above the driving threshold. Each
// truck's rows are summed and counted first, so that the tags are read
// and the rows grouped once per truck, not once per row: the means over a
// fleet's rows are then its trucks' sums over their counts (the nominal
// consumption weighted by each truck's rows).
func (f *fleetSQL) avgVsProjected(fields []string) {
	d, b := f.d, f.b
	f.with(fleet.TagFleet, fleet.TagConsumption)
	b.S(", pr AS (")
	f.src.Both(b, fields[0], fields[1], f.q.Start, f.q.End)
	b.S("), per AS (SELECT truck, sum(").S(d.real("v2")).S(") AS fuel, count(*) AS n FROM pr WHERE v1 > ").
		S(num(fleet.DrivingAbove)).S(" GROUP BY truck) SELECT tr.fleet, ").S(d.real("sum(per.fuel)")).S(" / ").
		S(d.real("sum(per.n)")).S(", sum(").S(d.real("tr." + fleet.TagConsumption)).S(" * per.n) / ").
		S(d.real("sum(per.n)")).S(" FROM per JOIN tr ON tr.truck = per.truck WHERE tr.").S(fleet.TagConsumption).
		S(" IS NOT NULL GROUP BY tr.fleet")
}

// Narrow is the FleetSource of the narrow layout: points(series, t, v)
// joined to series(id, device, sensor), the field found by its sensor
// name.
type Narrow struct{ D *Dialect }

// Points selects the field's points in the window.
func (n Narrow) Points(b *Builder, field string, start, end int64) {
	b.S("SELECT s.device AS truck, p.t AS t, p.v AS v FROM ").S(n.D.Table).
		S(" p JOIN series s ON s.id = p.series WHERE s.sensor = ").P(field).
		S(" AND p.t >= ").P(start).S(" AND p.t < ").P(end)
}

// Newest finds each series' newest time through the primary key (series,
// t).
func (n Narrow) Newest(b *Builder, field string) {
	b.S("SELECT s.device AS truck, p.v AS v FROM series s JOIN ").S(n.D.Table).
		S(" p ON p.series = s.id WHERE s.sensor = ").P(field).
		S(" AND p.t = (SELECT max(l.t) FROM ").S(n.D.Table).S(" l WHERE l.series = s.id)")
}

// Both joins the first field's points to the second's of the same truck
// and time. The tables are CROSS JOINed in the order to read them, the
// conditions in WHERE: SQLite keeps a CROSS JOIN's order, and without it
// SQLite 3.54 joined the second series last and built an index of every
// point's time for each statement (12x slower); the other engines read
// CROSS JOIN as an inner join and choose the order themselves.
func (n Narrow) Both(b *Builder, field1, field2 string, start, end int64) {
	b.S("SELECT s.device AS truck, p.v AS v1, c.v AS v2 FROM series s CROSS JOIN series sc CROSS JOIN ").S(n.D.Table).
		S(" p CROSS JOIN ").S(n.D.Table).S(" c WHERE s.sensor = ").P(field1).S(" AND sc.sensor = ").P(field2).
		S(" AND sc.device = s.device AND p.series = s.id AND p.t >= ").P(start).S(" AND p.t < ").P(end).
		S(" AND c.series = sc.id AND c.t = p.t")
}

// real is expr cast to the dialect's float type.
func (d *Dialect) real(expr string) string { return "CAST(" + expr + " AS " + d.Real + ")" }

// floorTo is expr (integer ms) rounded down to a multiple of unit.
func floorTo(expr string, unit int64) string {
	u := strconv.FormatInt(unit, 10)
	return expr + " - ((" + expr + " % " + u + ") + " + u + ") % " + u
}

func period(expr string) string { return "(" + floorTo(expr, fleet.Period) + ")" }

func day(expr string) string { return "(" + floorTo(expr, fleet.Day) + ")" }

// num is a threshold as an SQL number.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// CollectFleet reads the rows of kind k's statement: its key columns (text,
// NULL as "") then its values (NULL as 0).
func CollectFleet(rows Rows, k ts.FleetKind) ([]ts.FleetRow, error) {
	keys, values := fleet.Columns(k)
	cells := make([]any, len(keys)+len(values))
	dest := make([]any, len(cells))
	for i := range cells {
		dest[i] = &cells[i]
	}
	var out []ts.FleetRow
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r := ts.FleetRow{Key: make([]string, len(keys)), Values: make([]float64, len(values))}
		for i := range keys {
			r.Key[i] = text(cells[i])
		}
		for i := range values {
			r.Values[i] = Number(cells[len(keys)+i])
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// text is a scanned key column as a string.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// FleetDB answers the fleet question q on a database/sql handle.
func (d *Dialect) FleetDB(ctx context.Context, db Querier, q *ts.Query) ([]ts.FleetRow, error) {
	b := NewBuilder(d)
	if err := d.Fleet(b, q); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, b.String(), b.Args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return CollectFleet(rows, q.Fleet.Kind)
}

// Fleet answers a fleet question (targets.FleetQuerier) for a target that
// embeds Queries.
func (x *Queries) Fleet(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	if q.Fleet == nil {
		return nil, x.Wrap("fleet", fmt.Errorf("%s: not a fleet question", q.Kind))
	}
	x.Bound.Mu.Lock()
	defer x.Bound.Mu.Unlock()
	if _, err := x.Bound.Binding.Schema(); err != nil {
		return nil, err
	}
	rows, err := x.D.FleetDB(ctx, x.DB, q)
	if err != nil {
		return nil, x.Wrap("fleet "+q.Fleet.Kind.String(), err)
	}
	return rows, nil
}
