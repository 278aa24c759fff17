package gen

import "math"

// Change controls how often values change: rows are grouped in blocks of
// Block rows per series; the first row of a block always takes a new value
// and each other row does with probability chosen so that a share Ratio of
// the block's rows change on average. A row that does not change repeats the
// value of the last row that did — exactly, because it is computed as that
// row ("the effective row"), so the data stays a pure function of the index.
type Change struct {
	Ratio float64 // 0 < Ratio <= 1
	Block int     // rows per block; < 2 disables the knob
}

func (c Change) active() bool { return c.Block > 1 && c.Ratio < 1 }

// changes reports whether row offset o of block b takes a new value.
func (c Change) changes(key uint64, b int64, o int) bool {
	if o == 0 {
		return true
	}
	// The first row always changes, so the others change with the
	// probability that makes the block's share Ratio.
	p := (c.Ratio*float64(c.Block) - 1) / float64(c.Block-1)
	return unit(Hash2(key^0xc4a9, uint64(b)*uint64(c.Block)+uint64(o))) < math.Max(0, p)
}

// effective maps each row to the row whose value it carries.
func (c Change) effective(key uint64, rows []int64, out []int64) []int64 {
	for i, k := range rows {
		b, o := k/int64(c.Block), int(k%int64(c.Block))
		for o > 0 && !c.changes(key, b, o) {
			o--
		}
		out[i] = b*int64(c.Block) + int64(o)
	}
	return out
}
