package gen

import (
	"fmt"
	"math"

	"github.com/tsbench/tsbench/internal/numfmt"
	"github.com/tsbench/tsbench/internal/ts"
)

// Options are the data-generation settings of a run.
type Options struct {
	Seed int64
	// Ratios weighs the value models LINE, SIN, SQUARE, RANDOM, CONSTANT, WALK.
	Ratios       [6]float64
	StringLength int // characters of a TEXT value
	DoubleLength int // decimals kept in FLOAT and DOUBLE values; -1 keeps all
	BatchSize    int // rows per batch
	Order        Order
	// Change, when Block > 1, makes values change only at a share of the
	// rows of each block (the rest repeat the last value), the knob of the
	// HAKOM compression scenario.
	Change Change
	// Bound, when Hi > Lo, makes every numeric sensor a random walk
	// reflected into [Lo, Hi] (TSBS's cpu fields in [0, 100]), whatever
	// Ratios say.
	Bound Bound
	// Bounds, where given, bound each sensor (by position) on its own,
	// in place of Bound: TSBS's truck fields each have their range.
	Bounds []Bound
	// Missing is the share of cells left without a value (TSBS's iot
	// readings), each chosen by a hash of its series and row, so a check
	// knows which points were never written. 0 = dense.
	Missing float64
	// Table, when set, gives the numeric sensors' values of the rows it
	// holds, in place of the models (TSBS's own cpu values).
	Table *Table
}

// Bound is a closed value range; Step > 0 rounds the values to its
// multiples (TSBS's integer velocity and status).
type Bound struct{ Lo, Hi, Step float64 }

// active reports whether the range bounds the values.
func (b Bound) active() bool { return b.Hi > b.Lo }

// Generator computes batches and single values. It is immutable after New and
// safe for concurrent use; per-client scratch space lives in Batch buffers
// and a Cursor.
type Generator struct {
	schema *ts.Schema
	opts   Options
	seed   uint64
	models []sensorModel
	scale  float64 // 10^DoubleLength
	arena  string  // TEXT values are slices of it: no allocation per value
	row    rowPlan // how fillRow computes a one-row batch
}

// New prepares a generator for the schema.
func New(s *ts.Schema, o Options) (*Generator, error) {
	if o.BatchSize < 1 {
		return nil, fmt.Errorf("gen: batch size %d must be at least 1", o.BatchSize)
	}
	if o.StringLength < 1 {
		o.StringLength = 1
	}
	var total float64
	for _, r := range o.Ratios {
		if r < 0 {
			return nil, fmt.Errorf("gen: model ratio %v must not be negative", r)
		}
		total += r
	}
	if total == 0 {
		return nil, fmt.Errorf("gen: at least one model ratio must be positive")
	}
	if err := o.Order.validate(); err != nil {
		return nil, err
	}
	if o.Table != nil {
		if err := o.Table.check(len(s.Sensors)); err != nil {
			return nil, err
		}
	}
	g := &Generator{schema: s, opts: o, seed: Mix(uint64(o.Seed))}
	if o.DoubleLength >= 0 {
		g.scale = math.Pow10(o.DoubleLength)
	}
	g.models = make([]sensorModel, len(s.Sensors))
	for i, sn := range s.Sensors {
		g.models[i] = newSensorModel(g.seed, i, pickModel(g.seed, i, o.Ratios), sn.Type)
		b := o.Bound
		if i < len(o.Bounds) {
			b = o.Bounds[i]
		}
		if b.active() && sn.Type != ts.Text {
			g.models[i].bound(b)
		}
	}
	g.arena = makeArena(g.seed, o.StringLength)
	g.row = newRowPlan(s.Sensors, g.models)
	return g, nil
}

// Schema returns the schema the generator was made for.
func (g *Generator) Schema() *ts.Schema { return g.schema }

// BatchSize is the number of rows per batch.
func (g *Generator) BatchSize() int { return g.opts.BatchSize }

// InOrder reports whether rows are delivered in time order, so that the
// first n*BatchSize rows of a device are exactly its first n batches.
func (g *Generator) InOrder() bool { return g.opts.Order.Mode == InOrder }

// ModelOf tells which value model a sensor follows.
func (g *Generator) ModelOf(sensor int) Model { return g.models[sensor].model }

// Time is the timestamp of row k.
func (g *Generator) Time(k int64) int64 { return g.schema.StartTime + k*g.schema.PointStep }

// RowAt is the inverse of Time: the row index of timestamp t, and whether t
// falls exactly on a row.
func (g *Generator) RowAt(t int64) (int64, bool) {
	d := t - g.schema.StartTime
	if d < 0 {
		return -1, false
	}
	return d / g.schema.PointStep, d%g.schema.PointStep == 0
}

