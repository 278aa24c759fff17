package questdb

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// in QuestDB's SQL, on the server: the truck tags are SYMBOL columns of
// every row, so the statements group by them; 10-minute periods and days
// are integer divisions of the timestamp (microseconds since the epoch,
// so both align to the epoch as internal/fleet's do); the sessions and
// breakdowns compare a truck's period with its previous one through the
// window functions lag and lead. TSBS has no iot queries for QuestDB:
// these follow internal/fleet's definitions, kind by kind (see fleetSQL).
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	s, err := t.lockSQL(ctx)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	_, cols, err := clientside.FleetColumns(q, s, func(_ int, n string) string { return quote(t.names.sensor(n)) })
	if err != nil {
		return nil, fmt.Errorf("questdb: fleet query: %w", err)
	}
	k := q.Fleet.Kind
	tc := newTruckCols(t.names)
	tables := t.byTable(q.Devices)
	keys, _ := fleet.Columns(k)
	var rows []ts.FleetRow
	if k == ts.LowFuel || k == ts.HighLoad {
		// The newest point of each truck is a per-table question (LATEST
		// ON needs the table's designated timestamp): one statement per
		// table, their rows together.
		for _, tbl := range tables {
			r, err := t.fleetRows(ctx, k, tc.latestSQL(q, tbl, cols[0]), len(keys))
			if err != nil {
				return nil, err
			}
			rows = append(rows, r...)
		}
		return rows, nil
	}
	return t.fleetRows(ctx, k, tc.fleetSQL(q, tc.source(q, tables, cols)), len(keys))
}

// truckCols are the truck tags' columns (SYMBOL, as every tag), quoted:
// the tags' names as the bound schema maps them (names.go).
type truckCols struct {
	name, fleet, driver, model, load, nominal string
}

func newTruckCols(n *names) truckCols {
	c := func(tag string) string { return quote(n.tag(tag)) }
	return truckCols{name: c(fleet.TagName), fleet: c(fleet.TagFleet), driver: c(fleet.TagDriver),
		model: c(fleet.TagModel), load: c(fleet.TagLoad), nominal: c(fleet.TagConsumption)}
}

// all is every truck tag's column.
func (c truckCols) all() []string {
	return []string{c.name, c.fleet, c.driver, c.model, c.load, c.nominal}
}

// The time units in microseconds, QuestDB's timestamp unit.
const (
	periodMicros  = fleet.Period * 1000
	periodsPerDay = fleet.Day / fleet.Period
)

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// source is the rows a question reads, as a subquery: the queried trucks'
// rows in [Start, End), with the device, the truck tags, the 10-minute
// period number p (since the epoch) and the fields as f0, f1. Trucks of
// several tables (groups) are their tables' rows one after the other
// (UNION ALL of the same columns).
func (c truckCols) source(q *ts.Query, tables []tableDevices, cols []string) string {
	var parts []string
	for _, tbl := range tables {
		sel := []string{"device"}
		sel = append(sel, c.all()...)
		sel = append(sel, "cast(ts as long) / "+i64(periodMicros)+" p")
		for i, c := range cols {
			sel = append(sel, c+" f"+strconv.Itoa(i))
		}
		where := "device IN (" + tbl.devices + ") AND ts >= " + micros(q.Start) + " AND ts < " + micros(q.End)
		if fleet.NeedsFleet(q.Fleet.Kind) {
			where += " AND " + c.fleet + " = " + literal(q.Fleet.Fleet)
		}
		// A period exists only where the truck has a point of the field:
		// rows without the (first) field are left out. Avg-vs-projected's
		// rows need both fields, which its own condition asks.
		where += " AND " + cols[0] + " IS NOT NULL"
		parts = append(parts, "SELECT "+strings.Join(sel, ", ")+" FROM "+quote(tbl.name)+" WHERE "+where)
	}
	return "(" + strings.Join(parts, " UNION ALL ") + ")"
}

