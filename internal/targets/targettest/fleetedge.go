package targettest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// The edge dataset: four trucks in two groups (a table each, where a
// target has a table per group), 28 hours at one row a minute around a
// midnight (FleetEdges: the epoch, so that times before it are negative
// and periods and days must be floors, not truncations), with empty cells
// and whole periods missing.
const (
	edgeBefore = 14 * 60 * 60 * 1000 // the data starts this long before the midnight
	edgeStep   = 60_000
	edgeRows   = 28 * 60
	edgeBatch  = 240
)

// edgeFields are the trucks' sensors: the fleet fields and one the
// questions never read (the series must be chosen by field).
var edgeFields = []string{fleet.FieldVelocity, fleet.FieldConsumption, fleet.FieldFuel, fleet.FieldLoad,
	fleet.FieldStatus, "heading"}

// edgeTrucks: two fleets; truck_3 has no driver (its key is "") and no
// nominal_fuel_consumption (avg-vs-projected leaves it out), and truck_2
// shares truck_0's model but not its capacity (two avg-load rows).
var edgeTrucks = [][]ts.Tag{
	{{Key: "name", Value: "truck_0"}, {Key: "fleet", Value: "East"}, {Key: "driver", Value: "Ann"}, {Key: "model", Value: "F-150"},
		{Key: "load_capacity", Value: "1500"}, {Key: "nominal_fuel_consumption", Value: "12"}},
	{{Key: "name", Value: "truck_1"}, {Key: "fleet", Value: "East"}, {Key: "driver", Value: "Bob"}, {Key: "model", Value: "G-2000"},
		{Key: "load_capacity", Value: "2000"}, {Key: "nominal_fuel_consumption", Value: "15"}},
	{{Key: "name", Value: "truck_2"}, {Key: "fleet", Value: "West"}, {Key: "driver", Value: "Cid"}, {Key: "model", Value: "F-150"},
		{Key: "load_capacity", Value: "2000"}, {Key: "nominal_fuel_consumption", Value: "20"}},
	{{Key: "name", Value: "truck_3"}, {Key: "fleet", Value: "West"}, {Key: "model", Value: "H-2"},
		{Key: "load_capacity", Value: "5000"}},
}

// edgeValue is truck i's value of field f in row k, ok false for an empty
// cell. Velocity runs in 10-minute modes (stopped, slow, fast); truck_0
// drives its first 12 hours with few stops (long sessions); fuel_state of
// truck_0 and truck_2 ends low, current_load of truck_0 ends high, and
// truck_1's newest row has neither (the newest point is an older row).
func edgeValue(r *rand.Rand, i, f, k int, mode int) (float64, bool) {
	if k == edgeRows-1 && i == 1 && (f == 2 || f == 3) {
		return 0, false
	}
	if r.IntN(10) == 0 {
		return 0, false
	}
	switch f {
	case 0: // velocity
		switch mode {
		case 0:
			return float64(r.IntN(3)) * 0.5, true
		case 1:
			return 2 + float64(r.IntN(5))*0.5, true
		}
		return 6 + float64(r.IntN(50)), true
	case 1: // fuel_consumption
		return 5 + float64(r.IntN(200))/10, true
	case 2: // fuel_state
		if k >= edgeRows-30 && (i == 0 || i == 2) {
			return 0.05, true
		}
		return 0.2 + float64(r.IntN(80))/100, true
	case 3: // current_load
		if k >= edgeRows-30 && i == 0 {
			return 1450, true
		}
		return float64(r.IntN(1000)), true
	case 4: // status: mostly 1 or 2, runs of 0 (broken down)
		if mode == 0 {
			return 0, true
		}
		return float64(1 + r.IntN(2)), true
	}
	return float64(r.IntN(360)), true
}

// FleetEdges writes the edge dataset around the epoch through drv and
// checks every iot question at windows that cross the epoch, a day
// boundary and period boundaries, for each fleet and one without trucks,
// against fleet.Answer over the same points. Every kind must have a
// non-empty answer somewhere.
func FleetEdges(t *testing.T, drv *targets.Driver, opts targets.Options) {
	t.Helper()
	FleetEdgesAround(t, drv, opts, 0)
}

