package tsbs

// TSBS's iot use case, exactly: the trucks' random walks (iotBase), and the
// batches that drop, delay and blank rows on the same random source
// (iotSim). See exact.go for the cost of the sequential source.

import (
	"math/rand"
	"strconv"
	"time"
)

// The three capacities of each truck model, in models' order (F-150, G-2000,
// H-2), as the float32 values TSBS keeps in the tags.
var modelCapacities = [][3]float32{{2000, 200, 15}, {5000, 300, 19}, {1500, 150, 12}}

var (
	truckTagKeys = []string{"name", "fleet", "driver", "model", "device_version", "load_capacity",
		"fuel_capacity", "nominal_fuel_consumption"}
	readingsFields    = []string{"latitude", "longitude", "elevation", "velocity", "heading", "grade", "fuel_consumption"}
	diagnosticsFields = []string{"fuel_state", "current_load", "status"}
	// readingsScale is each reading's truncation: 10^digits kept.
	readingsScale = [7]float64{1e5, 1e5, 1, 1, 1, 1, 1e1}
)

// TSBS's batches: their size, and the chances of its batch plans.
const (
	iotBatch          = 10
	batchLostChance   = 0.01 // the whole batch is made and thrown away
	batchLateChance   = 0.05 // the batch is kept aside, written later
	batchReplayChance = 0.5  // a kept batch is written now instead
	slotReplayChance  = 0.5  // a kept row is taken instead of a new one
	slotLostChance    = 0.1
	slotFieldChance   = 0.1 // one field is cleared
	slotTagChance     = 0.01
	slotLateChance    = 0.3 // the row is kept aside
)

// truck is one truck's tags and walks.
type truck struct {
	tags     []ExactPair
	readings [7]walk // readingsFields' order
	fuel     walk
	status   walk
}

// newTruck draws as TSBS does: four starting readings, then model, fleet,
// driver and device version.
func newTruck(r *rand.Rand, i int) truck {
	var t truck
	geo, big, small := uniform(-0.005, 0.005), uniform(-10, 10), uniform(-5, 5)
	t.readings[0] = walk{state: r.Float64() * 90, min: -90, max: 90, step: geo}
	t.readings[1] = walk{state: r.Float64() * 180, min: -180, max: 180, step: geo}
	t.readings[2] = walk{state: r.Float64() * 500, min: 0, max: 5000, step: big}
	t.readings[3] = walk{state: 0, min: 0, max: 100, step: big}
	t.readings[4] = walk{state: r.Float64() * 360, min: 0, max: 360, step: small}
	t.readings[5] = walk{state: 0, min: 0, max: 100, step: small}
	t.readings[6] = walk{state: 25, min: 0, max: 50, step: small}
	t.fuel = walk{state: 1, min: 0, max: 1, step: uniform(-0.001, 0)}
	t.status = walk{state: 0, min: 0, max: 5, step: standardNormal}

	m := r.Intn(len(models))
	fleet := fleets[r.Intn(len(fleets))]
	driver := drivers[r.Intn(len(drivers))]
	version := versions[r.Intn(len(versions))]
	t.tags = stringPairs(truckTagKeys[:5], []string{"truck_" + strconv.Itoa(i), fleet, driver, models[m].name, version})
	for k, c := range modelCapacities[m] {
		t.tags = append(t.tags, ExactPair{Key: truckTagKeys[5+k], Value: float32Value(c)})
	}
	return t
}

// tick advances a truck: its seven readings, then fuel, the shared load,
// and status. The fuel tank is refilled when it runs dry.
func (t *truck) tick(r *rand.Rand, load *float64) {
	for i := range t.readings {
		t.readings[i].advance(r)
	}
	t.fuel.advance(r)
	if t.fuel.state == t.fuel.min {
		t.fuel.state = t.fuel.max
	}
	// TSBS keeps the load in one distribution shared by every truck: it
	// changes (second draw) when the first draw is at least 0.95, and every
	// truck reports the last value any truck drew.
	if float64(r.Float64()*1)+0 >= 0.95 {
		*load = float64(r.Float64()*5000) + 0
	}
	t.status.advance(r)
}

