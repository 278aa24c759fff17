package targettest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// The fleet dataset: 12 trucks, two days of TSBS's truck fields at one row
// a minute (10 rows per 10-minute period), a tenth of the values missing.
const (
	fleetTrucks = 12
	fleetStep   = 60_000
	fleetRows   = 2 * fleet.Day / fleetStep
	fleetBatch  = 480
)

// FleetData is TSBS's iot data at a small scale, with the generator that
// made it: what FleetQuestions are asked of.
type FleetData struct {
	Schema *ts.Schema
	Gen    *gen.Generator
}

// NewFleetData builds the fleet dataset in database db.
func NewFleetData(db string) (*FleetData, error) {
	u, err := tsbs.Lookup("iot")
	if err != nil {
		return nil, err
	}
	start := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	s := &ts.Schema{Database: db, Groups: []string{"trucks"}, StartTime: start, PointStep: fleetStep}
	for i := range fleetTrucks {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: u.DevicePrefix + strconv.Itoa(i), Tags: u.Tags(11, i)})
	}
	for _, f := range u.Fields {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: f, Type: ts.Double})
	}
	g, err := gen.New(s, gen.Options{Seed: 11, Ratios: [6]float64{0, 0, 0, 0, 0, 1}, StringLength: 1, DoubleLength: -1,
		BatchSize: fleetBatch, Bounds: u.Bounds, Missing: u.Missing})
	if err != nil {
		return nil, err
	}
	return &FleetData{Schema: s, Gen: g}, nil
}

// Write sends every truck's rows to conn.
func (d *FleetData) Write(ctx context.Context, conn targets.Target) error {
	b := d.Gen.NewBatch()
	cur := gen.NewCursor()
	for i := range d.Schema.Devices {
		for n := int64(0); n < fleetRows/fleetBatch; n++ {
			d.Gen.Fill(b, &d.Schema.Devices[i], n, cur)
			if err := conn.Write(ctx, b); err != nil {
				return fmt.Errorf("write batch %d of %s: %w", n, d.Schema.Devices[i].Name, err)
			}
		}
	}
	return nil
}

// Questions are the iot questions the suite asks: every kind, each fleet
// for the kinds that ask about one, TSBS's windows at three places, the
// whole two days for the others.
func (d *FleetData) Questions() []ts.Query {
	start, end := d.Schema.StartTime, d.Schema.StartTime+fleetRows*fleetStep
	return questionsOf(d.Schema, tsbs.Fleets(), func(k ts.FleetKind) [][2]int64 {
		w := fleet.Windows[k]
		if w == 0 {
			return [][2]int64{{start, end}}
		}
		mid := start + 7*time.Hour.Milliseconds() + 30_000
		return [][2]int64{{start, start + w}, {mid, mid + w}, {end - w, end}}
	})
}

// questionsOf asks every kind of s's trucks: each of fleets for the kinds
// about one fleet, over each of the kind's windows.
func questionsOf(s *ts.Schema, fleets []string, windows func(ts.FleetKind) [][2]int64) []ts.Query {
	var devs []*ts.Device
	for i := range s.Devices {
		devs = append(devs, &s.Devices[i])
	}
	var qs []ts.Query
	for _, k := range ts.FleetKinds {
		sensors := sensorsNamed(s, fleet.Fields(k))
		asked := []string{""}
		if fleet.NeedsFleet(k) {
			asked = fleets
		}
		kind := ts.GroupBy // as the TSBS phases time them
		if k == ts.LowFuel || k == ts.HighLoad {
			kind = ts.LatestPoint
		}
		for _, f := range asked {
			for _, w := range windows(k) {
				qs = append(qs, ts.Query{Kind: kind, Devices: devs, Sensors: sensors, Start: w[0], End: w[1],
					Fleet: &ts.FleetQuery{Kind: k, Fleet: f}})
			}
		}
	}
	return qs
}

// Expect is q's answer computed from the generator: every row written.
func (d *FleetData) Expect(q *ts.Query) []ts.FleetRow {
	fields := fleet.Fields(q.Fleet.Kind)
	var trucks []fleet.Truck
	for _, dev := range q.Devices {
		tr := fleet.Truck{Tags: fleet.TagsOf(dev), Points: map[string][]fleet.Point{}}
		for i, sn := range q.Sensors {
			var pts []fleet.Point
			for k := int64(0); k < fleetRows; k++ {
				if d.Gen.Missing(dev.Index, sn, k) {
					continue
				}
				v, _ := d.Gen.Number(dev.Index, sn, k)
				pts = append(pts, fleet.Point{T: d.Gen.Time(k), V: v})
			}
			tr.Points[fields[i]] = pts
		}
		trucks = append(trucks, tr)
	}
	return fleet.Answer(q, trucks)
}

