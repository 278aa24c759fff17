package dataset

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/tsbench/tsbench/internal/targets/clientside"
	"github.com/tsbench/tsbench/internal/ts"
)

// Reader fills batches from a dataset for one client: it keeps where each
// of the client's devices is in data.bin, so that consecutive batches of a
// device read on from where the last one ended. Not safe for concurrent
// use; the Dataset is.
type Reader struct {
	ds     *Dataset
	batch  int64 // rows per batch
	repeat bool
	pos    map[int]*devicePos // by device index
	buf    []byte
	// Sparse datasets: the empty cells found while filling a batch (they
	// are marked once every row is in, ts.Batch.MarkNull), the parts of
	// the batch read (for their duplicates' values), and the last null
	// bitmap read.
	empty  []cell
	parts  []part
	bm     []byte
	bmAt   int64
	bmRead bool
}

// cell is an empty cell of a batch: its row and column.
type cell struct{ row, col int }

// part is a run of a device's rows read into a batch: from row, count
// rows, at batch row at.
type part struct {
	row, count int64
	at         int
}

// devicePos is where a device's next row is: row r of its rows, row k of
// chunk c, at byte off of it.
type devicePos struct {
	r, k int64
	c    int
	off  int64
}

// NewReader returns a reader of batches of rows rows. With repeat, a device
// past its last row starts again from its first, its times shifted by the
// dataset's span per repetition; without, its batches end there (shorter,
// then empty).
func (ds *Dataset) NewReader(rows int, repeat bool) *Reader {
	return &Reader{ds: ds, batch: int64(max(1, rows)), repeat: repeat, pos: map[int]*devicePos{}}
}

// NewBatch allocates a batch with room for a batch of rows of every sensor.
func (ds *Dataset) NewBatch(rows int) *ts.Batch {
	b := &ts.Batch{Times: make([]int64, 0, rows), Rows: make([]int64, 0, rows), Columns: make([]ts.Column, len(ds.Sensors)),
		Decimals: ds.Decimals}
	for i, s := range ds.Sensors {
		b.Columns[i].Type = s.Type
	}
	return b
}

// Fill makes b batch n of dev: the device's rows [n*B, (n+1)*B), each
// repetition's times shifted by the span. b.Duplicates counts the rows
// that repeat an earlier time of the device (in the file, or in this
// repetition of it). A read error (the file changed under the run) is
// returned; b is then empty.
func (r *Reader) Fill(b *ts.Batch, dev *ts.Device, n int64) error {
	resetBatch(b, dev)
	d := r.ds.device(dev)
	if d == nil {
		return fmt.Errorf("dataset: device %s (index %d) is not in %s", dev.Name, dev.Index, r.ds.Dir)
	}
	if d.Rows == 0 {
		return nil
	}
	first := n * r.batch
	last := first + r.batch // exclusive
	if !r.repeat {
		last = min(last, d.Rows)
	}
	r.empty, r.parts = r.empty[:0], r.parts[:0]
	for g := first; g < last; {
		cycle, row := g/d.Rows, g%d.Rows
		end := min(last-g, d.Rows-row) // rows of this repetition
		r.parts = append(r.parts, part{row: row, count: end, at: len(b.Times)})
		if err := r.read(b, d, row, end, cycle*r.ds.Span(), g); err != nil {
			resetBatch(b, dev)
			return err
		}
		b.Duplicates += d.duplicatesIn(row, row+end)
		g += end
	}
	for _, e := range r.empty { // now that every row is in
		b.MarkNull(e.col, e.row)
	}
	b.DuplicatePoints = b.Duplicates * int64(len(b.Columns))
	if b.Duplicates > 0 && len(d.DuplicateValues) == len(d.Duplicates) {
		b.DuplicatePoints = r.duplicateValues(d)
	}
	return nil
}

// duplicateValues counts the values of the batch's duplicate rows that
// repeat a point (sparse data: Device.DuplicateValues).
func (r *Reader) duplicateValues(d *Device) int64 {
	var n int64
	for _, pt := range r.parts {
		i := sort.Search(len(d.Duplicates), func(i int) bool { return d.Duplicates[i] >= pt.row })
		for ; i < len(d.Duplicates) && d.Duplicates[i] < pt.row+pt.count; i++ {
			n += int64(d.DuplicateValues[i])
		}
	}
	return n
}

