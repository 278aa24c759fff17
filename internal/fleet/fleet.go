// Package fleet defines the answers of TSBS's iot questions about a fleet
// of trucks (ts.FleetKind) and computes them from the points alone: the
// check that a target's answer is right. Every target's query must give
// the rows Answer gives for the same points.
//
// The definitions follow TSBS's TimescaleDB queries, except where those
// are wrong (docs/tsbs.md lists each difference and why):
//   - every question reads the rows in [Start, End) (TSBS's whole-data
//     questions have no bounds; tsbench's window is the whole data, the
//     same rows); low-fuel and high-load read each truck's newest point;
//   - periods are 10 minutes and days 24 hours, both aligned to the epoch
//     (TSBS's time_bucket aligns to 2000-01-03, the same boundaries);
//   - a truck's period exists when it has a point of the field in it;
//   - hours are driving periods / 6 and daily activity active periods /
//     144, not truncated (TSBS divides integers);
//   - daily-activity counts active 10-minute periods (TSBS counts their
//     rows, so its "share of the day" grows with the rows per period);
//   - breakdown-frequency's period is broken down when at least half its
//     status points are 0 (TSBS's count(STATUS = 0) / count(*) counts
//     every row with a status and divides integers: its period is broken
//     down exactly when no status is missing).
package fleet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// The time units of the questions, in milliseconds.
const (
	Period = 10 * 60 * 1000      // the 10-minute period of the session questions
	Day    = 24 * 60 * 60 * 1000 // one day
)

// The thresholds of TSBS's questions.
const (
	LowFuelBelow       = 0.1 // low-fuel: fuel_state < 0.1
	HighLoadAbove      = 0.9 // high-load: current_load / load_capacity > 0.9
	StationaryBelow    = 1.0 // stationary-trucks: mean velocity < 1
	DrivingAbove       = 1.0 // a driving period: mean velocity > 1
	SessionDrivingOver = 5.0 // avg-daily-driving-session: driving when mean velocity > 5
	ActiveBelow        = 1.0 // daily-activity: a period whose mean status < 1
	// LongDrivingPeriods: more than 22 driving periods in 4 hours (stopped
	// less than 5 minutes per hour); LongDailyPeriods: more than 60 in 24
	// hours (driving more than 10 hours).
	LongDrivingPeriods = 22
	LongDailyPeriods   = 60
)

// Windows are the spans TSBS gives the windowed questions; the others read
// the whole data.
var Windows = map[ts.FleetKind]int64{
	ts.StationaryTrucks:   Period,
	ts.LongDrivingSession: 4 * 60 * 60 * 1000,
	ts.LongDailySession:   Day,
}

// The truck tags and fields the questions read.
const (
	TagName        = "name"
	TagFleet       = "fleet"
	TagDriver      = "driver"
	TagModel       = "model"
	TagLoad        = "load_capacity"
	TagConsumption = "nominal_fuel_consumption"

	FieldVelocity    = "velocity"
	FieldConsumption = "fuel_consumption"
	FieldFuel        = "fuel_state"
	FieldLoad        = "current_load"
	FieldStatus      = "status"
)

// Fields are the fields kind k reads, in the order its queries use them.
func Fields(k ts.FleetKind) []string {
	switch k {
	case ts.LowFuel:
		return []string{FieldFuel}
	case ts.HighLoad, ts.AvgLoad:
		return []string{FieldLoad}
	case ts.AvgVsProjectedFuel:
		return []string{FieldVelocity, FieldConsumption}
	case ts.DailyActivity, ts.BreakdownFrequency:
		return []string{FieldStatus}
	}
	return []string{FieldVelocity}
}

