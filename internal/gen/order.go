package gen

import (
	"fmt"
	"math"
	"sort"

	"github.com/tsbench/tsbench/internal/ts"
)

// OrderMode is how the delivery order of rows departs from time order.
type OrderMode uint8

const (
	InOrder OrderMode = iota
	// Poisson delays single rows: a share Ratio of rows arrives late by a
	// Poisson-distributed number of rows with mean Lambda.
	Poisson
	// BatchOrder delays whole batches: a share Ratio of batches arrives late
	// by a Poisson-distributed number of batches with mean Lambda/BatchSize.
	BatchOrder
)

func (m OrderMode) String() string {
	switch m {
	case Poisson:
		return "POISSON"
	case BatchOrder:
		return "BATCH"
	}
	return "IN_ORDER"
}

// Order describes out-of-order delivery. Delays never cross a window: the rows
// of a window (a whole number of batches) are a permutation of the window's
// row indexes, so every row is sent exactly once and timestamps never collide.
type Order struct {
	Mode     OrderMode
	Ratio    float64 // share of rows (or batches) delivered late, 0..1
	Lambda   float64 // mean delay of a late row, in rows (POINT_STEPs)
	MaxDelay int     // longest delay, in rows (MAX_K)
	// Rows is how many rows each device will send when the run completes
	// (0 = open-ended). The last window is cut to it, so a complete run
	// sends exactly rows [0, Rows) however the rows were shuffled.
	Rows int64
	// DeviceRows, when set, is Rows by device index: clients that draw
	// their operations at random (OPERATION_ORDER=random) write different
	// numbers of batches, so each device's last window is cut to its own.
	DeviceRows func(device int) int64
}

// rowsOf is how many rows device sends in a complete run (0 = open-ended).
func (o Order) rowsOf(device int) int64 {
	if o.DeviceRows != nil {
		return o.DeviceRows(device)
	}
	return o.Rows
}

// maxWindowRows bounds the memory of a cached window (4 bytes a unit).
const maxWindowRows = 1 << 16

func (o Order) validate() error {
	if o.Mode == InOrder {
		return nil
	}
	if o.Ratio < 0 || o.Ratio > 1 {
		return fmt.Errorf("gen: out-of-order ratio %v must be within [0, 1]", o.Ratio)
	}
	if o.Lambda <= 0 {
		return fmt.Errorf("gen: out-of-order lambda %v must be positive", o.Lambda)
	}
	if o.MaxDelay < 1 {
		return fmt.Errorf("gen: out-of-order max delay %d must be at least 1", o.MaxDelay)
	}
	return nil
}

// window returns how many units (rows for Poisson, batches for BatchOrder)
// one permutation window holds, and the mean delay in units.
func (o Order) window(batch int) (units int, lambda float64) {
	lambda = o.Lambda
	maxDelay := float64(o.MaxDelay)
	limit := maxWindowRows
	if o.Mode == BatchOrder {
		lambda = math.Max(1, lambda/float64(batch))
		maxDelay = math.Max(1, maxDelay/float64(batch))
		limit = max(2, maxWindowRows/batch)
	}
	// Four means covers nearly every Poisson draw; MAX_K caps it.
	w := int(math.Ceil(math.Min(4*lambda, maxDelay))) + 1
	if o.Mode == Poisson {
		w = (w + batch - 1) / batch * batch // whole batches per window
		limit = max(batch, limit/batch*batch)
	}
	return min(max(w, 2), limit), lambda
}

// Cursor caches the permutation of the current window of each device. A
// client keeps one; it is not safe for concurrent use.
type Cursor struct {
	windows map[int]*permWindow
	// states keeps each device's series keys and phases (seriesState), by
	// device index, up to maxCursorSeries series in all.
	states      map[int][]seriesState
	statesCount int
	// row holds the DOUBLE values of rowBatch, a one-row batch whose
	// DOUBLE columns fillRow pointed at it (see rowOf).
	row      []float64
	rowBatch *ts.Batch
	// rowStates are fillRow's states by device (a device has one when it
	// has states), lastRow the one it used last.
	rowStates map[int]*rowState
	lastRow   *rowState
}

// maxCursorSeries bounds what a Cursor keeps of series: 2^20 of them, 32 MB.
// A client with more devices times sensors recomputes the rest each batch.
const maxCursorSeries = 1 << 20

// series returns the kept state of device's series, made on first use; nil
// without a cursor or beyond its bound.
func (c *Cursor) series(g *Generator, device int) []seriesState {
	if c == nil {
		return nil
	}
	if st, ok := c.states[device]; ok {
		return st
	}
	n := len(g.models)
	if c.statesCount+n > maxCursorSeries {
		return nil
	}
	if c.states == nil {
		c.states = map[int][]seriesState{}
	}
	st := make([]seriesState, n)
	for s := range st {
		st[s] = g.newSeriesState(device, s)
	}
	c.states[device] = st
	c.statesCount += n
	return st
}