func resetBatch(b *ts.Batch, dev *ts.Device) {
	b.Device = dev
	b.ClearNulls()
	b.Times, b.Rows, b.Duplicates, b.DuplicatePoints = b.Times[:0], b.Rows[:0], 0, 0
	for i := range b.Columns {
		c := &b.Columns[i]
		c.Bools, c.Int32s, c.Int64s, c.Floats, c.Doubles, c.Texts = c.Bools[:0], c.Int32s[:0], c.Int64s[:0], c.Floats[:0], c.Doubles[:0], c.Texts[:0]
	}
}

// read appends rows [row, row+count) of d to b, times shifted by shift; g
// is the first one's number across repetitions (b.Rows).
func (r *Reader) read(b *ts.Batch, d *Device, row, count, shift, g int64) error {
	p := r.seek(d, row)
	for count > 0 {
		ch := d.Chunks[p.c]
		left := ch.Rows - p.k
		want := min(count, left)
		data, err := r.load(ch, p.off, want)
		if err != nil {
			return err
		}
		used, err := r.decode(b, data, want, shift, g)
		if err != nil {
			return fmt.Errorf("dataset %s: device %s, chunk at %d: %w", r.ds.Dir, d.Name, ch.Offset, err)
		}
		if ch.Missing > 0 {
			if err := r.nulls(ch, p.k, want, len(b.Times)-int(want)); err != nil {
				return err
			}
		}
		p.off += int64(used)
		p.r += want
		p.k += want
		g += want
		count -= want
		if want == left {
			p.c, p.k, p.off = p.c+1, 0, 0
		}
	}
	return nil
}

// seek returns the device's position at row, moving it there when it is
// elsewhere (the first batch, a repetition, or a batch out of turn).
func (r *Reader) seek(d *Device, row int64) *devicePos {
	p := r.pos[d.Index]
	if p == nil {
		p = &devicePos{}
		r.pos[d.Index] = p
	}
	if p.r == row && p.c < len(d.Chunks) {
		return p
	}
	p.r, p.k, p.c, p.off = 0, 0, 0, 0
	for p.c < len(d.Chunks) && p.r+d.Chunks[p.c].Rows <= row {
		p.r += d.Chunks[p.c].Rows
		p.c++
	}
	// Within the chunk: fixed-size rows by arithmetic, others by skipping.
	p.k = row - p.r
	p.r = row
	if p.k > 0 {
		if r.ds.fixed {
			p.off = p.k * int64(r.ds.rowSize)
		} else if data, err := r.load(d.Chunks[p.c], 0, p.k); err == nil {
			p.off = int64(r.skip(data, p.k))
		}
	}
	return p
}

// nulls notes the empty cells of rows [k, k+count) of a chunk, read into
// the batch from row at.
func (r *Reader) nulls(ch Chunk, k, count int64, at int) error {
	n := len(r.ds.Sensors)
	size := nullBytes(ch.Rows, n)
	start := ch.Offset + ch.Bytes
	var bm []byte
	switch {
	case r.ds.mem != nil && start+size <= int64(len(r.ds.mem)):
		bm = r.ds.mem[start : start+size]
	case r.bmRead && r.bmAt == start && int64(len(r.bm)) == size:
		bm = r.bm
	default:
		if int64(cap(r.bm)) < size {
			r.bm = make([]byte, size)
		}
		r.bm = r.bm[:size]
		if _, err := r.ds.data.ReadAt(r.bm, start); err != nil {
			r.bmRead = false
			return fmt.Errorf("dataset %s: read the null bitmap at %d: %w", r.ds.Dir, start, err)
		}
		r.bmAt, r.bmRead, bm = start, true, r.bm
	}
	for j := int64(0); j < count; j++ {
		base := (k + j) * int64(n)
		for s := 0; s < n; s++ {
			if bit := base + int64(s); bm[bit/8]&(1<<(bit%8)) != 0 {
				r.empty = append(r.empty, cell{row: at + int(j), col: s})
			}
		}
	}
	return nil
}

