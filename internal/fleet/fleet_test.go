package fleet

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

const minute = 60_000

// truck makes a truck of fleet f with its points of one field, given as
// (minute, value) pairs.
func truck(name, f, model, load string, field string, pts ...[2]float64) Truck {
	tr := Truck{Tags: map[string]string{TagName: name, TagFleet: f, TagDriver: "d_" + name, TagModel: model,
		TagLoad: load, TagConsumption: "15"}, Points: map[string][]Point{}}
	for _, p := range pts {
		tr.Points[field] = append(tr.Points[field], Point{T: int64(p[0]) * minute, V: p[1]})
	}
	return tr
}

func ask(k ts.FleetKind, f string, start, end int64) *ts.Query {
	return &ts.Query{Start: start, End: end, Fleet: &ts.FleetQuery{Kind: k, Fleet: f}}
}

func TestAnswer(t *testing.T) {
	day := int64(Day)
	for _, c := range []struct {
		name   string
		q      *ts.Query
		trucks []Truck
		want   string
	}{
		{"low fuel: the newest value, of the fleet only", ask(ts.LowFuel, "East", 0, day), []Truck{
			truck("a", "East", "F-150", "2000", FieldFuel, [2]float64{1, 0}, [2]float64{2, 0.5}), // newest 0.5
			truck("b", "East", "F-150", "2000", FieldFuel, [2]float64{1, 0.5}, [2]float64{3, 0}),
			truck("c", "West", "F-150", "2000", FieldFuel, [2]float64{1, 0}),
		}, "[b d_b][0]"},
		{"high load: above 0.9 of the capacity", ask(ts.HighLoad, "East", 0, day), []Truck{
			truck("a", "East", "H-2", "1500", FieldLoad, [2]float64{1, 1351}),
			truck("b", "East", "H-2", "1500", FieldLoad, [2]float64{1, 1350}), // exactly 0.9: not above
		}, "[a d_a][1351]"},
		{"stationary: mean velocity in the window below 1", ask(ts.StationaryTrucks, "East", 10*minute, 20*minute), []Truck{
			truck("a", "East", "H-2", "1500", FieldVelocity, [2]float64{9, 50}, [2]float64{10, 1}, [2]float64{19, 0}),
			truck("b", "East", "H-2", "1500", FieldVelocity, [2]float64{10, 1}, [2]float64{20, 0}), // mean 1
			truck("c", "East", "H-2", "1500", FieldVelocity, [2]float64{25, 0}),                    // no point: no row
		}, "[a d_a][]"},
		{"daily driving: periods / 6, averaged over days with driving", ask(ts.AvgDailyDriving, "", 0, 2*day), []Truck{
			truck("a", "East", "H-2", "1500", FieldVelocity, [2]float64{0, 5}, [2]float64{10, 5}, [2]float64{20, 0},
				[2]float64{1440, 2}),
		}, "[East a d_a][0.25]"}, // day 0: 2 periods, day 1: 1 → (2+1)/6/2
		{"sessions: from a start of driving to the next stop; an open one has no length",
			ask(ts.AvgDailySession, "", 0, day), []Truck{
				truck("a", "East", "H-2", "1500", FieldVelocity, [2]float64{0, 0}, [2]float64{10, 9}, [2]float64{20, 9},
					[2]float64{30, 0}, [2]float64{50, 9}),
			}, "[a][0 1.2e+06]"}, // driving 10..30: 20 minutes; from 50 still open
		{"breakdowns: a period at least half zero after one that is not", ask(ts.BreakdownFrequency, "", 0, day), []Truck{
			truck("a", "East", "H-2", "1500", FieldStatus, [2]float64{0, 1}, [2]float64{10, 0}, [2]float64{11, 3},
				[2]float64{20, 0}, [2]float64{30, 2}, [2]float64{40, 0}),
			truck("b", "East", "G-2000", "5000", FieldStatus, [2]float64{0, 0}, [2]float64{10, 0}),
		}, "[H-2][2]"}, // a: ok, broken(1 of 2), broken, ok, broken → 2; b: broken from the start → none
		{"daily activity: periods with mean status below 1, over 144", ask(ts.DailyActivity, "", 0, 2*day), []Truck{
			truck("a", "East", "H-2", "1500", FieldStatus, [2]float64{0, 0}, [2]float64{1, 1}, [2]float64{10, 2},
				[2]float64{1445, 0}),
			truck("b", "East", "H-2", "1500", FieldStatus, [2]float64{0, 0}),
		}, "[East H-2][0 0.013888888888888888] [East H-2][8.64e+07 0.006944444444444444]"},
		{"avg load: each truck's mean over its capacity, averaged per fleet and model", ask(ts.AvgLoad, "", 0, day), []Truck{
			truck("a", "East", "H-2", "1500", FieldLoad, [2]float64{0, 750}, [2]float64{1, 1500}),
			truck("b", "East", "H-2", "1500", FieldLoad, [2]float64{0, 0}),
		}, "[East H-2][1500 0.375]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, r := range Answer(c.q, c.trucks) {
				got = append(got, format(r))
			}
			if s := strings.Join(got, " "); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// avg-vs-projected reads the times with both fields, velocity above 1.
func TestAvgVsProjected(t *testing.T) {
	tr := truck("a", "East", "H-2", "1500", FieldVelocity, [2]float64{0, 5}, [2]float64{1, 0}, [2]float64{2, 5})
	tr.Points[FieldConsumption] = []Point{{0, 10}, {1, 99}, {3 * minute, 99}}
	rows := Answer(ask(ts.AvgVsProjectedFuel, "", 0, Day), []Truck{tr})
	if len(rows) != 1 || format(rows[0]) != "[East][10 15]" {
		t.Errorf("got %v", rows)
	}
}

func TestDiff(t *testing.T) {
	want := []ts.FleetRow{{Key: []string{"a"}, Values: []float64{1}}, {Key: []string{"b"}, Values: []float64{2}}}
	for _, c := range []struct {
		got []ts.FleetRow
		ok  bool
	}{
		{[]ts.FleetRow{{Key: []string{"b"}, Values: []float64{2}}, {Key: []string{"a"}, Values: []float64{1 + 1e-12}}}, true},
		{[]ts.FleetRow{{Key: []string{"a"}, Values: []float64{1}}}, false},
		{[]ts.FleetRow{{Key: []string{"a"}, Values: []float64{1}}, {Key: []string{"b"}, Values: []float64{2.001}}}, false},
		{[]ts.FleetRow{{Key: []string{"a"}, Values: []float64{1}}, {Key: []string{"c"}, Values: []float64{2}}}, false},
	} {
		if msg := Diff(c.got, want); (msg == "") != c.ok {
			t.Errorf("Diff(%v) = %q, want ok=%v", c.got, msg, c.ok)
		}
	}
}

func TestFieldNames(t *testing.T) {
	s := &ts.Schema{Sensors: []ts.Sensor{{Name: FieldVelocity}, {Name: FieldConsumption}, {Name: FieldStatus}}}
	for _, c := range []struct {
		name    string
		q       ts.Query
		want    string
		wantErr string
	}{
		{"the kind's fields", ts.Query{Sensors: []int{0, 1}, Fleet: &ts.FleetQuery{Kind: ts.AvgVsProjectedFuel}}, "velocity fuel_consumption", ""},
		{"not a fleet question", ts.Query{Kind: ts.GroupBy}, "", "GROUP_BY is not a fleet question"},
		{"too few sensors", ts.Query{Sensors: []int{0}, Fleet: &ts.FleetQuery{Kind: ts.AvgVsProjectedFuel}}, "",
			"avg-vs-projected-fuel-consumption: 1 sensors, want 2 (velocity, fuel_consumption)"},
		{"a sensor not in the schema", ts.Query{Sensors: []int{7}, Fleet: &ts.FleetQuery{Kind: ts.DailyActivity}}, "",
			"daily-activity: sensor 7 not in the schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := FieldNames(&c.q, s)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Errorf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != c.want {
				t.Errorf("got %v, %v; want %s", got, err, c.want)
			}
		})
	}
}
