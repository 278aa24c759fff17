package influxdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// borderData is a fleet whose points sit on the questions' borders, for
// TestFleetBorders: the trucks in two measurements (groups), the fields in
// another order than the questions name them, a start at 13:00 so that a
// question's days are not its window's, and planted values:
//   - truck_0's newest fuel_state is 0.05 (low fuel), truck_3's exactly
//     0.1 (not below 0.1);
//   - truck_4's newest current_load is 1350 of 1500 (exactly 0.9, not
//     above), truck_2's 0.95 of its capacity;
//   - truck_0's period 5 has a mean velocity of exactly 5 (not driving
//     for a session), truck_1's period 7 exactly 1 (not driving);
//   - truck_2 stands still for the first three hours (stationary);
//   - truck_5's status has periods with exactly half their points 0
//     (broken down) after periods that are up.
type borderData struct {
	schema *ts.Schema
	// values[device][sensor][row], NaN-free; present says which exist
	values  [][][]float64
	present [][][]bool
}

const (
	borderRows = 30 * 60 // 30 hours of rows at one a minute
	borderStep = 60_000
)

var borderSensors = []string{fleet.FieldStatus, fleet.FieldVelocity, fleet.FieldConsumption, fleet.FieldFuel, fleet.FieldLoad}

func newBorderData() *borderData {
	start := time.Date(2016, 3, 5, 13, 0, 0, 0, time.UTC).UnixMilli()
	s := &ts.Schema{Groups: []string{"trucks_a", "trucks_b"}, StartTime: start, PointStep: borderStep}
	for _, n := range borderSensors {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n, Type: ts.Double})
	}
	fleets := []string{"East", "West", "East", "West", "East", "North"}
	models := []struct{ name, load, consumption string }{{"F-150", "2000", "15"}, {"G-2000", "5000", "19"}, {"H-2", "1500", "12"}}
	modelOf := []int{0, 1, 0, 2, 2, 1}
	for i := range fleets {
		m := models[modelOf[i]]
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: "truck_" + strconv.Itoa(i), Group: i % 2, Tags: []ts.Tag{
			{Key: fleet.TagName, Value: "truck_" + strconv.Itoa(i)}, {Key: fleet.TagFleet, Value: fleets[i]},
			{Key: fleet.TagDriver, Value: []string{"Derek", "Rodney", "Albert", "Andy", "Seth", "Trish"}[i]},
			{Key: fleet.TagModel, Value: m.name}, {Key: fleet.TagLoad, Value: m.load},
			{Key: fleet.TagConsumption, Value: m.consumption},
		}})
	}
	d := &borderData{schema: s}
	r := rand.New(rand.NewPCG(7, 11))
	for i := range s.Devices {
		capacity, _ := strconv.ParseFloat(models[modelOf[i]].load, 64)
		vals := make([][]float64, len(borderSensors))
		pres := make([][]bool, len(borderSensors))
		for sn := range borderSensors {
			vals[sn] = make([]float64, borderRows)
			pres[sn] = make([]bool, borderRows)
		}
		var speed, state int
		for k := range borderRows {
			p := k / 10
			if k%10 == 0 { // each period drives and works in a way of its own
				speed, state = r.IntN(4), r.IntN(3)
			}
			velocity := []float64{r.Float64() * 0.5, r.Float64() * 2, 3 + r.Float64()*6, 20 + r.Float64()*60}[speed]
			status := []float64{float64(1 + r.IntN(5)), 0, float64(r.IntN(2))}[state]
			row := []float64{status, velocity, 5 + r.Float64()*25, r.Float64(), r.Float64() * capacity}
			for sn := range row {
				vals[sn][k], pres[sn][k] = row[sn], r.Float64() >= 0.1
			}
			switch {
			case i == 0 && p == 5:
				vals[1][k], pres[1][k] = 5, true
			case i == 1 && p == 7:
				vals[1][k], pres[1][k] = 1, true
			case i == 2 && p < 18:
				vals[1][k] = r.Float64() * 0.5
			case i == 5 && p%6 == 1: // up: no 0
				vals[0][k], pres[0][k] = 2, true
			case i == 5 && p%6 == 2: // exactly half 0: broken down
				vals[0][k], pres[0][k] = float64(k%2), true
			}
		}
		last := borderRows - 1
		switch i {
		case 0:
			vals[3][last], pres[3][last] = 0.05, true
		case 3:
			vals[3][last], pres[3][last] = 0.1, true
		case 4:
			vals[4][last], pres[4][last] = 1350, true
		case 2:
			vals[4][last], pres[4][last] = 0.95*capacity, true
		}
		d.values, d.present = append(d.values, vals), append(d.present, pres)
	}
	return d
}