// load reads the bytes of rows rows of a chunk from byte off: exactly that
// many for fixed-size rows, else the rest of the chunk.
func (r *Reader) load(ch Chunk, off, rows int64) ([]byte, error) {
	n := ch.Bytes - off
	if r.ds.fixed {
		n = min(n, rows*int64(r.ds.rowSize))
	}
	if at := ch.Offset + off; r.ds.mem != nil && at+n <= int64(len(r.ds.mem)) {
		return r.ds.mem[at : at+n], nil
	}
	if int64(cap(r.buf)) < n {
		r.buf = make([]byte, n)
	}
	buf := r.buf[:n]
	if _, err := r.ds.data.ReadAt(buf, ch.Offset+off); err != nil {
		return nil, fmt.Errorf("dataset %s: read %d bytes at %d: %w", r.ds.Dir, n, ch.Offset+off, err)
	}
	return buf, nil
}

// decode appends rows rows from data to b and returns the bytes used.
func (r *Reader) decode(b *ts.Batch, data []byte, rows, shift, g int64) (int, error) {
	at := 0
	for i := int64(0); i < rows; i++ {
		if len(data)-at < 8 {
			return at, fmt.Errorf("row cut short")
		}
		b.Times = append(b.Times, int64(binary.LittleEndian.Uint64(data[at:]))+shift)
		b.Rows = append(b.Rows, g+i)
		at += 8
		for s := range b.Columns {
			c := &b.Columns[s]
			n, err := decodeValue(c, data[at:])
			if err != nil {
				return at, err
			}
			at += n
		}
	}
	return at, nil
}

// skip returns the bytes of the first rows rows of data.
func (r *Reader) skip(data []byte, rows int64) int {
	at := 0
	for i := int64(0); i < rows; i++ {
		at += 8
		for _, s := range r.ds.Sensors {
			if s.Type == ts.Text {
				l, k := binary.Uvarint(data[at:])
				at += k + int(l)
				continue
			}
			at += s.Type.Width()
		}
	}
	return at
}

// decodeValue appends one encoded value to c and returns its size.
func decodeValue(c *ts.Column, data []byte) (int, error) {
	if c.Type == ts.Text {
		l, k := binary.Uvarint(data)
		if k <= 0 || uint64(len(data)-k) < l {
			return 0, fmt.Errorf("TEXT value cut short")
		}
		c.Texts = append(c.Texts, string(data[k:k+int(l)]))
		return k + int(l), nil
	}
	w := c.Type.Width()
	if len(data) < w {
		return 0, fmt.Errorf("%s value cut short", c.Type)
	}
	switch c.Type {
	case ts.Boolean:
		c.Bools = append(c.Bools, data[0] != 0)
	case ts.Int32:
		c.Int32s = append(c.Int32s, int32(binary.LittleEndian.Uint32(data)))
	case ts.Int64:
		c.Int64s = append(c.Int64s, int64(binary.LittleEndian.Uint64(data)))
	case ts.Float:
		c.Floats = append(c.Floats, math.Float32frombits(binary.LittleEndian.Uint32(data)))
	case ts.Double:
		c.Doubles = append(c.Doubles, math.Float64frombits(binary.LittleEndian.Uint64(data)))
	}
	return w, nil
}

// Series returns what a replay that wrote the first rows rows of dev (all
// repetitions counted) leaves stored for sensor s: one point per time, the
// last row's value, as a database keeps it; a time at which the sensor has
// no value (sparse data) has no point. For checking query answers.
func (ds *Dataset) Series(dev *ts.Device, s int, rows int64) (clientside.Series, error) {
	const step = 1024
	r := ds.NewReader(step, true)
	b := ds.NewBatch(step)
	byTime := map[int64]clientside.Point{}
	var order []int64
	for n := int64(0); n*step < rows; n++ {
		if err := r.Fill(b, dev, n); err != nil {
			return nil, err
		}
		for i, t := range b.Times {
			if n*step+int64(i) >= rows {
				break
			}
			if !b.Columns[s].Present(i) {
				continue // no point: the database has none either
			}
			v, numeric := b.Columns[s].Number(i)
			if _, seen := byTime[t]; !seen {
				order = append(order, t)
			}
			byTime[t] = clientside.Point{T: t, V: v, Numeric: numeric}
		}
	}
	out := make(clientside.Series, len(order))
	for i, t := range order {
		out[i] = byTime[t]
	}
	return out, nil
}