// Columns names the columns of kind k's rows: its keys, then its values.
func Columns(k ts.FleetKind) (keys, values []string) {
	switch k {
	case ts.LowFuel:
		return []string{TagName, TagDriver}, []string{FieldFuel}
	case ts.HighLoad:
		return []string{TagName, TagDriver}, []string{FieldLoad}
	case ts.StationaryTrucks:
		return []string{TagName, TagDriver}, nil
	case ts.LongDrivingSession, ts.LongDailySession:
		return []string{TagName, TagDriver}, []string{"driving_periods"}
	case ts.AvgVsProjectedFuel:
		return []string{TagFleet}, []string{"avg_fuel_consumption", "projected_fuel_consumption"}
	case ts.AvgDailyDriving:
		return []string{TagFleet, TagName, TagDriver}, []string{"avg_daily_hours"}
	case ts.AvgDailySession:
		return []string{TagName}, []string{"day", "avg_session_ms"}
	case ts.AvgLoad:
		return []string{TagFleet, TagModel}, []string{TagLoad, "avg_load_share"}
	case ts.DailyActivity:
		return []string{TagFleet, TagModel}, []string{"day", "daily_activity"}
	case ts.BreakdownFrequency:
		return []string{TagModel}, []string{"breakdowns"}
	}
	return nil, nil
}

// NeedsFleet reports whether kind k asks about one fleet.
func NeedsFleet(k ts.FleetKind) bool {
	switch k {
	case ts.LowFuel, ts.HighLoad, ts.StationaryTrucks, ts.LongDrivingSession, ts.LongDailySession:
		return true
	}
	return false
}

// Point is one stored value.
type Point struct {
	T int64
	V float64
}

// Truck is one device's tags and the points of the fields a question
// reads, each in time order.
type Truck struct {
	Tags   map[string]string
	Points map[string][]Point
}

// TagsOf makes a device's tags a map.
func TagsOf(d *ts.Device) map[string]string {
	m := make(map[string]string, len(d.Tags))
	for _, t := range d.Tags {
		m[t.Key] = t.Value
	}
	return m
}

// Answer is q's answer over the trucks' points, in Sort's order.
func Answer(q *ts.Query, trucks []Truck) []ts.FleetRow {
	var rows []ts.FleetRow
	switch q.Fleet.Kind {
	case ts.AvgVsProjectedFuel:
		rows = avgVsProjected(q, trucks)
	case ts.AvgLoad:
		rows = avgLoad(q, trucks)
	case ts.DailyActivity:
		rows = dailyActivity(q, trucks)
	case ts.BreakdownFrequency:
		rows = breakdowns(q, trucks)
	default:
		for i := range trucks {
			if tr := &trucks[i]; !NeedsFleet(q.Fleet.Kind) || tr.Tags[TagFleet] == q.Fleet.Fleet {
				rows = append(rows, perTruck(q, tr)...)
			}
		}
	}
	Sort(rows)
	return rows
}

// perTruck is the rows of one truck for the questions answered truck by
// truck.
func perTruck(q *ts.Query, tr *Truck) []ts.FleetRow {
	name, driver := tr.Tags[TagName], tr.Tags[TagDriver]
	row := func(keys []string, v ...float64) []ts.FleetRow { return []ts.FleetRow{{Key: keys, Values: v}} }
	switch q.Fleet.Kind {
	case ts.LowFuel:
		if p, ok := newest(tr.Points[FieldFuel]); ok && p.V < LowFuelBelow {
			return row([]string{name, driver}, p.V)
		}
	case ts.HighLoad:
		capacity, err := strconv.ParseFloat(tr.Tags[TagLoad], 64)
		if p, ok := newest(tr.Points[FieldLoad]); ok && err == nil && p.V/capacity > HighLoadAbove {
			return row([]string{name, driver}, p.V)
		}
	case ts.StationaryTrucks:
		if s, n := sumIn(tr.Points[FieldVelocity], q.Start, q.End); n > 0 && s/float64(n) < StationaryBelow {
			return row([]string{name, driver})
		}
	case ts.LongDrivingSession, ts.LongDailySession:
		limit := LongDrivingPeriods
		if q.Fleet.Kind == ts.LongDailySession {
			limit = LongDailyPeriods
		}
		n := 0
		for _, p := range periods(tr.Points[FieldVelocity], q.Start, q.End) {
			if p.mean() > DrivingAbove {
				n++
			}
		}
		if n > limit {
			return row([]string{name, driver}, float64(n))
		}
	case ts.AvgDailyDriving:
		days := map[int64]int{}
		for _, p := range periods(tr.Points[FieldVelocity], q.Start, q.End) {
			if p.mean() > DrivingAbove {
				days[Floor(p.start, Day)]++
			}
		}
		if len(days) > 0 {
			total := 0
			for _, n := range days {
				total += n
			}
			return row([]string{tr.Tags[TagFleet], name, driver}, float64(total)/6/float64(len(days)))
		}
	case ts.AvgDailySession:
		return sessions(q, tr)
	}
	return nil
}

