package clickhouse

import (
	"context"
	"math/rand"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The edge dataset: trucks whose points are drawn to reach every answer
// that targettest's fleet data leaves empty (low fuel, stationary trucks)
// and the corners of the statements: times on both sides of the epoch
// (the floor of a negative time), a TEXT sensor before the fields (series
// numbers that are not the field's index), missing values, tags with a
// quote, a backslash and a tab, and numeric tags that do not parse.
const (
	edgeStep = 3 * 60_000
	edgeRows = 2 * fleet.Day / edgeStep
	edgeHour = 60 * 60_000
)

var edgeStart = -fleet.Day + 7*60_000 // a day before the epoch, off the periods' boundaries

func edgeSchema() *ts.Schema {
	s := &ts.Schema{Database: "tsbench_fleet_edges", Groups: []string{"trucks"}, StartTime: int64(edgeStart), PointStep: edgeStep}
	s.Sensors = append(s.Sensors, ts.Sensor{Name: "note", Type: ts.Text})
	for _, f := range []string{fleet.FieldStatus, fleet.FieldLoad, fleet.FieldFuel, fleet.FieldVelocity, fleet.FieldConsumption} {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: f, Type: ts.Double})
	}
	type truck struct{ fleet, driver, model, load, nominal string }
	trucks := []truck{
		{"East", "Seth", "H-2", "1500", "12"},
		{"East", "Tab\there", "H-2", "1500", "12"},
		{`O'Neil\s`, "Trish", "G-2000", "5000", "22"},
		{`O'Neil\s`, "Rodney", "G-2000", "n/a", "x"}, // no capacity nor consumption: left out where they count
		{"West", "Derek", "F-150", "2000", "15"},
	}
	for i, tr := range trucks {
		name := "truck_" + strconv.Itoa(i)
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: name, Tags: []ts.Tag{
			{Key: fleet.TagName, Value: name}, {Key: fleet.TagFleet, Value: tr.fleet}, {Key: fleet.TagDriver, Value: tr.driver},
			{Key: fleet.TagModel, Value: tr.model}, {Key: fleet.TagLoad, Value: tr.load}, {Key: fleet.TagConsumption, Value: tr.nominal},
		}})
	}
	return s
}

// edgeBatch is every row of device i, drawn from a generator seeded by i:
// the truck drives (velocity 6..60) in two hours of three and stands
// (0..0.8) in the third; some periods it is mostly broken down (status
// 0); truck 0 ends with low fuel and truck 1 with a high load.
func edgeBatch(s *ts.Schema, i int) *ts.Batch {
	r := rand.New(rand.NewSource(int64(i) + 1))
	b := &ts.Batch{Device: &s.Devices[i], Decimals: -1, Columns: make([]ts.Column, len(s.Sensors))}
	b.Columns[0] = ts.Column{Type: ts.Text}
	for c := 1; c < len(s.Sensors); c++ {
		b.Columns[c] = ts.Column{Type: ts.Double}
	}
	capacity, err := strconv.ParseFloat(fleet.TagsOf(&s.Devices[i])[fleet.TagLoad], 64)
	if err != nil {
		capacity = 1000
	}
	broken := false
	for k := range int64(edgeRows) {
		tm := s.StartTime + k*edgeStep
		hour := (tm - int64(edgeStart)) / edgeHour
		if tm%fleet.Period < edgeStep { // a new period: broken down or not
			broken = r.Float64() < 0.3
		}
		velocity := 6 + 54*r.Float64()
		if (hour+int64(i))%3 == 0 {
			velocity = 0.8 * r.Float64()
		}
		status := float64(r.Intn(4))
		if broken && r.Float64() < 0.8 {
			status = 0
		}
		fuel, load := 0.2+0.8*r.Float64(), 0.8*capacity*r.Float64()
		if k == edgeRows-1 && i == 0 {
			fuel = 0.05
		}
		if k == edgeRows-1 && i == 1 {
			load = 0.95 * capacity
		}
		b.Times = append(b.Times, tm)
		b.Columns[0].Texts = append(b.Columns[0].Texts, "n"+strconv.FormatInt(k, 10))
		for c, v := range []float64{status, load, fuel, velocity, 5 + 35*r.Float64()} {
			b.Columns[c+1].Doubles = append(b.Columns[c+1].Doubles, v)
		}
	}
	// A tenth of the cells missing, but the last fuel and load.
	for k := range b.Times {
		for c := range b.Columns {
			if r.Float64() < 0.1 && !(k == len(b.Times)-1 && (c == 2 || c == 3)) {
				b.SetNull(c, k)
			}
		}
	}
	return b
}

