package ts

// Column holds one sensor's values for the rows of a batch. Exactly one slice,
// the one matching Type, is used; the others stay empty. Keeping the typed
// slices side by side lets a target serialise a batch without boxing values.
type Column struct {
	Type    DataType
	Bools   []bool
	Int32s  []int32
	Int64s  []int64
	Floats  []float32
	Doubles []float64
	Texts   []string
	// Fixed, when as long as Doubles, holds each DOUBLE value as the
	// integer the generator rounded it to: Doubles[i] is exactly
	// float64(Fixed[i]) / 10^Batch.Decimals, unless Fixed[i] is 0 (the
	// value is zero, or too large for an exact int64). Text formats write
	// the value from it (numfmt.AppendFixed) without recovering it from
	// the float. Any other length means not known (a replayed file's).
	Fixed []int64
	// Null, when as long as the column, marks the rows where the sensor
	// has no value (a replayed file's empty cell): no point exists there,
	// and the typed slice holds a zero. Any other length means every row
	// has a value, as every generated batch has.
	Null []bool
}

// Present reports whether row i has a value.
func (c *Column) Present(i int) bool { return len(c.Null) == 0 || !c.Null[i] }

// HasFixed tells whether Fixed holds the column's DOUBLEs as integers (see
// Fixed).
func (c *Column) HasFixed() bool { return len(c.Fixed) == len(c.Doubles) }

// Len is the number of values in the column.
func (c *Column) Len() int {
	switch c.Type {
	case Boolean:
		return len(c.Bools)
	case Int32:
		return len(c.Int32s)
	case Int64:
		return len(c.Int64s)
	case Float:
		return len(c.Floats)
	case Double:
		return len(c.Doubles)
	default:
		return len(c.Texts)
	}
}

// Number returns value i as a float64 (booleans as 0 or 1) and false for text.
func (c *Column) Number(i int) (float64, bool) {
	switch c.Type {
	case Boolean:
		if c.Bools[i] {
			return 1, true
		}
		return 0, true
	case Int32:
		return float64(c.Int32s[i]), true
	case Int64:
		return float64(c.Int64s[i]), true
	case Float:
		return float64(c.Floats[i]), true
	case Double:
		return c.Doubles[i], true
	}
	return 0, false
}

// Value returns value i boxed; for tests, reports and slow paths only.
func (c *Column) Value(i int) any {
	switch c.Type {
	case Boolean:
		return c.Bools[i]
	case Int32:
		return c.Int32s[i]
	case Int64:
		return c.Int64s[i]
	case Float:
		return c.Floats[i]
	case Double:
		return c.Doubles[i]
	default:
		return c.Texts[i]
	}
}

// Batch is the rows one write request carries for one device: one timestamp
// slice and one column per sensor of the schema, all of equal length. Rows
// are not necessarily in time order (out-of-order delivery).
type Batch struct {
	Device  *Device
	Times   []int64 // milliseconds since the epoch
	Columns []Column
	// Rows holds the row index of each timestamp (the generator's k): a target
	// never needs it, tests and verification do.
	Rows []int64
	// Decimals is the places the generator rounded DOUBLE values to
	// (DOUBLE_LENGTH), or -1: a hint that lets text formats write them
	// without a shortest-digits search (numfmt.AppendFloat), never trusted
	// blindly.
	Decimals int
	// Duplicates counts the rows that repeat a time the device already had
	// (a replayed file's duplicates, internal/dataset): the server stores
	// each (series, time) once, so verification expects them once.
	Duplicates int64
	// DuplicatePoints counts the values of those rows that repeat a point
	// the device already had: Duplicates x columns, but fewer in sparse
	// data (a duplicate row's empty cell repeats nothing, nor does a value
	// where the earlier rows had none).
	DuplicatePoints int64
	// Nulls counts the cells without a value (Column.Null): the batch
	// carries rows x sensors - Nulls points.
	Nulls int64
}

// Len is the number of rows in the batch.
func (b *Batch) Len() int { return len(b.Times) }

// Points is the values the batch carries: rows x sensors, less the cells
// without a value.
func (b *Batch) Points() int64 { return int64(len(b.Times))*int64(len(b.Columns)) - b.Nulls }

// RowPresent reports whether row i has a value in some column: a row whose
// every cell is empty carries no point, and a target writes nothing for it.
func (b *Batch) RowPresent(i int) bool {
	if b.Nulls == 0 {
		return true
	}
	for c := range b.Columns {
		if b.Columns[c].Present(i) {
			return true
		}
	}
	return false
}

// MarkNull records that row i of column c has no value; the column's
// typed value there should be left at zero.
func (b *Batch) MarkNull(c, i int) {
	col := &b.Columns[c]
	if len(col.Null) != len(b.Times) {
		col.Null = append(col.Null[:0], make([]bool, len(b.Times))...)
	}
	if !col.Null[i] {
		col.Null[i] = true
		b.Nulls++
	}
}

// SetNull empties row i of column c: it marks the cell null (MarkNull) and
// zeroes its typed value and its Fixed integer, so that a writer reading the
// slices without looking at Null still finds the zero an empty cell holds.
func (b *Batch) SetNull(c, i int) {
	b.MarkNull(c, i)
	col := &b.Columns[c]
	switch col.Type {
	case Boolean:
		col.Bools[i] = false
	case Int32:
		col.Int32s[i] = 0
	case Int64:
		col.Int64s[i] = 0
	case Float:
		col.Floats[i] = 0
	case Double:
		col.Doubles[i] = 0
		if i < len(col.Fixed) {
			col.Fixed[i] = 0
		}
	case Text:
		col.Texts[i] = ""
	}
}

// ClearNulls makes every cell present again, keeping the buffers: a filler
// calls it before it fills a batch anew.
func (b *Batch) ClearNulls() {
	if b.Nulls == 0 {
		return
	}
	for c := range b.Columns {
		b.Columns[c].Null = b.Columns[c].Null[:0]
	}
	b.Nulls = 0
}
