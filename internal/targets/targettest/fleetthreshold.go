package targettest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// thresholdFleet is a small hand-made fleet whose values sit on the
// questions' thresholds, where the generated fleet data (FleetQuestions)
// leaves some answers empty (no truck is low on fuel or stationary there): four
// trucks, one day at one row a minute, with values chosen so that every
// kind has rows, some means equal a threshold exactly (1 is neither
// driving nor stationary), some periods are broken down by exactly half
// their points, and missing cells (a truck's newest row without
// fuel_state, every 13th velocity of two trucks) are left out. The
// trucks are in two groups (a table each where the target has a table per
// group), the fleets and models across both.
type thresholdFleet struct {
	s      *ts.Schema
	points map[string]map[string][]fleet.Point // device, field: what was written
}

const (
	thTrucks = 4
	thRows   = 24 * 60
	thStep   = 60_000
)

var thFields = []string{fleet.FieldVelocity, fleet.FieldConsumption, fleet.FieldFuel, fleet.FieldLoad, fleet.FieldStatus}

// thValue is truck i's value of field f at row k, and whether it is
// present.
func thValue(i, k int, f string) (float64, bool) {
	period := k / 10
	switch f {
	case fleet.FieldVelocity:
		if (i == 2 || i == 3) && k%13 == 0 {
			return 0, false
		}
		switch {
		case i == 0 && period < 12: // stationary for two hours, then a mean of exactly 1
			if period%2 == 0 {
				return 0.5, true
			}
			return float64(k % 2 * 2), true
		case (period+i)%5 == 0:
			return 3, true // driving for the hours, not for a session (<= 5)
		case (period/3+i)%4 == 0:
			return 0, true
		}
		return 20 + float64((k*7+i)%11), true
	case fleet.FieldConsumption:
		if k%11 == 3 {
			return 0, false
		}
		return 10 + float64((k+i)%9)/4, true
	case fleet.FieldFuel:
		if i == 1 && k == thRows-1 {
			return 0, false // the newest point is the row before
		}
		if i%2 == 0 {
			return 1 - float64(k)/thRows, true // ends near 0: low on fuel
		}
		if i == 1 {
			return 0.05 + float64(k%3)/100, true
		}
		return 0.5, true
	case fleet.FieldLoad:
		capacity := float64(1500 + 500*(i%2))
		if i < 2 && k > thRows-5 {
			return capacity * 0.95, true // loaded at the end
		}
		return capacity * float64(k%10) / 10, true
	case fleet.FieldStatus:
		switch (period + i) % 6 {
		case 0:
			return 0, true // broken down: every point 0
		case 1:
			return float64(k % 2), true // exactly half 0: broken down too
		case 2:
			if k%10 < 4 {
				return 0, true // less than half 0: not broken down, active (mean < 1)
			}
		}
		return float64(1 + k%3), true
	}
	return 0, false
}

func newThresholdFleet(start int64) *thresholdFleet {
	s := &ts.Schema{Database: FreshName("tsbench_fleetth"), Groups: []string{"trucks", "trucks_b"}, StartTime: start, PointStep: thStep}
	for _, f := range thFields {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: f, Type: ts.Double})
	}
	e := &thresholdFleet{s: s, points: map[string]map[string][]fleet.Point{}}
	for i := range thTrucks {
		name := "truck_" + strconv.Itoa(i)
		tags := []ts.Tag{{Key: fleet.TagName, Value: name}, {Key: fleet.TagFleet, Value: []string{"East", "West"}[i/2]},
			{Key: fleet.TagDriver, Value: []string{"Ann", "Bob", "Cid", "Dee"}[i]},
			{Key: fleet.TagModel, Value: []string{"F-150", "H-2"}[i%2]}, {Key: "device_version", Value: "v1.0"},
			{Key: fleet.TagLoad, Value: strconv.Itoa(1500 + 500*(i%2))}, {Key: "fuel_capacity", Value: "200"},
			{Key: fleet.TagConsumption, Value: strconv.Itoa(12 + 3*(i%2))}}
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: name, Group: i / 3, Tags: tags})
		e.points[name] = map[string][]fleet.Point{}
	}
	return e
}

// write sends every truck's rows, in batches of 120 rows.
func (e *thresholdFleet) write(ctx context.Context, conn targets.Target) error {
	for i := range e.s.Devices {
		d := &e.s.Devices[i]
		for k0 := 0; k0 < thRows; k0 += 120 {
			b := &ts.Batch{Device: d, Decimals: -1, Columns: make([]ts.Column, len(thFields))}
			for c := range b.Columns {
				b.Columns[c] = ts.Column{Type: ts.Double, Null: make([]bool, 120)}
			}
			for k := k0; k < k0+120; k++ {
				tm := e.s.StartTime + int64(k)*thStep
				b.Times = append(b.Times, tm)
				b.Rows = append(b.Rows, int64(k))
				for c, f := range thFields {
					v, ok := thValue(i, k, f)
					b.Columns[c].Doubles = append(b.Columns[c].Doubles, v)
					if !ok {
						b.Columns[c].Null[k-k0] = true
						b.Nulls++
						continue
					}
					e.points[d.Name][f] = append(e.points[d.Name][f], fleet.Point{T: tm, V: v})
				}
			}
			if err := conn.Write(ctx, b); err != nil {
				return fmt.Errorf("write rows %d.. of %s: %w", k0, d.Name, err)
			}
		}
	}
	return nil
}

// questions are every kind, each fleet for the kinds about one, over the
// whole day, over windows that start and end inside periods and TSBS's windows
// at the start (truck_0 is stationary in its first period, its mean
// velocity exactly 1 in its second) and the end.
func (e *thresholdFleet) questions() []ts.Query {
	start, end := e.s.StartTime, e.s.StartTime+thRows*thStep
	return questionsOf(e.s, []string{"East", "West"}, func(k ts.FleetKind) [][2]int64 {
		windows := [][2]int64{{start, end}, {start + 95*thStep + 30_000, start + 7*time.Hour.Milliseconds() + 5*thStep}}
		if w := fleet.Windows[k]; w > 0 && w < end-start {
			windows = append(windows, [2]int64{start, start + w}, [2]int64{start + fleet.Period, start + fleet.Period + w},
				[2]int64{end - w, end})
		}
		return windows
	})
}

// expect is q's answer over the points written.
func (e *thresholdFleet) expect(q *ts.Query) []ts.FleetRow {
	var trucks []fleet.Truck
	for _, d := range q.Devices {
		tr := fleet.Truck{Tags: fleet.TagsOf(d), Points: map[string][]fleet.Point{}}
		for _, f := range fleet.Fields(q.Fleet.Kind) {
			tr.Points[f] = e.points[d.Name][f]
		}
		trucks = append(trucks, tr)
	}
	return fleet.Answer(q, trucks)
}

// fleetThresholds writes the threshold fleet through drv and checks every
// question's answer; every kind must have a non-empty answer somewhere.
func fleetThresholds(t *testing.T, drv *targets.Driver, opts targets.Options) {
	t.Helper()
	e := newThresholdFleet(time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	askFleet(t, drv, opts, e, len(ts.FleetKinds))
}

func (e *thresholdFleet) schema() *ts.Schema { return e.s }
