package influxdb

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/ts"
)

// FleetQuery answers one of TSBS's iot questions (targets.FleetQuerier)
// in InfluxQL. A truck's tags (name, fleet, driver, model, load_capacity,
// nominal_fuel_consumption) are tags of its series, written with every
// line (lineproto.NewSeries), so the statements filter and group by them
// on the server; each kind's definition is internal/fleet's.
//
// On the server, whole: low-fuel, high-load, stationary-trucks,
// long-driving-sessions, long-daily-sessions, avg-daily-driving-duration,
// daily-activity and breakdown-frequency (nested subqueries: 10-minute
// periods by GROUP BY time(10m), which aligns to the epoch as fleet's
// periods do, then a filter on the aggregate in an outer WHERE, then a
// count or mean). high-load compares the newest load with each truck's
// capacity: InfluxQL cannot do arithmetic with a tag's value, so the
// capacities (known from the schema) become literals of the outer WHERE.
//
// Partly on the client, the step InfluxQL cannot express:
//   - avg-vs-projected-fuel-consumption: the server sums fuel_consumption
//     over the rows with velocity > 1, grouped by fleet and
//     nominal_fuel_consumption; the projection averages the tag's number,
//     which InfluxQL cannot read, so the client weighs each nominal value
//     by its rows and divides;
//   - avg-load: the server gives, per capacity (one statement each, the
//     capacity a literal), the sum and count of the trucks' mean load
//     shares by fleet and model; the client divides;
//   - avg-daily-driving-session: the server finds the periods where a
//     truck starts or stops driving (difference() of a 0/1 "driving" per
//     period); pairing a start with the next stop and averaging by the
//     start's day is the client's, as InfluxQL's elapsed() would credit
//     the session to the day of its stop.
//
// Trucks of several groups live in several measurements, and InfluxQL
// never aggregates across measurements: each measurement gets its own
// statements (in one request) and the client adds their partial answers
// (TSBS's iot data is one group, so normally there is one).
func (t *Target) FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error) {
	if q.Fleet == nil {
		return nil, fmt.Errorf("influxdb: fleet query: not a fleet question")
	}
	names, err := t.server()
	if err != nil {
		return nil, err
	}
	f := &fleetQL{s: names.srv, q: q, names: names, srcs: fleetSources(names.srv, names.serverDevices(q.Devices))}
	stmts, err := f.statements()
	if err != nil {
		return nil, err
	}
	if len(stmts) == 0 {
		return nil, nil // nothing to ask (no truck of a parseable capacity)
	}
	resp, err := t.influxql(ctx, strings.Join(stmts, "; "))
	if err != nil {
		return nil, fmt.Errorf("influxdb: fleet query %s: %w", q.Fleet.Kind, err)
	}
	rows, err := f.answer(flatten(resp, names))
	if err != nil {
		return nil, fmt.Errorf("influxdb: fleet query %s: %w", q.Fleet.Kind, err)
	}
	fleet.Sort(rows)
	return rows, nil
}

// fleetSource is one measurement a question reads: its quoted name and the
// condition choosing the question's trucks among its series, "" when they
// are all of them (TSBS's questions read every truck: no list of names).
type fleetSource struct{ from, devs string }

