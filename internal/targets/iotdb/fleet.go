package iotdb

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// fleetSQL is one question: its trucks' paths and what it reads.
type fleetSQL struct {
	t      *Target
	q      *ts.Query
	fields []string              // the question's measurements, quoted, fleet.Fields order
	from   []string              // the trucks' device paths
	trucks map[string]*ts.Device // by device path, as tsbench writes it (ownPath)
}

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// in IoTDB SQL; each kind's definition is internal/fleet's. TSBS has no
// iot queries for IoTDB: these are tsbench's.
//
// IoTDB's tree model stores no device tags here (the paths are
// root.db.group.truck) and cannot join series with a table of tags, so the
// trucks' tags come from the schema: a question about one fleet lists that
// fleet's trucks in its FROM, and the grouping by fleet, model or driver
// is the client's, over one row per truck or per truck and period. The
// server does the reading and aggregating of the points:
//   - low-fuel, high-load: SELECT LAST (the newest value of each truck,
//     from IoTDB's last cache, whatever the window); the client compares it
//     with 0.1, or with 0.9 of the truck's load_capacity (a tag);
//   - stationary-trucks: the mean velocity of each truck in the window,
//     HAVING avg < 1: the server's answer is the rows;
//   - long-driving-sessions, long-daily-sessions,
//     avg-daily-driving-duration, daily-activity: GROUP BY 10-minute
//     periods, one row per truck and period, HAVING the period's mean
//     passes the threshold (driving: avg(velocity) > 1; active:
//     avg(status) < 1); the client counts the periods per truck, per
//     truck and day, or per fleet, model and day;
//   - avg-daily-driving-session: each truck's non-empty periods' mean
//     velocity; the client finds where driving (> 5) starts and stops and
//     averages the sessions by the day they start (IoTDB has no lead());
//   - breakdown-frequency: each truck's non-empty periods' count of
//     status points and of zeroes (sum of a CASE); the client counts a
//     broken-down period after one that was not, per model;
//   - avg-vs-projected-fuel-consumption: per truck, the sum and count of
//     fuel_consumption over the rows where velocity > 1 (a row filter on
//     the aligned device); the client adds them up per fleet and weighs
//     each truck's nominal_fuel_consumption (a tag) by its rows;
//   - avg-load: each truck's mean current_load; the client divides by
//     its capacity and averages per fleet, model and capacity.
//
// Every statement is ALIGN BY DEVICE: a value filter or HAVING then
// applies to each truck alone, where IoTDB's default alignment by time
// would join the trucks' rows. GROUP BY LEVEL would merge the trucks of a
// level of the path, and fleets and models are not levels, so it has no
// use here. A GROUP BY's windows start at its given start: it is the
// question's Start rounded down to the period, so the windows are the
// epoch-aligned periods, and WHERE bounds the rows to [Start, End).
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	s, err := t.binding.Lock(&t.mu)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	_, fields, err := clientside.FleetColumns(q, s, func(sn int, _ string) string { return quoteNode(t.names.sensors[sn]) })
	if err != nil {
		return nil, fmt.Errorf("iotdb: fleet query: %w", err)
	}
	k := q.Fleet.Kind
	f := &fleetSQL{t: t, q: q, fields: fields, trucks: map[string]*ts.Device{}}
	for _, d := range clientside.FleetTrucks(q) {
		pos := s.DevicePos(d.Index)
		if pos < 0 || f.trucks[t.paths[pos]] != nil {
			continue
		}
		f.trucks[t.paths[pos]] = d
		f.from = append(f.from, t.paths[pos])
	}
	if len(f.from) == 0 || (q.End <= q.Start && k != ts.LowFuel && k != ts.HighLoad) {
		return nil, nil // no truck, or an empty window: no rows
	}
	rows, err := f.answer(ctx)
	if err != nil {
		return nil, fmt.Errorf("iotdb: fleet query %s at %s: %w", k, t.addr, err)
	}
	fleet.Sort(rows)
	return rows, nil
}