// write sends each truck's rows as one batch, the missing values left out.
func (d *borderData) write(ctx context.Context, conn targets.Target) error {
	for i := range d.schema.Devices {
		b := &ts.Batch{Device: &d.schema.Devices[i], Decimals: -1}
		for k := range borderRows {
			b.Times = append(b.Times, d.schema.StartTime+int64(k)*borderStep)
		}
		for sn := range borderSensors {
			b.Columns = append(b.Columns, ts.Column{Type: ts.Double, Doubles: append([]float64(nil), d.values[i][sn]...)})
		}
		for sn := range borderSensors {
			for k := range borderRows {
				if !d.present[i][sn][k] {
					b.SetNull(sn, k)
				}
			}
		}
		if err := conn.Write(ctx, b); err != nil {
			return fmt.Errorf("write %s: %w", b.Device.Name, err)
		}
	}
	return nil
}

// expect is fleet's answer to q from the points written.
func (d *borderData) expect(q *ts.Query) []ts.FleetRow {
	var trucks []fleet.Truck
	for _, dev := range q.Devices {
		tr := fleet.Truck{Tags: fleet.TagsOf(dev), Points: map[string][]fleet.Point{}}
		for _, sn := range q.Sensors {
			var pts []fleet.Point
			for k := range borderRows {
				if d.present[dev.Index][sn][k] {
					pts = append(pts, fleet.Point{T: d.schema.StartTime + int64(k)*borderStep, V: d.values[dev.Index][sn][k]})
				}
			}
			tr.Points[borderSensors[sn]] = pts
		}
		trucks = append(trucks, tr)
	}
	return fleet.Answer(q, trucks)
}

// TestFleetBorders asks every question of the border data (borderData)
// on the real server, of all trucks and of four of them (a device
// condition in the statements), over windows that start inside a period
// and cross a day, and compares with fleet's answers; every kind must
// have a non-empty answer somewhere, and the planted rows must be there.
func TestFleetBorders(t *testing.T) {
	targettest.EachServer(t, releases, fleetBorders)
}

func fleetBorders(t *testing.T, srv targettest.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	d := newBorderData()
	conn, err := Driver.Open(ctx, srv.Options(targets.Options{Database: targettest.FreshName("tsbench_fleet_borders")}))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, d.schema, true); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_, _ = conn.(*Target).influxql(context.Background(), "DROP DATABASE "+ident(conn.(*Target).db))
	}()
	if err := d.write(ctx, conn); err != nil {
		t.Fatal(err)
	}
	fq := conn.(targets.FleetQuerier)
	start, end := d.schema.StartTime, d.schema.StartTime+borderRows*borderStep
	windows := [][2]int64{{start, end}, {start + 95*60_000 + 30_000, start + 95*60_000 + 30_000 + 4*3_600_000},
		{start + 2*3_600_000 + 7_000, start + 26*3_600_000 + 7_000}, {start, start + 10*60_000}}
	var all, some []*ts.Device
	for i := range d.schema.Devices {
		all = append(all, &d.schema.Devices[i])
	}
	some = all[:4]
	answered := map[ts.FleetKind]int{}
	planted := map[string]bool{}
	for _, k := range ts.FleetKinds {
		var sensors []int
		for _, f := range fleet.Fields(k) {
			for sn, n := range borderSensors {
				if n == f {
					sensors = append(sensors, sn)
				}
			}
		}
		fleets := []string{""}
		if fleet.NeedsFleet(k) {
			fleets = []string{"East", "West", "North", "South"}
		}
		for _, devs := range [][]*ts.Device{all, some} {
			for _, f := range fleets {
				for _, w := range windows {
					q := ts.Query{Kind: ts.GroupBy, Devices: devs, Sensors: sensors, Start: w[0], End: w[1],
						Fleet: &ts.FleetQuery{Kind: k, Fleet: f}}
					want := d.expect(&q)
					got, err := fq.FleetQuery(ctx, &q)
					name := fmt.Sprintf("%s fleet %q of %d trucks [%d, %d)", k, f, len(devs), w[0], w[1])
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					if msg := fleet.Diff(got, want); msg != "" {
						t.Errorf("%s: %s", name, msg)
					}
					answered[k] += len(want)
					for _, r := range want {
						planted[fmt.Sprint(k, r.Key)] = true
					}
				}
			}
		}
	}
	for _, k := range ts.FleetKinds {
		t.Logf("%-35s %4d rows in all", k, answered[k])
		if answered[k] == 0 {
			t.Errorf("%s: no question has a row on the border data", k)
		}
	}
	// The planted rows, and the planted borders that must not be rows.
	for key, want := range map[string]bool{
		fmt.Sprint(ts.LowFuel, []string{"truck_0", "Derek"}):           true,
		fmt.Sprint(ts.LowFuel, []string{"truck_3", "Andy"}):            false,
		fmt.Sprint(ts.HighLoad, []string{"truck_2", "Albert"}):         true,
		fmt.Sprint(ts.HighLoad, []string{"truck_4", "Seth"}):           false,
		fmt.Sprint(ts.StationaryTrucks, []string{"truck_2", "Albert"}): true,
		fmt.Sprint(ts.BreakdownFrequency, []string{"G-2000"}):          true,
	} {
		if planted[key] != want {
			t.Errorf("%s: a row in fleet's answers is %v, want %v", key, planted[key], want)
		}
	}
}