// edgeTrucks is the points of q's fields in the batches, as Answer reads
// them.
func edgeTrucks(s *ts.Schema, batches []*ts.Batch, q *ts.Query) []fleet.Truck {
	var out []fleet.Truck
	for i, b := range batches {
		tr := fleet.Truck{Tags: fleet.TagsOf(&s.Devices[i]), Points: map[string][]fleet.Point{}}
		for _, sn := range q.Sensors {
			c := &b.Columns[sn]
			var pts []fleet.Point
			for k, tm := range b.Times {
				if c.Present(k) {
					pts = append(pts, fleet.Point{T: tm, V: c.Doubles[k]})
				}
			}
			tr.Points[s.Sensors[sn].Name] = pts
		}
		out = append(out, tr)
	}
	return out
}

// The server's answer to every kind, for every fleet and over windows on
// both sides of the epoch, is Answer's on the edge dataset; every kind has
// a non-empty answer somewhere. Then a Setup without reset that renames a
// driver changes the answers' tags (devices' rows are replaced, not
// added).
func TestFleetEdges(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s := edgeSchema()
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_fleet_edges"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	var batches []*ts.Batch
	for i := range s.Devices {
		b := edgeBatch(s, i)
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
		batches = append(batches, b)
	}
	fq := conn.(targets.FleetQuerier)
	var devs []*ts.Device
	for i := range s.Devices {
		devs = append(devs, &s.Devices[i])
	}
	end := s.StartTime + edgeRows*edgeStep
	windows := [][2]int64{
		{s.StartTime, end},            // everything
		{-4 * edgeHour, 4 * edgeHour}, // across the epoch
		{-fleet.Period, 0},            // one period before it, the trucks on their way
		{end - fleet.Day, end},
	}
	for h := range int64(3) { // 10 minutes of each of the first three hours: every truck stands in one
		at := s.StartTime + h*edgeHour + 20*60_000
		windows = append(windows, [2]int64{at, at + fleet.Period})
	}
	sensorOf := map[string]int{}
	for i, sn := range s.Sensors {
		sensorOf[sn.Name] = i
	}
	question := func(k ts.FleetKind, f string, w [2]int64) ts.Query {
		var sensors []int
		for _, name := range fleet.Fields(k) {
			sensors = append(sensors, sensorOf[name])
		}
		return ts.Query{Kind: ts.GroupBy, Devices: devs, Sensors: sensors, Start: w[0], End: w[1], Fleet: &ts.FleetQuery{Kind: k, Fleet: f}}
	}
	answered := map[ts.FleetKind]bool{}
	for _, k := range ts.FleetKinds {
		fleets := []string{""}
		if fleet.NeedsFleet(k) {
			fleets = []string{"East", `O'Neil\s`, "West", "Nowhere"}
		}
		for _, f := range fleets {
			for _, w := range windows {
				q := question(k, f, w)
				if targettest.AskFleet(ctx, t, fq, &q, fleet.Answer(&q, edgeTrucks(s, batches, &q))) {
					answered[k] = true
				}
			}
		}
	}
	for _, k := range ts.FleetKinds {
		if !answered[k] {
			t.Errorf("%s: no window has a non-empty answer on the edge data", k)
		}
	}

	// Truck 0's driver renamed by a Setup that keeps the data.
	s.Devices[0].Tags[2].Value = "Seth II"
	if err := conn.Setup(ctx, s, false); err != nil {
		t.Fatal(err)
	}
	q := question(ts.LowFuel, "East", windows[0])
	got, err := fq.FleetQuery(ctx, &q)
	if err != nil {
		t.Fatal(err)
	}
	want := fleet.Answer(&q, edgeTrucks(s, batches, &q))
	if len(want) == 0 || want[0].Key[1] != "Seth II" {
		t.Fatalf("the edge data's low-fuel answer is %v, want truck_0 with its new driver", want)
	}
	if msg := fleet.Diff(got, want); msg != "" {
		t.Errorf("low-fuel after the driver's rename: %s", msg)
	}
}
