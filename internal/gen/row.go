package gen

import (
	"math"

	"github.com/tsbench/tsbench/internal/numfmt"
	"github.com/tsbench/tsbench/internal/ts"
)

// A batch of one row (seed 002's CRRC shape: 300 sensors, one row per
// write) costs per value what a 100-row batch costs per column, so it has
// its own path, fillRow. It computes the DOUBLE values of each model in a
// loop of their own — no branch per sensor on a model drawn at random — and
// writes them to one array per client that the batch's DOUBLE columns point
// into, rather than through 300 column headers of 152 bytes each: at 100
// clients those headers alone were 4.5 MB, re-read from the L3 cache on
// every row. The values are the same as Fill's for any batch (the tests
// compare them with Value).

// rowPlan is fillRow's view of the sensors, made once by New. Each DOUBLE
// sensor has a slot in the row array and in a device's rowState; slots are
// grouped by model, so that each model's loop runs over contiguous slices
// (its sensors' parameters copied into models) rather than through an
// index per sensor.
type rowPlan struct {
	// spans are the slots [lo, hi) of the models fillRow computes
	// itself: LINE, SIN, SQUARE, RANDOM, CONSTANT. WALK's slots follow
	// them; fillColumn fills those.
	spans [Walk][2]int
	// models and sensors are the sensor parameters and indexes, by slot.
	models  []sensorModel
	sensors []int
	// rest are the sensors left to fillColumn: other types, and WALK,
	// whose walker lives for one batch.
	rest []int
}

func newRowPlan(sensors []ts.Sensor, models []sensorModel) rowPlan {
	var p rowPlan
	for m := Line; m <= Walk; m++ {
		lo := len(p.sensors)
		for s, sn := range sensors {
			if sn.Type == ts.Double && models[s].model == m {
				p.sensors = append(p.sensors, s)
				p.models = append(p.models, models[s])
			}
		}
		if m < Walk {
			p.spans[m] = [2]int{lo, len(p.sensors)}
		}
	}
	for s, sn := range sensors {
		if sn.Type != ts.Double || models[s].model == Walk {
			p.rest = append(p.rest, s)
		}
	}
	return p
}

// rowState is what a Cursor keeps of one device for fillRow, by slot (the
// DOUBLE sensors fillRow computes, in rowPlan's order): the series' keys,
// and where each stands in its shape — the phase in the period (LINE, SIN,
// SQUARE) or the offset in its block and the block's level (CONSTANT). The
// row last filled is kept once for the device, not per series: all of a
// one-row batch's series step together. It is the seriesState of those
// series in a third of the bytes, which is what a row costs to touch (at
// 100 clients of 300 sensors the states do not fit a core's cache).
type rowState struct {
	device int
	lastK  int64 // -2: no row yet
	keys   []uint64
	r      []int32
	held   []float64
}

func newRowState(g *Generator, device int, states []seriesState) *rowState {
	n := len(g.row.sensors)
	rs := &rowState{device: device, lastK: -2, keys: make([]uint64, n), r: make([]int32, n), held: make([]float64, n)}
	for slot, s := range g.row.sensors {
		rs.keys[slot] = states[s].key
	}
	return rs
}

// step moves a periodic series whose phase is *r to row k, which follows
// the previous row when next, and returns the new phase: phase.step for a
// rowState slot.
func step(sm *sensorModel, key uint64, r *int32, next bool, k int64) int64 {
	phase := int64(*r) + 1
	if !next || phase == sm.periodN {
		phase = 0
		if !next {
			phase = (k + int64(key%uint64(sm.periodN))) % sm.periodN
		}
	}
	*r = int32(phase)
	return phase
}