// fleetSources groups devs by measurement, in name order.
func fleetSources(s *ts.Schema, devs []*ts.Device) []fleetSource {
	all := map[string]int{}
	for i := range s.Devices {
		all[measurement(s, &s.Devices[i])]++
	}
	chosen := map[string][]string{}
	seen := map[string]bool{}
	for _, d := range devs {
		if seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		m := measurement(s, d)
		chosen[m] = append(chosen[m], deviceTag+" = "+literal(d.Name))
	}
	var out []fleetSource
	for m, conds := range chosen {
		src := fleetSource{from: ident(m)}
		if len(conds) != all[m] {
			src.devs = "(" + strings.Join(conds, " OR ") + ")"
		}
		out = append(out, src)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out
}

// fleetQL builds a question's statements and reads their answers. s is
// the schema under the server's names; q's devices keep the user's, whose
// tags (fleet.TagsOf) the statements hold as literals of the server's.
type fleetQL struct {
	s     *ts.Schema
	q     *ts.Query
	names *serverNames
	srcs  []fleetSource
}

// tagIs is the condition "tag key has value", both under the server's
// names.
func (f *fleetQL) tagIs(key, value string) string {
	return ident(f.names.tagKey(key)) + "::tag = " + literal(f.names.values.Server(value))
}

// where joins the conditions that are not empty into a WHERE clause.
func where(conds ...string) string {
	var kept []string
	for _, c := range conds {
		if c != "" {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(kept, " AND ")
}

func msLit(v int64) string { return strconv.FormatInt(v, 10) + "ms" }

// window is the question's rows: [Start, End).
func (f *fleetQL) window() string {
	return "time >= " + msLit(f.q.Start) + " AND time < " + msLit(f.q.End)
}

// periodWindow bounds a query over the periods of an inner query, which
// needs one for its GROUP BY time(1d). A period's time is its start,
// aligned to the epoch, so the first one of a window that starts inside a
// period is before Start: the bound starts at that period. (InfluxDB 1.6
// narrows the inner query to the outer range rather than filtering the
// periods' times, so Start would do there too; the points before Start
// stay out either way, the inner query's own bound being Start.)
func (f *fleetQL) periodWindow() string {
	return "time >= " + msLit(floorTo(f.q.Start, fleet.Period)) + " AND time < " + msLit(f.q.End)
}

// fleetCond chooses the asked fleet's trucks, for the kinds that ask
// about one.
func (f *fleetQL) fleetCond() string {
	if !fleet.NeedsFleet(f.q.Fleet.Kind) {
		return ""
	}
	return f.tagIs(fleet.TagFleet, f.q.Fleet.Fleet)
}

// field is the quoted name of the question's i-th field.
func (f *fleetQL) field(i int) (string, error) {
	want := fleet.Fields(f.q.Fleet.Kind)
	if len(f.q.Sensors) != len(want) {
		return "", fmt.Errorf("influxdb: fleet query %s: %d sensors, want %d (%v)", f.q.Fleet.Kind, len(f.q.Sensors), len(want), want)
	}
	sn := f.q.Sensors[i]
	if sn < 0 || sn >= len(f.s.Sensors) {
		return "", fmt.Errorf("influxdb: fleet query %s: sensor %d not in the schema", f.q.Fleet.Kind, sn)
	}
	return field(f.s.Sensors[sn].Name), nil
}

// groupBy quotes tag keys, under the server's names, for a GROUP BY.
func (f *fleetQL) groupBy(keys ...string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = ident(f.names.tagKey(k))
	}
	return " GROUP BY " + strings.Join(q, ", ")
}

// perTruck are the tags that keep each truck's rows apart and name them.
var perTruck = []string{"device", fleet.TagName, fleet.TagDriver}

func num64(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// statements are the question's statements, for every measurement.
func (f *fleetQL) statements() ([]string, error) {
	var out []string
	for _, src := range f.srcs {
		st, err := f.statementsOf(src)
		if err != nil {
			return nil, err
		}
		out = append(out, st...)
	}
	return out, nil
}

// statementsOf is the InfluxQL statements of the question, over src.
//
// long: one case per fleet question kind, each its statements
func (f *fleetQL) statementsOf(src fleetSource) ([]string, error) {
	k := f.q.Fleet.Kind
	fd, err := f.field(0)
	if err != nil {
		return nil, err
	}
	// periods is the mean of the field per truck and 10-minute period in
	// the window, tagged with keys: a period exists when the truck has a
	// point of the field in it (fill(none)).
	periods := func(keys ...string) string {
		return "SELECT mean(" + fd + ") AS mv FROM " + src.from + where(src.devs, f.fleetCond(), f.window()) +
			" GROUP BY time(10m), " + strings.TrimPrefix(f.groupBy(keys...), " GROUP BY ") + " fill(none)"
	}
	switch k {
	case ts.LowFuel:
		// The newest point of each truck, whatever the window.
		inner := "SELECT last(" + fd + ") AS v FROM " + src.from + where(src.devs, f.fleetCond()) + f.groupBy(perTruck...)
		return []string{"SELECT v FROM (" + inner + ") WHERE v < " + num64(fleet.LowFuelBelow) + f.groupBy(perTruck...)}, nil
	case ts.HighLoad:
		// load / capacity > 0.9 for each capacity of the fleet's trucks,
		// written into the statement: the division is the same as
		// fleet's, so a load at the border is judged alike.
		var caps []string
		seen := map[string]bool{}
		for _, d := range f.q.Devices {
			tags := fleet.TagsOf(d)
			c := tags[fleet.TagLoad]
			if tags[fleet.TagFleet] != f.q.Fleet.Fleet || seen[c] {
				continue
			}
			seen[c] = true
			capacity, err := strconv.ParseFloat(c, 64)
			if err != nil || capacity == 0 || math.IsInf(capacity, 0) || math.IsNaN(capacity) {
				continue // fleet's answer leaves out a truck without a capacity
			}
			caps = append(caps, "("+f.tagIs(fleet.TagLoad, c)+" AND v / "+floatLit(capacity)+" > "+num64(fleet.HighLoadAbove)+")")
		}
		if len(caps) == 0 {
			return nil, nil
		}
		sort.Strings(caps)
		keys := append(append([]string(nil), perTruck...), fleet.TagLoad)
		inner := "SELECT last(" + fd + ") AS v FROM " + src.from + where(src.devs, f.fleetCond()) + f.groupBy(keys...)
		return []string{"SELECT v FROM (" + inner + ") WHERE (" + strings.Join(caps, " OR ") + ")" + f.groupBy(keys...)}, nil
	case ts.StationaryTrucks:
		inner := "SELECT mean(" + fd + ") AS mv FROM " + src.from + where(src.devs, f.fleetCond(), f.window()) + f.groupBy(perTruck...)
		return []string{"SELECT mv FROM (" + inner + ") WHERE mv < " + num64(fleet.StationaryBelow) + f.groupBy(perTruck...)}, nil
	case ts.LongDrivingSession, ts.LongDailySession:
		limit := fleet.LongDrivingPeriods
		if k == ts.LongDailySession {
			limit = fleet.LongDailyPeriods
		}
		count := "SELECT count(mv) AS n FROM (" + periods(perTruck...) + ") WHERE mv > " + num64(fleet.DrivingAbove) + f.groupBy(perTruck...)
		return []string{"SELECT n FROM (" + count + ") WHERE n > " + strconv.Itoa(limit) + f.groupBy(perTruck...)}, nil
	case ts.AvgDailyDriving:
		keys := []string{"device", fleet.TagFleet, fleet.TagName, fleet.TagDriver}
		perDay := "SELECT count(mv) AS n FROM (" + periods(keys...) + ") WHERE mv > " + num64(fleet.DrivingAbove) + " AND " +
			f.periodWindow() + " GROUP BY time(1d), " + strings.TrimPrefix(f.groupBy(keys...), " GROUP BY ") + " fill(none)"
		// A day without a driving period is no day of the mean.
		return []string{"SELECT mean(n) / 6 AS hours FROM (" + perDay + ") WHERE n > 0" + f.groupBy(keys...)}, nil
	case ts.AvgDailySession:
		keys := []string{"device", fleet.TagName}
		// over is mean velocity - 5 where the truck drives, 0 where not;
		// over / over is then 1 or 0 (InfluxQL divides by zero to 0).
		over := "(mv - " + num64(fleet.SessionDrivingOver) + " + abs(mv - " + num64(fleet.SessionDrivingOver) + "))"
		driving := "SELECT " + over + " / " + over + " AS driving FROM (" + periods(keys...) + ")" + f.groupBy(keys...)
		diff := "SELECT difference(driving) AS change FROM (" + driving + ")" + f.groupBy(keys...)
		return []string{"SELECT change FROM (" + diff + ") WHERE change <> 0" + f.groupBy(keys...)}, nil
	case ts.AvgLoad:
		// One statement per capacity, which is a literal of it: the
		// trucks' mean load over their capacity, summed and counted by
		// fleet and model.
		var out []string
		seen := map[string]bool{}
		for _, d := range f.q.Devices {
			c := fleet.TagsOf(d)[fleet.TagLoad]
			if seen[c] {
				continue
			}
			seen[c] = true
			capacity, err := strconv.ParseFloat(c, 64)
			if err != nil || capacity == 0 || math.IsInf(capacity, 0) || math.IsNaN(capacity) {
				continue
			}
			share := "SELECT mean(" + fd + ") / " + floatLit(capacity) + " AS share FROM " + src.from +
				where(src.devs, f.tagIs(fleet.TagLoad, c), f.window()) +
				f.groupBy("device", fleet.TagFleet, fleet.TagModel, fleet.TagLoad)
			out = append(out, "SELECT sum(share) AS total, count(share) AS trucks FROM ("+share+")"+
				f.groupBy(fleet.TagFleet, fleet.TagModel, fleet.TagLoad))
		}
		sort.Strings(out)
		return out, nil
	case ts.AvgVsProjectedFuel:
		vel := fd
		fuel, err := f.field(1)
		if err != nil {
			return nil, err
		}
		// A row has both fields: the WHERE on velocity drops rows without
		// it, count(fuel) the rows without fuel_consumption.
		return []string{"SELECT sum(" + fuel + ") AS fuel, count(" + fuel + ") AS n FROM " + src.from +
			where(src.devs, vel+" > "+num64(fleet.DrivingAbove), f.window()) +
			f.groupBy(fleet.TagFleet, fleet.TagConsumption)}, nil
	case ts.DailyActivity:
		keys := []string{"device", fleet.TagFleet, fleet.TagModel}
		return []string{"SELECT count(mv) / 144 AS activity FROM (" + periods(keys...) + ") WHERE mv < " + num64(fleet.ActiveBelow) +
			" AND " + f.periodWindow() + " GROUP BY time(1d), " + strings.TrimPrefix(f.groupBy(fleet.TagFleet, fleet.TagModel), " GROUP BY ") + " fill(none)"}, nil
	case ts.BreakdownFrequency:
		keys := []string{"device", fleet.TagModel}
		// nonzero is 1 for a status point that is not 0, 0 for one that
		// is (InfluxQL divides by zero to 0). A period is up (not broken
		// down) when more than half its points are not 0: 2*nonzero >=
		// n+1, so floor(2*nonzero / (n+1)) is 1 when up and 0 when not
		// (it stays below 2). A breakdown is a period down right after
		// one up: a difference of -1 between a truck's periods.
		nonzero := "SELECT " + fd + " / " + fd + " AS nonzero FROM " + src.from + where(src.devs, f.window()) + f.groupBy(keys...)
		up := "SELECT floor(2 * sum(nonzero) / (count(nonzero) + 1)) AS up FROM (" + nonzero + ") WHERE " + f.periodWindow() +
			" GROUP BY time(10m), " + strings.TrimPrefix(f.groupBy(keys...), " GROUP BY ") + " fill(none)"
		diff := "SELECT difference(up) AS change FROM (" + up + ")" + f.groupBy(keys...)
		return []string{"SELECT count(change) AS breakdowns FROM (" + diff + ") WHERE change = -1" + f.groupBy(fleet.TagModel)}, nil
	}
	return nil, fmt.Errorf("influxdb: fleet query: kind %s unknown", k)
}

// floatLit writes v as an InfluxQL float literal, so that a division by it
// is never an integer one.
func floatLit(v float64) string {
	s := num64(v)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// fleetResult is one row of an answer: its series' tags, its time and its
// columns that are not null, by name.
type fleetResult struct {
	tags map[string]string
	time int64
	vals map[string]float64
}

// flatten lists every row of every series of every statement's result,
// their tags under the user's names.
func flatten(resp *response, names *serverNames) []fleetResult {
	var out []fleetResult
	for _, r := range resp.Results {
		for _, se := range r.Series {
			for _, row := range se.Values {
				fr := fleetResult{tags: names.originalTags(se.Tags), vals: map[string]float64{}}
				for i, c := range se.Columns {
					if i >= len(row) || row[i] == nil {
						continue
					}
					if c == "time" {
						fr.time = int64(num(row[i]))
						continue
					}
					fr.vals[c] = num(row[i])
				}
				out = append(out, fr)
			}
		}
	}
	return out
}

// answer turns the servers' rows into the question's.
//
// long: one case per fleet question kind, each reading the rows it asked for
func (f *fleetQL) answer(res []fleetResult) ([]ts.FleetRow, error) {
	get := func(r fleetResult, col string) (float64, error) {
		v, ok := r.vals[col]
		if !ok {
			return 0, fmt.Errorf("a row of %v without %s", r.tags, col)
		}
		return v, nil
	}
	// get2 reads the two columns of r that a kind adds up together.
	get2 := func(r fleetResult, a, b string) (float64, float64, error) {
		x, err := get(r, a)
		if err != nil {
			return 0, 0, err
		}
		y, err := get(r, b)
		return x, y, err
	}
	var rows []ts.FleetRow
	switch k := f.q.Fleet.Kind; k {
	case ts.LowFuel, ts.HighLoad, ts.StationaryTrucks, ts.LongDrivingSession, ts.LongDailySession, ts.AvgDailyDriving:
		col := map[ts.FleetKind]string{ts.LowFuel: "v", ts.HighLoad: "v", ts.LongDrivingSession: "n",
			ts.LongDailySession: "n", ts.AvgDailyDriving: "hours"}[k]
		for _, r := range res {
			key := []string{r.tags[fleet.TagName], r.tags[fleet.TagDriver]}
			if k == ts.AvgDailyDriving {
				key = append([]string{r.tags[fleet.TagFleet]}, key...)
			}
			row := ts.FleetRow{Key: key}
			if col != "" {
				v, err := get(r, col)
				if err != nil {
					return nil, err
				}
				row.Values = []float64{v}
			}
			rows = append(rows, row)
		}
	case ts.AvgDailySession:
		return f.sessions(res)
	case ts.AvgVsProjectedFuel:
		type acc struct{ fuel, nominal, n float64 }
		by := map[string]*acc{}
		for _, r := range res {
			fuel, n, err := get2(r, "fuel", "n")
			if err != nil {
				return nil, err
			}
			nominal, perr := strconv.ParseFloat(r.tags[fleet.TagConsumption], 64)
			if perr != nil || n == 0 {
				continue // fleet's answer leaves out a truck without a nominal consumption
			}
			a := by[r.tags[fleet.TagFleet]]
			if a == nil {
				a = &acc{}
				by[r.tags[fleet.TagFleet]] = a
			}
			a.fuel += fuel
			a.nominal += nominal * n
			a.n += n
		}
		for fl, a := range by {
			rows = append(rows, ts.FleetRow{Key: []string{fl}, Values: []float64{a.fuel / a.n, a.nominal / a.n}})
		}
	case ts.AvgLoad:
		var shares fleet.LoadShares
		for _, r := range res {
			total, n, err := get2(r, "total", "trucks")
			if err != nil {
				return nil, err
			}
			if n > 0 {
				shares.Add(r.tags, total, n)
			}
		}
		rows = shares.Rows()
	case ts.DailyActivity:
		type key struct {
			fleet, model string
			day          int64
		}
		by := map[key]float64{}
		for _, r := range res {
			v, err := get(r, "activity")
			if err != nil {
				return nil, err
			}
			if v > 0 { // a day without an active period has no row
				by[key{r.tags[fleet.TagFleet], r.tags[fleet.TagModel], r.time}] += v
			}
		}
		for kk, v := range by {
			rows = append(rows, ts.FleetRow{Key: []string{kk.fleet, kk.model}, Values: []float64{float64(kk.day), v}})
		}
	case ts.BreakdownFrequency:
		by := map[string]float64{}
		for _, r := range res {
			v, err := get(r, "breakdowns")
			if err != nil {
				return nil, err
			}
			by[r.tags[fleet.TagModel]] += v
		}
		for m, n := range by {
			if n > 0 { // only models with a breakdown have a row
				rows = append(rows, ts.FleetRow{Key: []string{m}, Values: []float64{n}})
			}
		}
	default:
		return nil, fmt.Errorf("kind %s unknown", k)
	}
	return rows, nil
}

// sessions pairs each truck's changes (the server's rows, in time order
// within a truck: +1 where it starts driving, -1 where it stops) into
// sessions, a start and the next stop, and averages their lengths by the
// day of the start. A session still running at the window's end has no
// stop and is left out, as fleet's definition says.
func (f *fleetQL) sessions(res []fleetResult) ([]ts.FleetRow, error) {
	type change struct {
		t     int64
		start bool
	}
	type truck struct{ device, name string }
	changes := map[truck][]change{}
	for _, r := range res {
		v, ok := r.vals["change"]
		if !ok {
			return nil, fmt.Errorf("a row of %v without change", r.tags)
		}
		tr := truck{r.tags["device"], r.tags[fleet.TagName]}
		changes[tr] = append(changes[tr], change{r.time, v > 0})
	}
	type acc struct{ sum, n float64 }
	by := map[truck]map[int64]*acc{}
	for tr, cs := range changes {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].t < cs[j].t })
		for i := 0; i+1 < len(cs); i++ {
			if !cs[i].start {
				continue
			}
			day := floorTo(cs[i].t, fleet.Day)
			if by[tr] == nil {
				by[tr] = map[int64]*acc{}
			}
			a := by[tr][day]
			if a == nil {
				a = &acc{}
				by[tr][day] = a
			}
			a.sum += float64(cs[i+1].t - cs[i].t)
			a.n++
		}
	}
	var rows []ts.FleetRow
	for tr, days := range by {
		for day, a := range days {
			rows = append(rows, ts.FleetRow{Key: []string{tr.name}, Values: []float64{float64(day), a.sum / a.n}})
		}
	}
	return rows, nil
}

// floorTo rounds t down to a multiple of unit (also before 1970).
func floorTo(t, unit int64) int64 {
	r := t % unit
	if r < 0 {
		r += unit
	}
	return t - r
}