// latestSQL is low-fuel's or high-load's statement for one table: each
// truck of the fleet's newest value of the field (QuestDB applies WHERE
// before LATEST ON, so a row without the field is skipped, and the fleet
// is a tag of every row), kept when under the fuel threshold or over the
// load one.
func (c truckCols) latestSQL(q *ts.Query, tbl tableDevices, col string) string {
	cName, cDriver, cLoad := c.name, c.driver, c.load
	latest := "SELECT " + cName + ", " + cDriver + ", " + cLoad + ", " + col + " v FROM " + quote(tbl.name) +
		" WHERE " + symbolIn(colDevice, tbl.devices) + " AND " + symbolIn(c.fleet, literal(q.Fleet.Fleet)) +
		" AND " + col + " IS NOT NULL LATEST ON ts PARTITION BY device"
	cond := "v < " + num(fleet.LowFuelBelow)
	if q.Fleet.Kind == ts.HighLoad {
		cond = "v / cast(cast(" + cLoad + " as string) as double) > " + num(fleet.HighLoadAbove)
	}
	return "SELECT " + cName + ", " + cDriver + ", v FROM (" + latest + ") WHERE " + cond
}

// fleetSQL is the statement of the kinds other than low-fuel and high-load
// over src (source's rows): its columns are the kind's keys, then its
// values (fleet.Columns).
func (c truckCols) fleetSQL(q *ts.Query, src string) string {
	cName, cFleet, cDriver, cModel, cLoad, cNominal := c.name, c.fleet, c.driver, c.model, c.load, c.nominal
	tagsFleet := c.all()
	day := "p / " + i64(periodsPerDay) // a period's day number since the epoch
	// periods: each truck's periods with the mean of the field and, for
	// breakdowns, how many of its points are 0.
	periods := "SELECT device, " + strings.Join(tagsFleet, ", ") + ", p, avg(f0) m, count() n, " +
		"sum(CASE WHEN f0 = 0 THEN 1 ELSE 0 END) zeroes FROM " + src +
		" GROUP BY device, " + strings.Join(tagsFleet, ", ") + ", p"
	switch q.Fleet.Kind {
	case ts.StationaryTrucks:
		return "SELECT " + cName + ", " + cDriver + " FROM (SELECT device, " + cName + ", " + cDriver + ", avg(f0) m FROM " + src +
			" GROUP BY device, " + cName + ", " + cDriver + ") WHERE m < " + num(fleet.StationaryBelow)
	case ts.LongDrivingSession, ts.LongDailySession:
		limit := fleet.LongDrivingPeriods
		if q.Fleet.Kind == ts.LongDailySession {
			limit = fleet.LongDailyPeriods
		}
		return "SELECT " + cName + ", " + cDriver + ", n FROM (SELECT device, " + cName + ", " + cDriver + ", count() n FROM (" +
			periods + ") WHERE m > " + num(fleet.DrivingAbove) + " GROUP BY device, " + cName + ", " + cDriver +
			") WHERE n > " + strconv.Itoa(limit)
	case ts.AvgVsProjectedFuel:
		// Rows with both fields where velocity (f0) > 1; the projected
		// consumption is the truck's tag, averaged over the same rows.
		// A truck without the tag (or one that is not a number) has no
		// projection and is left out, as fleet.Answer leaves it.
		return "SELECT " + cFleet + ", avg(f1), avg(nominal) FROM (SELECT " + cFleet + ", f0, f1, cast(cast(" + cNominal +
			" as string) as double) nominal FROM " + src + ") WHERE f0 > " + num(fleet.DrivingAbove) +
			" AND f1 IS NOT NULL AND nominal IS NOT NULL GROUP BY " + cFleet
	case ts.AvgDailyDriving:
		// Per truck and day its driving periods; per truck their total
		// in hours over its days with driving.
		perDay := "SELECT device, " + cFleet + ", " + cName + ", " + cDriver + ", " + day + " d, count() n FROM (" + periods +
			") WHERE m > " + num(fleet.DrivingAbove) + " GROUP BY device, " + cFleet + ", " + cName + ", " + cDriver + ", d"
		return "SELECT " + cFleet + ", " + cName + ", " + cDriver + ", sum(n) / 6.0 / count() FROM (" + perDay +
			") GROUP BY device, " + cFleet + ", " + cName + ", " + cDriver
	case ts.AvgDailySession:
		// A change is a period whose driving (mean > 5) differs from the
		// truck's previous period's; a session runs from a change to
		// driving to the next change, and one without a next change (still
		// running at the window's end) has no length (lead gives NULL).
		drv := "SELECT device, " + cName + ", p, CASE WHEN m > " + num(fleet.SessionDrivingOver) + " THEN 1L ELSE 0L END drv FROM (" +
			periods + ")"
		prev := "SELECT device, " + cName + ", p, drv, lag(drv) OVER (PARTITION BY device ORDER BY p) prev FROM (" + drv + ")"
		changes := "SELECT device, " + cName + ", p, drv FROM (" + prev + ") WHERE prev IS NOT NULL AND drv != prev"
		next := "SELECT device, " + cName + ", p, drv, lead(p) OVER (PARTITION BY device ORDER BY p) np FROM (" + changes + ")"
		return "SELECT " + cName + ", " + day + " * " + i64(fleet.Day) + " day, avg((np - p) * " + i64(fleet.Period) + ") FROM (" +
			next + ") WHERE drv = 1 AND np IS NOT NULL GROUP BY device, " + cName + ", day"
	case ts.AvgLoad:
		perTruck := "SELECT device, " + cFleet + ", " + cModel + ", " + cLoad + ", avg(f0) / cast(cast(" + cLoad +
			" as string) as double) share FROM " + src + " GROUP BY device, " + cFleet + ", " + cModel + ", " + cLoad
		return "SELECT " + cFleet + ", " + cModel + ", cast(cast(" + cLoad + " as string) as double), avg(share) FROM (" + perTruck +
			") GROUP BY " + cFleet + ", " + cModel + ", " + cLoad
	case ts.DailyActivity:
		return "SELECT " + cFleet + ", " + cModel + ", " + day + " * " + i64(fleet.Day) + " day, count() / " + i64(periodsPerDay) +
			".0 FROM (" + periods + ") WHERE m < " + num(fleet.ActiveBelow) + " GROUP BY " + cFleet + ", " + cModel + ", day"
	case ts.BreakdownFrequency:
		// A period is broken down when at least half its points are 0.
		broken := "SELECT device, " + cModel + ", p, CASE WHEN 2 * zeroes >= n THEN 1L ELSE 0L END b FROM (" + periods + ")"
		prev := "SELECT " + cModel + ", b, lag(b) OVER (PARTITION BY device ORDER BY p) pb FROM (" + broken + ")"
		return "SELECT " + cModel + ", count() FROM (" + prev + ") WHERE b = 1 AND pb = 0 GROUP BY " + cModel
	}
	return ""
}