// sessions is avg-daily-driving-session's rows of one truck over its
// periods' mean velocity (SessionRows).
func sessions(q *ts.Query, tr *Truck) []ts.FleetRow {
	ps := periods(tr.Points[FieldVelocity], q.Start, q.End)
	starts, means := make([]int64, len(ps)), make([]float64, len(ps))
	for i, p := range ps {
		starts[i], means[i] = p.start, p.mean()
	}
	return SessionRows(tr.Tags[TagName], starts, means)
}

// SessionRows is avg-daily-driving-session's rows of the truck called
// name, from its periods (their starts, in time order, and mean
// velocities): a session runs from a period where the truck starts
// driving (mean velocity > 5 after a period where it did not) to the next
// period where it stops; the mean length of the sessions starting each
// day. A session still running at the window's end has no length and is
// left out, as TSBS's lead() gives it none. For targets whose server
// gives the periods' means but has no lag/lead.
func SessionRows(name string, starts []int64, means []float64) []ts.FleetRow {
	type change struct {
		t       int64
		driving bool
	}
	var changes []change
	for i := 1; i < len(means); i++ {
		if d := means[i] > SessionDrivingOver; d != (means[i-1] > SessionDrivingOver) {
			changes = append(changes, change{starts[i], d})
		}
	}
	type acc struct {
		sum float64
		n   int
	}
	byDay := map[int64]*acc{}
	for i := 0; i+1 < len(changes); i++ {
		if !changes[i].driving {
			continue
		}
		day := Floor(changes[i].t, Day)
		if byDay[day] == nil {
			byDay[day] = &acc{}
		}
		byDay[day].sum += float64(changes[i+1].t - changes[i].t)
		byDay[day].n++
	}
	var rows []ts.FleetRow
	for day, a := range byDay {
		rows = append(rows, ts.FleetRow{Key: []string{name}, Values: []float64{float64(day), a.sum / float64(a.n)}})
	}
	return rows
}

// avgVsProjected is, per fleet, the mean fuel_consumption of the rows
// where velocity > 1, and the mean nominal_fuel_consumption of the trucks
// over the same rows (a row: a time with both fields).
func avgVsProjected(q *ts.Query, trucks []Truck) []ts.FleetRow {
	type acc struct{ fuel, nominal, n float64 }
	by := map[string]*acc{}
	for i := range trucks {
		tr := &trucks[i]
		nominal, err := strconv.ParseFloat(tr.Tags[TagConsumption], 64)
		if err != nil {
			continue
		}
		vel := tr.Points[FieldVelocity]
		j := 0
		for _, p := range tr.Points[FieldConsumption] {
			if p.T < q.Start || p.T >= q.End {
				continue
			}
			for j < len(vel) && vel[j].T < p.T {
				j++
			}
			if j < len(vel) && vel[j].T == p.T && vel[j].V > DrivingAbove {
				f := tr.Tags[TagFleet]
				if by[f] == nil {
					by[f] = &acc{}
				}
				by[f].fuel += p.V
				by[f].nominal += nominal
				by[f].n++
			}
		}
	}
	var rows []ts.FleetRow
	for f, a := range by {
		rows = append(rows, ts.FleetRow{Key: []string{f}, Values: []float64{a.fuel / a.n, a.nominal / a.n}})
	}
	return rows
}