// seriesKey identifies a series in every hash of its values.
func (g *Generator) seriesKey(device, sensor int) uint64 {
	return Hash2(g.seed^uint64(device)*golden, uint64(sensor))
}

// NewBatch allocates a batch with room for BatchSize rows of every sensor;
// a client reuses it for all its writes.
func (g *Generator) NewBatch() *ts.Batch {
	n := g.opts.BatchSize
	b := &ts.Batch{
		Times:    make([]int64, 0, n),
		Rows:     make([]int64, 0, n),
		Columns:  make([]ts.Column, len(g.schema.Sensors)),
		Decimals: -1,
	}
	if g.scale != 0 {
		b.Decimals = g.opts.DoubleLength
	}
	var doubles []float64
	for i, sn := range g.schema.Sensors {
		c := &b.Columns[i]
		c.Type = sn.Type
		switch sn.Type {
		case ts.Boolean:
			c.Bools = make([]bool, 0, n)
		case ts.Int32:
			c.Int32s = make([]int32, 0, n)
		case ts.Int64:
			c.Int64s = make([]int64, 0, n)
		case ts.Float:
			c.Floats = make([]float32, 0, n)
		case ts.Double:
			// One backing array for all DOUBLE columns, each its own
			// n-value window: a one-row batch's values then sit in a
			// few cache lines, not one allocation per sensor.
			if doubles == nil {
				doubles = make([]float64, n*countType(g.schema.Sensors, ts.Double))
			}
			c.Doubles, doubles = doubles[:0:n], doubles[n:]
		case ts.Text:
			c.Texts = make([]string, 0, n)
		}
	}
	return b
}

func countType(sensors []ts.Sensor, t ts.DataType) int {
	n := 0
	for _, s := range sensors {
		if s.Type == t {
			n++
		}
	}
	return n
}

// Fill makes b the n-th batch (0-based) that device dev sends, reusing b's
// buffers. cur caches out-of-order windows between calls; pass the same
// Cursor for consecutive batches of a client (nil works, only slower).
func (g *Generator) Fill(b *ts.Batch, dev *ts.Device, n int64, cur *Cursor) {
	b.Device = dev
	b.Rows = g.opts.Order.rows(b.Rows[:0], g.opts.BatchSize, dev.Index, n, cur, g.seed)
	b.Times = b.Times[:len(b.Rows)]
	for i, k := range b.Rows {
		b.Times[i] = g.Time(k)
	}
	b.ClearNulls()
	states := cur.series(g, dev.Index)
	if len(b.Rows) == 1 && states != nil && !g.opts.Change.active() && g.opts.Table == nil {
		g.fillRow(b, states, cur)
		g.markMissing(b, dev.Index)
		return
	}
	cur.leaveRow()
	var scratch [256]float64
	for s := range b.Columns {
		var st *seriesState
		if states != nil {
			st = &states[s]
		}
		g.fillColumn(&b.Columns[s], dev.Index, s, b.Rows, scratch[:], st)
	}
	g.markMissing(b, dev.Index)
}

// Missing reports whether row k of a series has no value (Options.Missing).
func (g *Generator) Missing(device, sensor int, k int64) bool {
	return g.opts.Missing > 0 && unit(Hash2(g.seriesKey(device, sensor)^0x6d155, uint64(k))) < g.opts.Missing
}

// MissingCells counts the cells without a value in rows [0, rows) of the
// devices: what a dense count of those rows overstates.
func (g *Generator) MissingCells(devices []ts.Device, rows int64) int64 {
	if g.opts.Missing <= 0 {
		return 0
	}
	var n int64
	for _, d := range devices {
		for s := range g.schema.Sensors {
			for k := int64(0); k < rows; k++ {
				if g.Missing(d.Index, s, k) {
					n++
				}
			}
		}
	}
	return n
}

// markMissing empties the batch's missing cells (ts.Batch.SetNull).
func (g *Generator) markMissing(b *ts.Batch, device int) {
	if g.opts.Missing <= 0 {
		return
	}
	for s := range b.Columns {
		for i, k := range b.Rows {
			if g.Missing(device, s, k) {
				b.SetNull(s, i)
			}
		}
	}
}

// seriesState is what a Cursor keeps of one series between batches: its
// key (two hashes) and its phase (a division or two), which a batch of one
// row per sensor would otherwise recompute for every value.
type seriesState struct {
	key uint64
	ph  phase
}

func (g *Generator) newSeriesState(device, sensor int) seriesState {
	key := g.seriesKey(device, sensor)
	return seriesState{key: key, ph: g.models[sensor].newPhase(key)}
}