// fleetRows runs a fleet statement whose first nkeys columns are text and
// the others numbers.
func (t *Target) fleetRows(ctx context.Context, k ts.FleetKind, sql string, nkeys int) ([]ts.FleetRow, error) {
	if sql == "" {
		return nil, fmt.Errorf("questdb: fleet query %s: %w (no statement for it)", k, targets.ErrUnsupported)
	}
	rows, err := t.conn.Query(ctx, sql)
	if err != nil {
		return nil, t.wrap("fleet query "+k.String(), err)
	}
	defer rows.Close()
	var out []ts.FleetRow
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, t.wrap("fleet query "+k.String(), err)
		}
		if len(vals) < nkeys {
			return nil, fmt.Errorf("questdb: fleet query %s: a row of %d columns, want at least %d keys", k, len(vals), nkeys)
		}
		r := ts.FleetRow{Key: make([]string, nkeys)}
		for i, v := range vals {
			if i < nkeys {
				if v != nil { // a truck without the tag: its key is "", as fleet.Answer's
					r.Key[i] = fmt.Sprint(v)
				}
				continue
			}
			x, ok := targets.Number(v)
			if !ok {
				return nil, fmt.Errorf("questdb: fleet query %s: NULL in column %d of %s", k, i, sql)
			}
			r.Values = append(r.Values, x)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, t.wrap("fleet query "+k.String(), err)
	}
	return out, nil
}
