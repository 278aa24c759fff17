package gen

import (
	"fmt"
	"math"

	"github.com/tsbench/tsbench/internal/ts"
)

// Model is a value model: the shape of a series.
type Model uint8

const (
	Line Model = iota
	Sin
	Square
	Random
	Constant
	Walk
)

var modelNames = [...]string{"LINE", "SIN", "SQUARE", "RANDOM", "CONSTANT", "WALK"}

func (m Model) String() string {
	if int(m) < len(modelNames) {
		return modelNames[m]
	}
	return fmt.Sprintf("Model(%d)", m)
}

// walkOctaves is how many scales the random walk sums: it wanders over about
// 2^walkOctaves rows before its variance stops growing.
const walkOctaves = 16

// sensorModel is the shape of one sensor, shared by all devices; each device
// gets its own phase and noise, derived from the series key.
type sensorModel struct {
	model  Model
	typ    ts.DataType
	offset float64 // centre of the values
	amp    float64 // half the range of the shape
	noise  float64 // amplitude of the hashed noise added on top
	period float64 // rows per cycle (LINE, SIN, SQUARE)
	hold   int64   // rows a level is held (CONSTANT)

	periodN int64   // period as an integer
	inv     float64 // 1 / period

	lo, hi float64 // reflecting bounds of a bounded walk (hi > lo), else 0, 0
	step   float64 // a bounded walk's values are multiples of step (> 0)
}

// phase is where one series stands in its shape: its shift (the series
// key modulo the period, or modulo the hold for CONSTANT) and the last row
// computed with its phase in the period. Consecutive rows — within a batch,
// or across batches when a Cursor keeps the phase — then cost no division;
// the values are the same as computing each row alone.
type phase struct {
	shift        int64
	lastK, lastR int64   // lastK = -2: no row yet
	held         float64 // CONSTANT: the value of lastK's block
}

func (sm *sensorModel) newPhase(key uint64) phase {
	p := phase{lastK: -2, lastR: -1}
	switch sm.model {
	case Line, Sin, Square:
		p.shift = int64(key % uint64(sm.periodN))
	case Constant:
		p.shift = int64(key % uint64(sm.hold))
	}
	return p
}

// newSensorModel draws a sensor's parameters from the seed and sensor index.
// Ranges are chosen so that the IoT-benchmark default filter (value > -5)
// keeps a good share of values without keeping all of them.
func newSensorModel(seed uint64, sensor int, m Model, t ts.DataType) sensorModel {
	h := func(i uint64) float64 { return unit(Hash2(seed^uint64(sensor)<<8, i)) }
	sm := sensorModel{model: m, typ: t}
	sm.offset = math.Round(h(1)*100 - 40)   // -40 .. 60
	sm.amp = math.Round(10 + h(2)*90)       // 10 .. 100
	sm.noise = sm.amp * 0.02                // 2 % of the range
	sm.period = math.Round(500 + h(3)*9500) // 500 .. 10,000 rows
	sm.hold = int64(200 + h(4)*4800)        // 200 .. 5,000 rows
	sm.periodN, sm.inv = int64(sm.period), 1/sm.period
	if t == ts.Int64 {
		// Wider values exercise integer encodings beyond 32 bits.
		sm.offset *= 1e6
		sm.amp *= 1e6
		sm.noise *= 1e6
	}
	return sm
}

// pickModel chooses a sensor's model by the ratio weights, deterministically
// from the seed and sensor index.
func pickModel(seed uint64, sensor int, ratios [6]float64) Model {
	var total float64
	for _, r := range ratios {
		total += r
	}
	x := unit(Hash2(seed, uint64(sensor)+0x5eed)) * total
	for m, r := range ratios {
		if x < r {
			return Model(m)
		}
		x -= r
	}
	for m := len(ratios) - 1; m >= 0; m-- { // rounding at the top end
		if ratios[m] > 0 {
			return Model(m)
		}
	}
	return Random
}

// fill writes the shape's values for rows into out. key identifies the series.
// Periodic models work on the integer phase (k + shift) mod period, stepped
// without a division while rows are consecutive (the usual case): the result
// is the same as computing each row alone, which Value does.
func (sm *sensorModel) fill(key uint64, ph *phase, rows []int64, out []float64) {
	switch sm.model {
	case Line, Sin, Square:
		sm.fillPeriodic(key, ph, rows, out)
	case Random:
		for i, k := range rows {
			out[i] = sm.offset + sm.amp*signed(Stream(key, k))
		}
	case Constant:
		for i, k := range rows {
			out[i] = sm.constantAt(key, ph, k)
		}
	case Walk:
		var w walker
		w.reset()
		for i, k := range rows {
			out[i] = sm.offset + sm.amp*w.at(key, k)
		}
		if sm.hi > sm.lo {
			for i, v := range out {
				out[i] = reflect(v, sm.lo, sm.hi)
			}
		}
		if sm.step > 0 {
			for i, v := range out {
				out[i] = math.Round(v/sm.step) * sm.step
			}
		}
	}
}