// avgLoad is, per fleet, model and load capacity, the mean over the
// trucks of each truck's mean current_load divided by its capacity.
func avgLoad(q *ts.Query, trucks []Truck) []ts.FleetRow {
	var shares LoadShares
	for i := range trucks {
		tr := &trucks[i]
		capacity, err := strconv.ParseFloat(tr.Tags[TagLoad], 64)
		s, n := sumIn(tr.Points[FieldLoad], q.Start, q.End)
		if err != nil || n == 0 {
			continue
		}
		shares.Add(tr.Tags, s/float64(n)/capacity, 1)
	}
	return shares.Rows()
}

// LoadShares gathers avg-load's answer, wherever the trucks' shares are
// computed (here, or by a target from its server's per-truck means): per
// fleet, model and load capacity, the mean over the trucks of each truck's
// mean current_load / load_capacity.
type LoadShares struct {
	by map[loadKey]*loadAcc
}

type loadKey struct{ fleet, model, capacity string }

type loadAcc struct{ sum, trucks float64 }

// Add counts trucks trucks of the fleet, model and capacity in tags whose
// load shares add up to sum.
func (l *LoadShares) Add(tags map[string]string, sum, trucks float64) {
	if l.by == nil {
		l.by = map[loadKey]*loadAcc{}
	}
	k := loadKey{tags[TagFleet], tags[TagModel], tags[TagLoad]}
	if l.by[k] == nil {
		l.by[k] = &loadAcc{}
	}
	l.by[k].sum += sum
	l.by[k].trucks += trucks
}

// Rows is the answer: keyed by fleet and model, the load capacity and the
// mean share.
func (l *LoadShares) Rows() []ts.FleetRow {
	var rows []ts.FleetRow
	for k, a := range l.by {
		capacity, _ := strconv.ParseFloat(k.capacity, 64)
		rows = append(rows, ts.FleetRow{Key: []string{k.fleet, k.model}, Values: []float64{capacity, a.sum / a.trucks}})
	}
	return rows
}

// dailyActivity is, per fleet, model and day, the trucks' active periods
// (mean status < 1) that day, over the 144 periods of a day.
func dailyActivity(q *ts.Query, trucks []Truck) []ts.FleetRow {
	type key struct {
		fleet, model string
		day          int64
	}
	by := map[key]int{}
	for i := range trucks {
		tr := &trucks[i]
		for _, p := range periods(tr.Points[FieldStatus], q.Start, q.End) {
			if p.mean() < ActiveBelow {
				by[key{tr.Tags[TagFleet], tr.Tags[TagModel], Floor(p.start, Day)}]++
			}
		}
	}
	var rows []ts.FleetRow
	for k, n := range by {
		rows = append(rows, ts.FleetRow{Key: []string{k.fleet, k.model}, Values: []float64{float64(k.day), float64(n) / 144}})
	}
	return rows
}

// breakdowns is, per model, how often a truck's period was broken down
// (at least half its status points 0) right after one that was not; only
// models with a breakdown have a row.
func breakdowns(q *ts.Query, trucks []Truck) []ts.FleetRow {
	by := map[string]int{}
	for i := range trucks {
		tr := &trucks[i]
		ps := periods(tr.Points[FieldStatus], q.Start, q.End)
		for j := 1; j < len(ps); j++ {
			if !ps[j-1].broken() && ps[j].broken() {
				by[tr.Tags[TagModel]]++
			}
		}
	}
	var rows []ts.FleetRow
	for m, n := range by {
		rows = append(rows, ts.FleetRow{Key: []string{m}, Values: []float64{float64(n)}})
	}
	return rows
}