// fillRow is Fill for a batch of one row (b.Rows holds it), with the
// series' kept states.
func (g *Generator) fillRow(b *ts.Batch, states []seriesState, cur *Cursor) {
	k := b.Rows[0]
	row := cur.rowOf(g, b)
	rs := cur.rowState(g, b.Device.Index, states)
	next := k == rs.lastK+1
	rs.lastK = k
	p := &g.row
	span := func(m Model) ([]sensorModel, []uint64, []int32, []float64) {
		lo, hi := p.spans[m][0], p.spans[m][1]
		return p.models[lo:hi], rs.keys[lo:hi], rs.r[lo:hi], row[lo:hi]
	}

	models, keys, r, out := span(Line)
	for i := range models {
		sm := &models[i]
		f := float64(step(sm, keys[i], &r[i], next, k)) * sm.inv
		out[i] = sm.offset + sm.amp*(2*f-1) + sm.noise*signed(Stream(keys[i], k))
	}
	models, keys, r, out = span(Sin)
	for i := range models {
		sm := &models[i]
		f := float64(step(sm, keys[i], &r[i], next, k)) * sm.inv
		out[i] = sm.offset + sm.amp*sinTurn(f) + sm.noise*signed(Stream(keys[i], k))
	}
	models, keys, r, out = span(Square)
	for i := range models {
		sm := &models[i]
		// amp in the first half of the period, -amp from f = 0.5 on
		// (f - 0.5 is then +0 or more), as shape says; without a branch,
		// which the sensors' differing phases would mispredict.
		f := float64(step(sm, keys[i], &r[i], next, k)) * sm.inv
		v := -math.Copysign(sm.amp, f-0.5)
		out[i] = sm.offset + v + sm.noise*signed(Stream(keys[i], k))
	}
	models, keys, _, out = span(Random)
	for i := range models {
		sm := &models[i]
		out[i] = sm.offset + sm.amp*signed(Stream(keys[i], k))
	}
	models, keys, r, out = span(Constant)
	held := rs.held[p.spans[Constant][0]:p.spans[Constant][1]]
	for i := range models {
		sm := &models[i]
		// constantAt for a slot: the block's level, hashed once per block.
		phase := int64(r[i]) + 1
		if !next || phase == sm.hold {
			shifted := k + int64(keys[i]%uint64(sm.hold))
			phase = shifted % sm.hold
			held[i] = sm.offset + sm.amp*signed(Hash2(keys[i]^0xc0, uint64(shifted/sm.hold)))
		}
		r[i] = int32(phase)
		out[i] = held[i]
	}
	if g.scale != 0 {
		computed := row[:p.spans[Constant][1]] // WALK's slots are fillColumn's
		for i, v := range computed {
			computed[i] = g.round(v)
		}
	}
	var scratch [1]float64
	for _, s := range p.rest {
		g.fillColumn(&b.Columns[s], b.Device.Index, s, b.Rows[:1], scratch[:], &states[s])
	}
}

// rowState returns device's rowState, made on first use.
func (c *Cursor) rowState(g *Generator, device int, states []seriesState) *rowState {
	if c.lastRow != nil && c.lastRow.device == device {
		return c.lastRow
	}
	rs := c.rowStates[device]
	if rs == nil {
		if c.rowStates == nil {
			c.rowStates = map[int]*rowState{}
		}
		rs = newRowState(g, device, states)
		c.rowStates[device] = rs
	}
	c.lastRow = rs
	return rs
}

// rowOf returns the array b's DOUBLE columns share as one-row windows,
// pointing them at the cursor's array first when b is not the batch it
// last filled this way, or when a batch of another length has since
// resized b's columns (Fill's other path calls leaveRow; the first DOUBLE
// column is checked besides).
func (c *Cursor) rowOf(g *Generator, b *ts.Batch) []float64 {
	d := g.row.sensors
	if c.rowBatch == b && len(d) > 0 {
		if col := b.Columns[d[0]].Doubles; len(col) == 1 && &col[0] == &c.row[0] {
			return c.row
		}
	}
	if cap(c.row) < len(d) {
		c.row = make([]float64, len(d))
	}
	c.row = c.row[:len(d)]
	for slot, s := range d {
		// The row's values are rounded in place, their integers not
		// kept: Fixed is emptied, which says so.
		b.Columns[s].Doubles, b.Columns[s].Fixed = c.row[slot:slot+1:slot+1], nil
	}
	c.rowBatch = b
	return c.row
}

// leaveRow forgets the one-row batch: Fill is about to resize its columns.
func (c *Cursor) leaveRow() {
	if c != nil {
		c.rowBatch = nil
	}
}

// round rounds v to DOUBLE_LENGTH decimals: math.Round(v*scale)/scale,
// with numfmt.Round, which is math.Round without a branch.
func (g *Generator) round(v float64) float64 {
	return numfmt.Round(v*g.scale) / g.scale
}