// FleetQuestions checks a target's answers to every iot question against
// fleet.Answer on three datasets: TSBS's generated trucks (fleetGenerated),
// a fleet whose values sit on the questions' thresholds (fleetThresholds)
// and one with empty cells, missing periods and missing tags
// (FleetEdgesAround) around the midnight of 2016-01-01 and around the
// coming one, so that most of it is ahead of the wall clock, where a server
// may answer otherwise (caches, "now").
func FleetQuestions(t *testing.T, drv *targets.Driver, opts targets.Options) {
	t.Helper()
	next := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	FleetQuestionsAround(t, drv, opts, time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), next.UnixMilli())
}

// FleetQuestionsAround is FleetQuestions with the edge dataset around the
// given midnights (ms since the epoch) instead.
func FleetQuestionsAround(t *testing.T, drv *targets.Driver, opts targets.Options, midnights ...int64) {
	t.Helper()
	if drv.Caps.Fleet == "" {
		t.Fatalf("%s: Caps.Fleet does not declare how it answers fleet questions", drv.Name)
	}
	t.Run("generated", func(t *testing.T) { fleetGenerated(t, drv, opts) })
	t.Run("thresholds", func(t *testing.T) { fleetThresholds(t, drv, opts) })
	for _, m := range midnights {
		t.Run("edges around "+time.UnixMilli(m).UTC().Format("2006-01-02"), func(t *testing.T) {
			FleetEdgesAround(t, drv, opts, m)
		})
	}
}

// fleetGenerated writes the fleet dataset through drv and checks the
// target's answer to every question against the generator's. At least
// eight of the eleven kinds must have a non-empty answer somewhere, so
// that agreeing on nothing cannot pass.
func fleetGenerated(t *testing.T, drv *targets.Driver, opts targets.Options) {
	t.Helper()
	d, err := NewFleetData(FreshName("tsbench_fleet"))
	if err != nil {
		t.Fatal(err)
	}
	askFleet(t, drv, opts, generatedSet{d}, 8)
}

// fleetSet is a dataset the fleet questions are asked of: its schema, how
// it is written, its questions and their answers over what it wrote.
type fleetSet interface {
	schema() *ts.Schema
	write(ctx context.Context, conn targets.Target) error
	questions() []ts.Query
	expect(q *ts.Query) []ts.FleetRow
}

// generatedSet is FleetData as a fleetSet.
type generatedSet struct{ *FleetData }

func (g generatedSet) schema() *ts.Schema { return g.Schema }
func (g generatedSet) write(ctx context.Context, conn targets.Target) error {
	return g.Write(ctx, conn)
}
func (g generatedSet) questions() []ts.Query            { return g.Questions() }
func (g generatedSet) expect(q *ts.Query) []ts.FleetRow { return g.Expect(q) }

// askFleet writes set through drv (into opts' database, else the set's)
// and compares the target's answer to each of its questions with the
// expected rows; at least minKinds kinds must have a non-empty answer
// somewhere, so that agreeing on nothing cannot pass.
func askFleet(t *testing.T, drv *targets.Driver, opts targets.Options, set fleetSet, minKinds int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s := set.schema()
	if opts.Database == "" {
		opts.Database = s.Database
	}
	s.Database = opts.Database
	conn := OpenSetUp(ctx, t, drv, opts, s, true)
	if err := set.write(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Count(ctx, ts.CountRange{}); err != nil { // settles what a server buffers
		t.Fatal(err)
	}
	fq, ok := conn.(targets.FleetQuerier)
	if !ok {
		t.Fatalf("%s does not answer fleet questions (targets.FleetQuerier)", drv.Name)
	}
	answered := map[ts.FleetKind]bool{}
	for _, q := range set.questions() {
		if AskFleet(ctx, t, fq, &q, set.expect(&q)) {
			answered[q.Fleet.Kind] = true
		}
	}
	if len(answered) < minKinds {
		var empty []string
		for _, k := range ts.FleetKinds {
			if !answered[k] {
				empty = append(empty, k.String())
			}
		}
		t.Errorf("%d kinds have a non-empty answer, want at least %d; empty: %v", len(answered), minKinds, empty)
	}
}

// AskFleet asks fq fleet question q and reports, under the question's
// name, an error or an answer that differs from want. It says whether the
// question was answered and has rows: a test counts the kinds that did, so
// that no kind passes on empty answers alone.
func AskFleet(ctx context.Context, t *testing.T, fq targets.FleetQuerier, q *ts.Query, want []ts.FleetRow) bool {
	t.Helper()
	got, err := fq.FleetQuery(ctx, q)
	name := fmt.Sprintf("%s fleet %q [%d, %d)", q.Fleet.Kind, q.Fleet.Fleet, q.Start, q.End)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	if msg := fleet.Diff(got, want); msg != "" {
		t.Errorf("%s: %s", name, msg)
	}
	return len(want) > 0
}

// sensorsNamed is the positions of the named sensors in s.
func sensorsNamed(s *ts.Schema, names []string) []int {
	var out []int
	for _, f := range names {
		for i, sn := range s.Sensors {
			if sn.Name == f {
				out = append(out, i)
			}
		}
	}
	return out
}