// fillColumn computes one sensor's values in chunks that fit the scratch
// buffer, then converts them to the sensor's type.
func (g *Generator) fillColumn(c *ts.Column, device, sensor int, rows []int64, scratch []float64, st *seriesState) {
	sm := &g.models[sensor]
	if st == nil {
		local := g.newSeriesState(device, sensor)
		st = &local
	}
	key := st.key
	g.resize(c, len(rows))
	if g.opts.Change.active() {
		rows = g.opts.Change.effective(key, rows, make([]int64, len(rows)))
	}
	if c.Type == ts.Text {
		g.fillText(c.Texts, sm, key, rows)
		return
	}
	for start := 0; start < len(rows); start += len(scratch) {
		end := min(start+len(scratch), len(rows))
		vals := scratch[:end-start]
		if c.Type == ts.Double {
			vals = c.Doubles[start:end] // compute in place: no copy for the common type
		}
		chunk := rows[start:end]
		tbl := g.opts.Table
		// The models' values only where the table lacks a row: a TSBS
		// run's rows are all in it, and its walks cost the most.
		if tbl == nil || !tbl.holdsAll(device, sensor, chunk) {
			sm.fill(key, &st.ph, chunk, vals)
		}
		if tbl != nil {
			tbl.fill(device, sensor, chunk, vals)
		}
		g.convert(c, sm, start, vals)
	}
}

func (g *Generator) resize(c *ts.Column, n int) {
	switch c.Type {
	case ts.Boolean:
		c.Bools = grow(c.Bools, n)
	case ts.Int32:
		c.Int32s = grow(c.Int32s, n)
	case ts.Int64:
		c.Int64s = grow(c.Int64s, n)
	case ts.Float:
		c.Floats = grow(c.Floats, n)
	case ts.Double:
		c.Doubles = grow(c.Doubles, n)
		if g.scale != 0 {
			c.Fixed = grow(c.Fixed, n)
		}
	case ts.Text:
		c.Texts = grow(c.Texts, n)
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// convert stores the shape values vals as the column's type at offset start.
func (g *Generator) convert(c *ts.Column, sm *sensorModel, start int, vals []float64) {
	switch c.Type {
	case ts.Double:
		if g.scale != 0 {
			fixed := c.Fixed[start:]
			for i, v := range vals {
				// g.round, keeping the integer; 0 (which text
				// formats write from the float) when it is beyond
				// an int64's exact range.
				n := numfmt.Round(v * g.scale)
				vals[i], fixed[i] = n/g.scale, 0
				if math.Abs(n) < 1<<53 {
					fixed[i] = int64(n)
				}
			}
		}
	case ts.Float:
		out := c.Floats[start:]
		for i, v := range vals {
			if g.scale != 0 {
				v = g.round(v)
			}
			out[i] = float32(v)
		}
	case ts.Int32:
		out := c.Int32s[start:]
		for i, v := range vals {
			out[i] = int32(math.Round(v))
		}
	case ts.Int64:
		out := c.Int64s[start:]
		for i, v := range vals {
			out[i] = int64(math.Round(v))
		}
	case ts.Boolean:
		out := c.Bools[start:]
		for i, v := range vals {
			out[i] = v > sm.offset
		}
	}
}

// fillText picks each value as a slice of the arena at a hashed offset; a
// CONSTANT sensor keeps its offset for a whole hold run.
func (g *Generator) fillText(out []string, sm *sensorModel, key uint64, rows []int64) {
	n := uint64(len(g.arena) - g.opts.StringLength)
	for i, k := range rows {
		x := uint64(k)
		if sm.model == Constant {
			x = uint64((k + int64(key%uint64(sm.hold))) / sm.hold)
		}
		o := Hash2(key^0x7e, x) % n
		out[i] = g.arena[o : o+uint64(g.opts.StringLength)]
	}
}

// makeArena builds the text every TEXT value is cut from: letters and
// digits drawn from the seed, long enough that values rarely repeat.
func makeArena(seed uint64, strLen int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	n := max(1<<16, 16*strLen)
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = alphabet[Hash2(seed^0xa7e4a, uint64(i))%uint64(len(alphabet))]
	}
	return string(buf)
}

// Value computes the single value of a series at row k: the same value Fill
// puts in any batch that carries row k.
func (g *Generator) Value(device, sensor int, k int64) any {
	c := ts.Column{Type: g.models[sensor].typ}
	g.fillColumn(&c, device, sensor, []int64{k}, make([]float64, 1), nil)
	return c.Value(0)
}

// Number is Value as a float64 (booleans 0/1); ok is false for TEXT.
func (g *Generator) Number(device, sensor int, k int64) (v float64, ok bool) {
	c := ts.Column{Type: g.models[sensor].typ}
	g.fillColumn(&c, device, sensor, []int64{k}, make([]float64, 1), nil)
	return c.Number(0)
}