type permWindow struct {
	index int64
	perm  []int32
}

// NewCursor returns an empty cursor.
func NewCursor() *Cursor { return &Cursor{windows: map[int]*permWindow{}} }

// rows appends the row indexes of batch n of a device to dst.
func (o Order) rows(dst []int64, batch, device int, n int64, cur *Cursor, seed uint64) []int64 {
	switch o.Mode {
	case Poisson:
		units, lambda := o.window(batch)
		first := n * int64(batch)
		w, off := first/int64(units), int(first%int64(units))
		base := w * int64(units)
		perm := o.perm(cur, device, w, o.cut(units, base, o.rowsOf(device)), lambda, seed)
		for _, p := range perm[off : off+batch] {
			dst = append(dst, base+int64(p))
		}
	case BatchOrder:
		units, lambda := o.window(batch)
		w, off := n/int64(units), int(n%int64(units))
		perm := o.perm(cur, device, w, o.cut(units, w*int64(units), o.rowsOf(device)/int64(batch)), lambda, seed)
		first := (w*int64(units) + int64(perm[off])) * int64(batch)
		for k := first; k < first+int64(batch); k++ {
			dst = append(dst, k)
		}
	default:
		for k := n * int64(batch); k < (n+1)*int64(batch); k++ {
			dst = append(dst, k)
		}
	}
	return dst
}

// cut shortens the window that starts at unit base so that it ends at total
// units (when total is known and the window reaches past it).
func (o Order) cut(units int, base, total int64) int {
	if total > 0 && base < total && base+int64(units) > total {
		return int(total - base)
	}
	return units
}

// perm returns the delivery permutation of window w, from the cursor's cache
// when it holds it.
func (o Order) perm(cur *Cursor, device int, w int64, units int, lambda float64, seed uint64) []int32 {
	if cur == nil {
		return o.makePerm(device, w, units, lambda, seed, nil)
	}
	pw := cur.windows[device]
	if pw == nil {
		pw = &permWindow{index: -1}
		cur.windows[device] = pw
	}
	if pw.index != w || len(pw.perm) != units {
		pw.perm = o.makePerm(device, w, units, lambda, seed, pw.perm)
		pw.index = w
	}
	return pw.perm
}

// makePerm computes the delivery order of one window: units that are not
// late keep their order, each late unit i moves to just after unit
// i + delay. Merging the two sorted lists is O(units + late*log(late)).
func (o Order) makePerm(device int, w int64, units int, lambda float64, seed uint64, buf []int32) []int32 {
	key := Hash2(seed^0x00f0, uint64(device)*golden^uint64(w))
	type late struct {
		at  float64 // delivered after unit floor(at)
		idx int32
	}
	var lates []late
	onTime := make([]int32, 0, units)
	for i := 0; i < units; i++ {
		h := Hash2(key, uint64(i))
		if unit(h) < o.Ratio {
			d := poisson(lambda, Hash2(h, 1), Hash2(h, 2))
			d = math.Max(1, math.Min(d, float64(o.MaxDelay)))
			lates = append(lates, late{at: float64(i) + d + 0.5, idx: int32(i)})
			continue
		}
		onTime = append(onTime, int32(i))
	}
	sort.Slice(lates, func(a, b int) bool {
		if lates[a].at != lates[b].at {
			return lates[a].at < lates[b].at
		}
		return lates[a].idx < lates[b].idx
	})
	perm := buf[:0]
	j := 0
	for _, i := range onTime {
		for j < len(lates) && lates[j].at < float64(i) {
			perm = append(perm, lates[j].idx)
			j++
		}
		perm = append(perm, i)
	}
	for ; j < len(lates); j++ {
		perm = append(perm, lates[j].idx)
	}
	return perm
}

// poisson draws a Poisson(lambda) variate from two hashes: Knuth's product
// method for small means, a rounded normal approximation for large ones.
func poisson(lambda float64, h1, h2 uint64) float64 {
	if lambda < 30 {
		limit := math.Exp(-lambda)
		p, k := 1.0, 0.0
		x := h1
		for {
			x = Mix(x + golden)
			p *= unit(x)
			if p <= limit || k > 10*lambda+20 {
				return k
			}
			k++
		}
	}
	u1 := math.Max(unit(h1), 1e-300)
	z := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*unit(h2))
	return math.Max(0, math.Round(lambda+math.Sqrt(lambda)*z))
}