// truckRow is one row of an ALIGN BY DEVICE answer: the truck, the
// period's start (0 without GROUP BY) and the selected aggregates, NaN
// for a null.
type truckRow struct {
	dev  *ts.Device
	tags map[string]string
	t    int64
	v    []float64
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// window is the WHERE clause of the rows in [Start, End).
func (f *fleetSQL) window() string {
	return fmt.Sprintf(" WHERE time >= %d AND time < %d", f.q.Start, f.q.End)
}

// periods is the GROUP BY of 10-minute periods: from Start rounded down to
// a period, so that IoTDB's windows are the epoch-aligned periods.
func (f *fleetSQL) periods() string {
	return fmt.Sprintf(" GROUP BY ([%d, %d), %dms)", fleet.Floor(f.q.Start, fleet.Period), f.q.End, fleet.Period)
}

// statement is SELECT sel FROM the trucks, then rest, aligned by device.
func (f *fleetSQL) statement(sel []string, rest string) string {
	return "SELECT " + strings.Join(sel, ", ") + " FROM " + strings.Join(f.from, ", ") + rest + " ALIGN BY DEVICE"
}

// answer asks the question's statements and turns IoTDB's rows, aligned by device, into its answer.
//
// long: one case per fleet question kind, each its statements and rows
func (f *fleetSQL) answer(ctx context.Context) ([]ts.FleetRow, error) {
	q := f.q
	fd := f.fields[0]
	name := func(r truckRow) []string { return []string{r.tags[fleet.TagName], r.tags[fleet.TagDriver]} }
	var out []ts.FleetRow
	switch q.Fleet.Kind {
	case ts.LowFuel, ts.HighLoad:
		last, err := f.last(ctx, fd)
		if err != nil {
			return nil, err
		}
		for _, r := range last {
			v := r.v[0]
			keep := q.Fleet.Kind == ts.LowFuel && v < fleet.LowFuelBelow
			if q.Fleet.Kind == ts.HighLoad {
				capacity, err := strconv.ParseFloat(r.tags[fleet.TagLoad], 64)
				keep = err == nil && v/capacity > fleet.HighLoadAbove
			}
			if keep {
				out = append(out, ts.FleetRow{Key: name(r), Values: []float64{v}})
			}
		}
	case ts.StationaryTrucks:
		rows, err := f.run(ctx, f.statement([]string{"avg(" + fd + ")"}, f.window()+
			" HAVING avg("+fd+") < "+num(fleet.StationaryBelow)))
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out = append(out, ts.FleetRow{Key: name(r)})
		}
	case ts.LongDrivingSession, ts.LongDailySession:
		limit := fleet.LongDrivingPeriods
		if q.Fleet.Kind == ts.LongDailySession {
			limit = fleet.LongDailyPeriods
		}
		rows, err := f.driving(ctx)
		if err != nil {
			return nil, err
		}
		n := map[*ts.Device]int{}
		byDev := map[*ts.Device]truckRow{}
		for _, r := range rows {
			n[r.dev]++
			byDev[r.dev] = r
		}
		for d, c := range n {
			if c > limit {
				out = append(out, ts.FleetRow{Key: name(byDev[d]), Values: []float64{float64(c)}})
			}
		}
	case ts.AvgDailyDriving:
		rows, err := f.driving(ctx)
		if err != nil {
			return nil, err
		}
		type acc struct {
			r     truckRow
			total int
			days  map[int64]bool
		}
		by := map[*ts.Device]*acc{}
		for _, r := range rows {
			a := by[r.dev]
			if a == nil {
				a = &acc{r: r, days: map[int64]bool{}}
				by[r.dev] = a
			}
			a.total++
			a.days[fleet.Floor(r.t, fleet.Day)] = true
		}
		for _, a := range by {
			out = append(out, ts.FleetRow{Key: []string{a.r.tags[fleet.TagFleet], a.r.tags[fleet.TagName], a.r.tags[fleet.TagDriver]},
				Values: []float64{float64(a.total) / 6 / float64(len(a.days))}})
		}
	case ts.AvgDailySession:
		rows, err := f.run(ctx, f.statement([]string{"avg(" + fd + ")"}, f.window()+f.periods()+
			" HAVING count("+fd+") > 0"))
		if err != nil {
			return nil, err
		}
		for _, ps := range byTruck(rows) {
			out = append(out, sessions(ps)...)
		}
	case ts.AvgVsProjectedFuel:
		fc := f.fields[1]
		rows, err := f.run(ctx, f.statement([]string{"sum(" + fc + ")", "count(" + fc + ")"},
			f.window()+" AND "+fd+" > "+num(fleet.DrivingAbove)))
		if err != nil {
			return nil, err
		}
		out = avgVsProjected(rows)
	case ts.AvgLoad:
		rows, err := f.run(ctx, f.statement([]string{"avg(" + fd + ")"}, f.window()+" HAVING count("+fd+") > 0"))
		if err != nil {
			return nil, err
		}
		out = avgLoad(rows)
	case ts.DailyActivity:
		rows, err := f.run(ctx, f.statement([]string{"count(" + fd + ")"}, f.window()+f.periods()+
			" HAVING avg("+fd+") < "+num(fleet.ActiveBelow)))
		if err != nil {
			return nil, err
		}
		type key struct {
			fleet, model string
			day          int64
		}
		by := map[key]int{}
		for _, r := range rows {
			by[key{r.tags[fleet.TagFleet], r.tags[fleet.TagModel], fleet.Floor(r.t, fleet.Day)}]++
		}
		for k, n := range by {
			out = append(out, ts.FleetRow{Key: []string{k.fleet, k.model}, Values: []float64{float64(k.day), float64(n) / 144}})
		}
	case ts.BreakdownFrequency:
		// The zeroes of a period: the sum of a CASE over its status
		// points (count_if would count runs of zeroes, not zeroes).
		rows, err := f.run(ctx, f.statement([]string{"count(" + fd + ")", "sum(CASE WHEN " + fd + " = 0 THEN 1 ELSE 0 END)"},
			f.window()+f.periods()+" HAVING count("+fd+") > 0"))
		if err != nil {
			return nil, err
		}
		by := map[string]int{}
		for _, ps := range byTruck(rows) {
			broken := func(r truckRow) bool { return 2*r.v[1] >= r.v[0] }
			for i := 1; i < len(ps); i++ {
				if !broken(ps[i-1]) && broken(ps[i]) {
					by[ps[i].tags[fleet.TagModel]]++
				}
			}
		}
		for m, n := range by {
			out = append(out, ts.FleetRow{Key: []string{m}, Values: []float64{float64(n)}})
		}
	default:
		return nil, fmt.Errorf("unknown question %d", q.Fleet.Kind)
	}
	return out, nil
}