func (sm *sensorModel) fillPeriodic(key uint64, ph *phase, rows []int64, out []float64) {
	period, shift := sm.periodN, ph.shift
	r, prev := ph.lastR, ph.lastK // phase of the previous row; r = -1: unknown
	for i, k := range rows {
		if k == prev+1 && r >= 0 {
			r++
			if r == period {
				r = 0
			}
		} else {
			r = (k + shift) % period
		}
		prev = k
		// The shape at phase r, written out here: a function for it was
		// not inlined, and a call per value cost the 100-row batch a
		// sixth of its time.
		f := float64(r) * sm.inv
		var v float64
		switch sm.model {
		case Line:
			v = sm.amp * (2*f - 1)
		case Sin:
			v = sm.amp * sinTurn(f)
		default:
			v = sm.amp
			if f >= 0.5 {
				v = -v
			}
		}
		out[i] = sm.offset + v + sm.noise*signed(Stream(key, k))
	}
	ph.lastK, ph.lastR = prev, r
}

// constantAt is row k's value of a CONSTANT series: its block's level,
// hashed once per block while rows follow one another (lastR is then the
// row's offset in its block).
func (sm *sensorModel) constantAt(key uint64, ph *phase, k int64) float64 {
	if k == ph.lastK+1 && ph.lastR >= 0 {
		ph.lastK = k
		if ph.lastR++; ph.lastR < sm.hold {
			return ph.held
		}
	}
	block := (k + ph.shift) / sm.hold
	ph.lastK, ph.lastR = k, (k+ph.shift)%sm.hold
	ph.held = sm.offset + sm.amp*signed(Hash2(key^0xc0, uint64(block)))
	return ph.held
}

// walker computes a random walk that is a function of the row index alone:
// a sum of value noise over dyadic scales, each scale's amplitude growing
// with the square root of its length as a Brownian path's does; normalised to
// about [-1, 1]. It caches each scale's two lattice values, which change only
// every 2^j rows, so consecutive rows cost a few multiply-adds.
type walker struct {
	cell [walkOctaves]uint64
	a, b [walkOctaves]float64
}

// walkAmp and walkInv are each octave's amplitude and 2^-j; walkNorm is the
// sum of the amplitudes.
var walkAmp, walkInv, walkNorm = func() (amp, inv [walkOctaves]float64, norm float64) {
	for j := 0; j < walkOctaves; j++ {
		amp[j] = math.Pow(math.Sqrt2, float64(j))
		inv[j] = math.Ldexp(1, -j)
		norm += amp[j]
	}
	return amp, inv, norm
}()

func (w *walker) reset() {
	for j := range w.cell {
		w.cell[j] = math.MaxUint64 - 1 // neither it nor its successor is a real cell
	}
}

func (w *walker) at(key uint64, k int64) float64 {
	var v float64
	for j := 0; j < walkOctaves; j++ {
		cell := uint64(k) >> j
		switch cell {
		case w.cell[j]:
		case w.cell[j] + 1: // the next cell starts where this one ended
			w.cell[j] = cell
			w.a[j] = w.b[j]
			w.b[j] = signed(Hash2(key+uint64(j), cell+1))
		default:
			w.cell[j] = cell
			w.a[j] = signed(Hash2(key+uint64(j), cell))
			w.b[j] = signed(Hash2(key+uint64(j), cell+1))
		}
		frac := float64(uint64(k)&(1<<j-1)) * walkInv[j] // exact: a power of two
		v += walkAmp[j] * (w.a[j] + (w.b[j]-w.a[j])*frac)
	}
	return v * (1 / walkNorm)
}

// bound makes the sensor a walk reflected into [b.Lo, b.Hi]. The walk's
// amplitude is 1.5 times the range, so that a series spends time near
// both bounds (TSBS's high-cpu queries look for usage above 90) instead of
// staying near the middle, as an unreflected walk of that range would.
func (sm *sensorModel) bound(b Bound) {
	sm.model = Walk
	sm.lo, sm.hi, sm.step = b.Lo, b.Hi, b.Step
	sm.offset = (b.Lo + b.Hi) / 2
	sm.amp = 1.5 * (b.Hi - b.Lo)
}

// reflect folds v into [lo, hi] as a ball bouncing between two walls: a
// function of v alone, so every row keeps its own value.
func reflect(v, lo, hi float64) float64 {
	w := hi - lo
	x := math.Mod(v-lo, 2*w)
	if x < 0 {
		x += 2 * w
	}
	if x > w {
		x = 2*w - x
	}
	return lo + x
}