// period is one 10-minute period's points of a field.
type period struct {
	start     int64
	sum       float64
	n, zeroes int
}

func (p period) mean() float64 { return p.sum / float64(p.n) }

func (p period) broken() bool { return 2*p.zeroes >= p.n }

// periods groups the points in [start, end) by 10-minute period, in time
// order; a period without points is absent.
func periods(pts []Point, start, end int64) []period {
	var out []period
	for _, p := range pts {
		if p.T < start || p.T >= end {
			continue
		}
		b := Floor(p.T, Period)
		if len(out) == 0 || out[len(out)-1].start != b {
			out = append(out, period{start: b})
		}
		last := &out[len(out)-1]
		last.sum += p.V
		last.n++
		if p.V == 0 {
			last.zeroes++
		}
	}
	return out
}

// sumIn is the sum and number of the points in [start, end).
func sumIn(pts []Point, start, end int64) (float64, int) {
	var s float64
	n := 0
	for _, p := range pts {
		if p.T >= start && p.T < end {
			s += p.V
			n++
		}
	}
	return s, n
}

// newest is the last point, if any.
func newest(pts []Point) (Point, bool) {
	if len(pts) == 0 {
		return Point{}, false
	}
	return pts[len(pts)-1], true
}

// Floor rounds t down to a multiple of unit (also before 1970): the start
// of t's period or day.
func Floor(t, unit int64) int64 {
	r := t % unit
	if r < 0 {
		r += unit
	}
	return t - r
}

// Sort orders rows by their keys, then their values, so that answers
// compare whatever order a server returned them in.
func Sort(rows []ts.FleetRow) {
	slices.SortFunc(rows, func(a, b ts.FleetRow) int {
		if c := slices.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return slices.CompareFunc(a.Values, b.Values, func(x, y float64) int { return cmp.Compare(x, y) })
	})
}

// Diff compares a target's rows (sorted here) with Answer's: "" when they
// agree (values within a relative 1e-9, for sums the server adds in
// another order), else the first difference.
func Diff(got, want []ts.FleetRow) string {
	got = slices.Clone(got)
	Sort(got)
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d (first rows: got %s, want %s)", len(got), len(want), head(got), head(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if !slices.Equal(g.Key, w.Key) || len(g.Values) != len(w.Values) {
			return fmt.Sprintf("row %d is %s, want %s", i, format(g), format(w))
		}
		for j := range w.Values {
			if d := math.Abs(g.Values[j] - w.Values[j]); d > 1e-9*math.Max(1, math.Abs(w.Values[j])) {
				return fmt.Sprintf("row %d is %s, want %s", i, format(g), format(w))
			}
		}
	}
	return ""
}

func head(rows []ts.FleetRow) string {
	var parts []string
	for _, r := range rows[:min(len(rows), 3)] {
		parts = append(parts, format(r))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func format(r ts.FleetRow) string {
	return fmt.Sprintf("%v%v", r.Key, r.Values)
}

// FieldNames checks that q is a fleet question whose sensors are the
// fields its kind reads (Fields), in s, and returns their names, for the
// targets that address the fields by name.
func FieldNames(q *ts.Query, s *ts.Schema) ([]string, error) {
	if q.Fleet == nil {
		return nil, fmt.Errorf("%s is not a fleet question", q.Kind)
	}
	want := Fields(q.Fleet.Kind)
	if len(q.Sensors) != len(want) {
		return nil, fmt.Errorf("%s: %d sensors, want %d (%s)", q.Fleet.Kind, len(q.Sensors), len(want), strings.Join(want, ", "))
	}
	names := make([]string, len(q.Sensors))
	for i, sn := range q.Sensors {
		if sn < 0 || sn >= len(s.Sensors) {
			return nil, fmt.Errorf("%s: sensor %d not in the schema", q.Fleet.Kind, sn)
		}
		names[i] = s.Sensors[sn].Name
	}
	return names, nil
}