// driving is one row per truck and driving period (mean velocity > 1) in
// the window.
func (f *fleetSQL) driving(ctx context.Context) ([]truckRow, error) {
	fd := f.fields[0]
	return f.run(ctx, f.statement([]string{"count(" + fd + ")"}, f.window()+f.periods()+
		" HAVING avg("+fd+") > "+num(fleet.DrivingAbove)))
}

// byTruck splits rows by truck, each truck's in time order.
func byTruck(rows []truckRow) [][]truckRow {
	by := map[*ts.Device][]truckRow{}
	var order []*ts.Device
	for _, r := range rows {
		if by[r.dev] == nil {
			order = append(order, r.dev)
		}
		by[r.dev] = append(by[r.dev], r)
	}
	out := make([][]truckRow, 0, len(order))
	for _, d := range order {
		ps := by[d]
		slices.SortFunc(ps, func(a, b truckRow) int { return cmp.Compare(a.t, b.t) })
		out = append(out, ps)
	}
	return out
}

// sessions is avg-daily-driving-session's rows of one truck from its
// periods' mean velocities (the server's), in time order.
func sessions(ps []truckRow) []ts.FleetRow {
	starts, means := make([]int64, len(ps)), make([]float64, len(ps))
	for i, p := range ps {
		starts[i], means[i] = p.t, p.v[0]
	}
	return fleet.SessionRows(ps[0].tags[fleet.TagName], starts, means)
}