// iotBase is TSBS's base simulator of trucks: per epoch the readings row of
// every truck, then the diagnostics row of every truck. It keeps making rows
// past its budget when asked, as TSBS's does: that is how rows at the end
// time get in.
type iotBase struct {
	r        *rand.Rand
	trucks   []truck
	load     float64 // the shared current load
	at       time.Time
	interval time.Duration
	made     uint64
	limit    uint64 // epochs × trucks × 2
	index    int    // next truck
	table    int    // 0 readings, 1 diagnostics
}

func (b *iotBase) finished() bool { return b.made >= b.limit }

func (b *iotBase) next() *ExactRow {
	if b.index == len(b.trucks) {
		b.index = 0
		b.table++
	}
	if b.table == 2 {
		b.table = 0
		for i := range b.trucks {
			b.trucks[i].tick(b.r, &b.load)
		}
		b.at = b.at.Add(b.interval)
	}
	t := &b.trucks[b.index]
	row := &ExactRow{Time: b.at, Tags: append([]ExactPair(nil), t.tags...)}
	if b.table == 0 {
		row.Table = "readings"
		row.Fields = make([]ExactPair, len(t.readings))
		for i := range t.readings {
			row.Fields[i] = ExactPair{Key: readingsFields[i], Value: floatValue(truncate(t.readings[i].state, readingsScale[i]))}
		}
	} else {
		row.Table = "diagnostics"
		row.Fields = []ExactPair{
			{Key: diagnosticsFields[0], Value: floatValue(truncate(t.fuel.state, 10))},
			{Key: diagnosticsFields[1], Value: floatValue(truncate(b.load, 1))},
			{Key: diagnosticsFields[2], Value: intValue(int64(truncate(t.status.state, 1)))},
		}
	}
	b.made++
	b.index++
	return row
}

// slotPlan is what a batch plan says of one slot.
type slotPlan struct {
	replay, lost, late bool
	clearField         int // field index to clear, or -1
	clearTag           int // tag index to clear, or -1
}

// batchPlan is TSBS's plan for the next batch.
type batchPlan struct {
	lost, late, replay bool
	slots              [iotBatch]slotPlan
}

// slot is the plan of slot k, which may lie past the batch's ten: those
// carry no flags.
func (p *batchPlan) slot(k int) slotPlan {
	if k < iotBatch {
		return p.slots[k]
	}
	return slotPlan{clearField: -1, clearTag: -1}
}

// iotSim is TSBS's iot simulator: the base rows, taken in batches whose
// plans drop, delay and blank them.
type iotSim struct {
	base        *iotBase
	batch       []*ExactRow   // rows being written
	lateRows    []*ExactRow   // rows kept aside, oldest first
	lateBatches [][]*ExactRow // batches kept aside, oldest first
}

func newIoTSim(r *rand.Rand, scale int, start time.Time, interval time.Duration, epochs uint64) *iotSim {
	b := &iotBase{r: r, at: start, interval: interval, limit: epochs * uint64(scale) * 2}
	b.trucks = make([]truck, scale)
	for i := range b.trucks {
		b.trucks[i] = newTruck(r, i)
	}
	return &iotSim{base: b}
}

func (s *iotSim) next() (*ExactRow, bool) {
	if len(s.batch) == 0 && !s.fill() {
		return nil, false
	}
	row := s.batch[0]
	s.batch = s.batch[1:]
	return row, true
}

// plan draws a batch plan in TSBS's order. A lost batch draws nothing more;
// a replayed batch's slot draws are made all the same.
func (s *iotSim) plan() *batchPlan {
	r := s.base.r
	p := &batchPlan{}
	if r.Float64() < batchLostChance {
		p.lost = true
		return p
	}
	p.late = r.Float64() < batchLateChance
	if len(s.lateBatches) > 0 {
		p.replay = r.Float64() < batchReplayChance
	}
	pending := len(s.lateRows)
	for k := range p.slots {
		p.slots[k] = s.planSlot(r, &pending)
	}
	return p
}