// FleetEdgesAround is FleetEdges around another midnight (ms since the
// epoch), for a server that stores no time before 1970.
func FleetEdgesAround(t *testing.T, drv *targets.Driver, opts targets.Options, midnight int64) {
	t.Helper()
	askFleet(t, drv, opts, newEdgeSet(midnight), len(ts.FleetKinds))
}

// edgeSet is the edge dataset around a midnight, and the points it wrote.
type edgeSet struct {
	s        *ts.Schema
	midnight int64
	trucks   []fleet.Truck
}

func newEdgeSet(midnight int64) *edgeSet {
	s := &ts.Schema{Database: FreshName("tsbench_fleetedge"), Groups: []string{"trucks", "trucks_b"},
		StartTime: midnight - edgeBefore, PointStep: edgeStep}
	for i, tags := range edgeTrucks {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: tags[0].Value, Group: i / 3, Tags: tags})
	}
	for _, f := range edgeFields {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: f, Type: ts.Double})
	}
	return &edgeSet{s: s, midnight: midnight}
}

func (e *edgeSet) schema() *ts.Schema { return e.s }

// write sends every truck's rows and keeps what it wrote.
func (e *edgeSet) write(ctx context.Context, conn targets.Target) error {
	s := e.s
	e.trucks = make([]fleet.Truck, len(s.Devices))
	for i := range s.Devices {
		dev := &s.Devices[i]
		e.trucks[i] = fleet.Truck{Tags: fleet.TagsOf(dev), Points: map[string][]fleet.Point{}}
		r := rand.New(rand.NewPCG(uint64(i), 7))
		mode := 0
		for k0 := 0; k0 < edgeRows; k0 += edgeBatch {
			b := &ts.Batch{Device: dev, Decimals: -1}
			n := min(edgeBatch, edgeRows-k0)
			for range s.Sensors {
				b.Columns = append(b.Columns, ts.Column{Type: ts.Double, Doubles: make([]float64, n), Null: make([]bool, n)})
			}
			for k := k0; k < k0+n; k++ {
				if k%10 == 0 {
					mode = r.IntN(3)
					if i == 0 && k < 12*60 && r.IntN(8) != 0 {
						mode = 2
					}
				}
				tm := s.StartTime + int64(k)*edgeStep
				b.Times, b.Rows = append(b.Times, tm), append(b.Rows, int64(k))
				gap := i == 2 && (k/10)%7 == 3 // a period of truck_2 without any point
				for f := range s.Sensors {
					v, ok := edgeValue(r, i, f, k, mode)
					c := &b.Columns[f]
					if !ok || gap {
						c.Null[k-k0] = true
						b.Nulls++
						continue
					}
					c.Doubles[k-k0] = v
					e.trucks[i].Points[edgeFields[f]] = append(e.trucks[i].Points[edgeFields[f]], fleet.Point{T: tm, V: v})
				}
			}
			if err := conn.Write(ctx, b); err != nil {
				return fmt.Errorf("write %s rows %d..: %w", dev.Name, k0, err)
			}
		}
	}
	return nil
}

// questions: every kind at windows across the midnight, a day boundary
// and period boundaries, for each fleet and one without trucks.
func (e *edgeSet) questions() []ts.Query {
	start := e.s.StartTime
	end := start + edgeRows*edgeStep
	const hour = 60 * 60 * 1000
	m := e.midnight
	windows := [][2]int64{{start, end}, {m - 4*hour, m}, {m - 2*hour + 30_000, m + 2*hour + 30_000},
		{start, start + 4*hour}, {m - fleet.Period, m + fleet.Period}, {m - 3*fleet.Period, m - 2*fleet.Period},
		{m - 13*hour, m + 11*hour}}
	return questionsOf(e.s, []string{"East", "West", "none"}, func(ts.FleetKind) [][2]int64 { return windows })
}

func (e *edgeSet) expect(q *ts.Query) []ts.FleetRow {
	return fleet.Answer(q, edgeView(e.trucks, fleet.Fields(q.Fleet.Kind)))
}

// edgeView is the trucks with only the fields a question reads, as the
// runner gives fleet.Answer.
func edgeView(trucks []fleet.Truck, fields []string) []fleet.Truck {
	out := make([]fleet.Truck, len(trucks))
	for i, tr := range trucks {
		out[i] = fleet.Truck{Tags: tr.Tags, Points: map[string][]fleet.Point{}}
		for _, f := range fields {
			out[i].Points[f] = tr.Points[f]
		}
	}
	return out
}