// avgVsProjected adds up the trucks' sums and counts of fuel_consumption
// while driving per fleet: the mean consumption, and the mean of the
// trucks' nominal consumption over the same rows (each truck's weighed by
// its rows).
func avgVsProjected(rows []truckRow) []ts.FleetRow {
	type acc struct{ fuel, nominal, n float64 }
	by := map[string]*acc{}
	for _, r := range rows {
		nominal, err := strconv.ParseFloat(r.tags[fleet.TagConsumption], 64)
		if err != nil || math.IsNaN(r.v[0]) || r.v[1] == 0 {
			continue // no rows, or a truck fleet's answer leaves out
		}
		f := r.tags[fleet.TagFleet]
		if by[f] == nil {
			by[f] = &acc{}
		}
		by[f].fuel += r.v[0]
		by[f].nominal += nominal * r.v[1]
		by[f].n += r.v[1]
	}
	var out []ts.FleetRow
	for f, a := range by {
		out = append(out, ts.FleetRow{Key: []string{f}, Values: []float64{a.fuel / a.n, a.nominal / a.n}})
	}
	return out
}

// avgLoad averages the trucks' mean load shares per fleet, model and
// capacity.
func avgLoad(rows []truckRow) []ts.FleetRow {
	var shares fleet.LoadShares
	for _, r := range rows {
		capacity, err := strconv.ParseFloat(r.tags[fleet.TagLoad], 64)
		if err != nil || math.IsNaN(r.v[0]) {
			continue
		}
		shares.Add(r.tags, r.v[0]/capacity, 1)
	}
	return shares.Rows()
}

// run executes an ALIGN BY DEVICE statement: one row per truck (and
// period), its aggregates in the order selected.
func (f *fleetSQL) run(ctx context.Context, sql string) ([]truckRow, error) {
	ds, err := f.t.session.ExecuteStatementWithContext(ctx, sql)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sql, err)
	}
	defer ds.Close()
	cols := ds.GetColumnNames()
	var out []truckRow
	for n := 0; ; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ok, err := ds.Next()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sql, err)
		}
		if !ok {
			break
		}
		r := truckRow{}
		for _, c := range cols {
			switch c {
			case "Time":
				r.t = ds.GetCurrentRowTime().UnixMilli()
			case "Device":
				path, err := ds.GetString(c)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", sql, err)
				}
				r.dev = f.trucks[ownPath(path)]
			default:
				v, err := ds.GetObject(c)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", sql, err)
				}
				x, ok := number(v)
				if !ok {
					x = math.NaN()
				}
				r.v = append(r.v, x)
			}
		}
		if r.dev == nil {
			continue // a device the question did not ask about
		}
		r.tags = fleet.TagsOf(r.dev)
		out = append(out, r)
	}
	return out, nil
}

// last is the newest value of measurement m of every truck that has one,
// from SELECT LAST, whose rows name the series and give the value as text.
func (f *fleetSQL) last(ctx context.Context, m string) ([]truckRow, error) {
	sql := "SELECT LAST " + m + " FROM " + strings.Join(f.from, ", ")
	ds, err := f.t.session.ExecuteStatementWithContext(ctx, sql)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sql, err)
	}
	defer ds.Close()
	var out []truckRow
	for {
		ok, err := ds.Next()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sql, err)
		}
		if !ok {
			break
		}
		series, err := ds.GetString("Timeseries")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sql, err)
		}
		v, err := ds.GetString("Value")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sql, err)
		}
		typ, err := ds.GetString("DataType")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sql, err)
		}
		nodes := splitPath(series) // the truck's path, then the measurement
		d := f.trucks[joinPath(nodes[:len(nodes)-1])]
		if d == nil {
			continue
		}
		out = append(out, truckRow{dev: d, tags: fleet.TagsOf(d), t: ds.GetCurrentRowTime().UnixMilli(), v: []float64{parse(v, typ)}})
	}
	return out, nil
}