func (s *iotSim) planSlot(r *rand.Rand, pending *int) slotPlan {
	sp := slotPlan{clearField: -1, clearTag: -1}
	if *pending > 0 && r.Float64() < slotReplayChance {
		sp.replay = true
		*pending--
	}
	if r.Float64() < slotLostChance {
		sp.lost = true
		return sp
	}
	if r.Float64() < slotFieldChance {
		sp.clearField = r.Intn(len(readingsFields)) // the widest table's count
	}
	if r.Float64() < slotTagChance {
		sp.clearTag = r.Intn(len(truckTagKeys))
	}
	sp.late = r.Float64() < slotLateChance
	return sp
}

// fill makes the next batch to write, false when there is none left.
func (s *iotSim) fill() bool {
	for {
		if s.base.finished() {
			return s.fillPending()
		}
		p := s.plan()
		switch {
		case p.replay:
			s.batch, s.lateBatches = s.lateBatches[0], s.lateBatches[1:]
			return true
		case p.lost:
			for range iotBatch {
				s.base.next()
			}
		case p.late:
			if b := s.makeBatch(p); len(b) > 0 {
				s.lateBatches = append(s.lateBatches, b)
			}
		default:
			if s.batch = s.makeBatch(p); len(s.batch) > 0 {
				return true
			}
		}
	}
}

// fillPending writes what was kept aside once the base is done: the
// batches, then the rows ten at a time.
func (s *iotSim) fillPending() bool {
	switch {
	case len(s.lateBatches) > 0:
		s.batch, s.lateBatches = s.lateBatches[0], s.lateBatches[1:]
	case len(s.lateRows) > 0:
		n := min(iotBatch, len(s.lateRows))
		s.batch, s.lateRows = s.lateRows[:n], s.lateRows[n:]
	default:
		return false
	}
	return true
}

// makeBatch fills up to ten positions. A lost or late row moves the batch
// on to the next slot's plan (slot = position + skipped) for the same
// position; the clears go by position.
func (s *iotSim) makeBatch(p *batchPlan) []*ExactRow {
	batch := make([]*ExactRow, 0, iotBatch)
	skipped := 0
	for pos := range iotBatch {
		if s.base.finished() {
			break
		}
		var row *ExactRow
		row, skipped = s.takeRow(p, pos, skipped)
		sp := p.slot(pos)
		if sp.clearField >= 0 {
			row.Fields[sp.clearField%len(row.Fields)].Value = ExactValue{}
		}
		if sp.clearTag >= 0 {
			row.Tags[sp.clearTag].Value = ExactValue{}
		}
		batch = append(batch, row)
	}
	return batch
}

// takeRow finds the row for position pos: a kept row or a new one, per slot,
// until a slot neither drops nor delays it. It may ask the base for rows past
// its budget.
func (s *iotSim) takeRow(p *batchPlan, pos, skipped int) (*ExactRow, int) {
	for {
		sp := p.slot(pos + skipped)
		var row *ExactRow
		if sp.replay {
			row, s.lateRows = s.lateRows[0], s.lateRows[1:]
		} else {
			row = s.base.next()
		}
		switch {
		case sp.lost:
			skipped++
		case sp.late:
			s.lateRows = append(s.lateRows, row)
			skipped++
		default:
			return row, skipped
		}
	}
}

func iotHeader() ExactHeader {
	types := []string{"string", "string", "string", "string", "string", "float32", "float32", "float32"}
	return ExactHeader{TagKeys: append([]string(nil), truckTagKeys...), TagTypes: types,
		Tables: []ExactTable{
			{Name: "diagnostics", Fields: append([]string(nil), diagnosticsFields...)},
			{Name: "readings", Fields: append([]string(nil), readingsFields...)},
		}}
}
