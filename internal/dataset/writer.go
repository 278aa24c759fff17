package dataset

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/tsbench/tsbench/internal/ts"
)

// Chunk and buffer sizes of the writer: a device's rows are flushed as a
// chunk once they fill chunkBytes, and every device's once all together
// hold bufferBytes, so memory stays bounded whatever the number of devices.
const (
	chunkBytes  = 64 << 10
	bufferBytes = 64 << 20
	stepSamples = 100_000
)

// Writer makes a dataset directory from rows given device by device, in
// any interleaving.
type Writer struct {
	dir     string
	f       *os.File
	offset  int64
	m       Manifest
	pending [][]byte // by device position: rows not yet in a chunk
	// rows counts, by device position, the pending rows; nulls is their
	// null bitmap (bit row*sensors+sensor set where the cell is empty),
	// nil while the chunk has none, and missing the bits set.
	rows     []int64
	nulls    [][]byte
	missing  []int64
	times    []deviceTimes // by device position: every row's time, for duplicates
	buffered int
	steps    []int64 // a sample of the gaps between a device's rows
}

// Create starts a dataset in dir (made if missing; an existing dataset
// there is replaced). m gives the source, format, sensors and groups, and
// any devices known in advance; AddDevice adds others.
func Create(dir string, m Manifest) (*Writer, error) {
	if len(m.Sensors) == 0 {
		return nil, fmt.Errorf("dataset %s: no sensors", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	os.Remove(filepath.Join(dir, manifestName)) // a half-written dataset is never mistaken for one
	f, err := os.Create(filepath.Join(dir, dataName))
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	m.Version = FormatVersion
	m.MinTime, m.MaxTime = math.MaxInt64, math.MinInt64
	w := &Writer{dir: dir, f: f, m: m}
	devices := m.Devices
	w.m.Devices = nil
	for _, d := range devices {
		w.AddDevice(d)
	}
	return w, nil
}

// AddDevice adds a device and returns its position; its Index, when 0 for
// any but the first, is its position.
func (w *Writer) AddDevice(d Device) int {
	p := len(w.m.Devices)
	if p > 0 && d.Index == 0 {
		d.Index = w.m.Devices[0].Index + p
	}
	d.Rows, d.Chunks, d.Duplicates = 0, nil, nil
	w.m.Devices = append(w.m.Devices, d)
	w.pending = append(w.pending, nil)
	w.rows = append(w.rows, 0)
	w.nulls = append(w.nulls, nil)
	w.missing = append(w.missing, 0)
	w.times = append(w.times, deviceTimes{})
	return p
}

// Devices is the number of devices so far.
func (w *Writer) Devices() int { return len(w.m.Devices) }

// Write appends the rows of b to the device at position p.
func (w *Writer) Write(p int, b *ts.Batch) error {
	if len(b.Columns) != len(w.m.Sensors) {
		return fmt.Errorf("dataset %s: a batch of %d columns for %d sensors", w.dir, len(b.Columns), len(w.m.Sensors))
	}
	d := &w.m.Devices[p]
	for i, t := range b.Times {
		dt := &w.times[p]
		if dt.n > 0 && len(w.steps) < stepSamples {
			if gap := t - dt.last; gap > 0 {
				w.steps = append(w.steps, gap)
			}
		}
		dt.add(t)
		w.m.MinTime, w.m.MaxTime = min(w.m.MinTime, t), max(w.m.MaxTime, t)
		before := len(w.pending[p])
		w.pending[p] = appendRow(w.pending[p], b, i, t)
		w.buffered += len(w.pending[p]) - before
		if b.Nulls > 0 {
			w.markNulls(p, b, i)
		}
		w.rows[p]++
		d.Rows++
		w.m.Rows++
		if len(w.pending[p]) >= chunkBytes {
			if err := w.flush(p); err != nil {
				return err
			}
		}
	}
	if w.buffered >= bufferBytes {
		return w.flushAll()
	}
	return nil
}

// markNulls records the empty cells of row i of b, the device's next
// pending row.
func (w *Writer) markNulls(p int, b *ts.Batch, i int) {
	n := len(b.Columns)
	for s := range b.Columns {
		if b.Columns[s].Present(i) {
			continue
		}
		bit := int(w.rows[p])*n + s
		if need := bit/8 + 1; len(w.nulls[p]) < need {
			w.nulls[p] = append(w.nulls[p], make([]byte, need-len(w.nulls[p]))...)
		}
		w.nulls[p][bit/8] |= 1 << (bit % 8)
		w.missing[p]++
		w.m.Missing++
	}
}

// nullBytes is the size of the null bitmap of rows rows of n sensors.
func nullBytes(rows int64, n int) int64 { return (rows*int64(n) + 7) / 8 }

// appendRow encodes row i of b (at time t).
func appendRow(dst []byte, b *ts.Batch, i int, t int64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(t))
	for s := range b.Columns {
		c := &b.Columns[s]
		switch c.Type {
		case ts.Boolean:
			v := byte(0)
			if c.Bools[i] {
				v = 1
			}
			dst = append(dst, v)
		case ts.Int32:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(c.Int32s[i]))
		case ts.Int64:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(c.Int64s[i]))
		case ts.Float:
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(c.Floats[i]))
		case ts.Double:
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(c.Doubles[i]))
		default:
			dst = binary.AppendUvarint(dst, uint64(len(c.Texts[i])))
			dst = append(dst, c.Texts[i]...)
		}
	}
	return dst
}

// flush writes the device's pending rows as one chunk.
func (w *Writer) flush(p int) error {
	buf := w.pending[p]
	if len(buf) == 0 {
		return nil
	}
	d := &w.m.Devices[p]
	if _, err := w.f.Write(buf); err != nil {
		return fmt.Errorf("dataset %s: write: %w", w.dir, err)
	}
	ch := Chunk{Offset: w.offset, Bytes: int64(len(buf)), Rows: w.rows[p], Missing: w.missing[p]}
	w.offset += int64(len(buf))
	if ch.Missing > 0 {
		// The chunk's null bitmap follows its rows; a chunk without
		// empty cells has none, as every dense dataset's.
		bm := w.nulls[p]
		bm = append(bm, make([]byte, nullBytes(ch.Rows, len(w.m.Sensors))-int64(len(bm)))...)
		if _, err := w.f.Write(bm); err != nil {
			return fmt.Errorf("dataset %s: write: %w", w.dir, err)
		}
		w.offset += int64(len(bm))
	}
	d.Chunks = append(d.Chunks, ch)
	w.buffered -= len(buf)
	// Released, not kept for reuse: with many devices, each keeping its
	// buffer would hold about the whole dataset.
	w.pending[p], w.nulls[p], w.rows[p], w.missing[p] = nil, nil, 0, 0
	return nil
}

func (w *Writer) flushAll() error {
	for p := range w.pending {
		if err := w.flush(p); err != nil {
			return err
		}
	}
	return nil
}

// Close writes what is pending, finds the duplicates and the typical step,
// and writes the manifest; the dataset is complete only then.
func (w *Writer) Close() (*Manifest, error) {
	if err := w.flushAll(); err != nil {
		w.f.Close()
		return nil, err
	}
	if err := w.f.Close(); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	if err := w.findDuplicates(); err != nil {
		return nil, err
	}
	if w.m.Rows == 0 {
		w.m.MinTime, w.m.MaxTime = 0, 0
	}
	w.m.Step = median(w.steps)
	if w.m.Missing > 0 {
		w.m.Version = SparseFormatVersion
	}
	b, err := json.MarshalIndent(&w.m, "", " ")
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, manifestName), b, 0o644); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	return &w.m, nil
}

// deviceTimes is what the writer keeps of a device's row times: their
// number, the last, and whether each was after the one before. Nothing
// grows with the rows: the times of a device out of order are read back
// from data.bin to find its duplicates (findDuplicates).
type deviceTimes struct {
	n        int64
	last     int64
	unsorted bool // some time was not after the one before
}

func (dt *deviceTimes) add(t int64) {
	if dt.n > 0 && t <= dt.last {
		dt.unsorted = true
	}
	dt.last = t
	dt.n++
}

// findDuplicates sets the duplicate rows of every device whose times were
// not strictly increasing (those of the others are none), reading its
// times back one device at a time.
func (w *Writer) findDuplicates() error {
	var ds *Dataset
	for p := range w.m.Devices {
		d := &w.m.Devices[p]
		if !w.times[p].unsorted {
			continue
		}
		if ds == nil {
			f, err := os.Open(filepath.Join(w.dir, dataName))
			if err != nil {
				return fmt.Errorf("dataset %s: %w", w.dir, err)
			}
			defer f.Close()
			ds = &Dataset{Manifest: Manifest{Sensors: w.m.Sensors, Devices: w.m.Devices}, Dir: w.dir, data: f}
			ds.rowSize, ds.fixed = rowSize(ds.Sensors)
		}
		sparse := w.m.Missing > 0
		times, present, err := ds.times(p, sparse)
		if err != nil {
			return err
		}
		d.Duplicates = duplicates(times)
		w.m.DuplicateRows += int64(len(d.Duplicates))
		if sparse {
			d.DuplicateValues = duplicateValues(times, present, len(w.m.Sensors), d.Duplicates)
			for _, n := range d.DuplicateValues {
				w.m.DuplicatePoints += int64(n)
			}
		}
	}
	return nil
}

// times reads the row times of the device at position p and, with
// sparse, which cells have a value (bit row*sensors+sensor set).
func (ds *Dataset) times(p int, sparse bool) ([]int64, []byte, error) {
	const step = 4096
	d := &ds.Devices[p]
	dev := &ts.Device{Index: d.Index, Name: d.Name}
	r, b := ds.NewReader(step, false), ds.NewBatch(step)
	out := make([]int64, 0, d.Rows)
	var present []byte
	if sparse {
		present = make([]byte, nullBytes(d.Rows, len(ds.Sensors)))
	}
	for n := int64(0); n*step < d.Rows; n++ {
		if err := r.Fill(b, dev, n); err != nil {
			return nil, nil, err
		}
		for i := range b.Times {
			if !sparse {
				break
			}
			for c := range b.Columns {
				if b.Columns[c].Present(i) {
					bit := (int64(len(out)+i))*int64(len(b.Columns)) + int64(c)
					present[bit/8] |= 1 << (bit % 8)
				}
			}
		}
		out = append(out, b.Times...)
	}
	return out, present, nil
}

// duplicateValues counts, for each duplicate row (dups, in increasing
// order), its values whose sensor an earlier row of the same time had a
// value of: the points it repeats. A value where the earlier rows had
// none is a new point.
func duplicateValues(times []int64, present []byte, sensors int, dups []int64) []int32 {
	has := func(row int64, c int) bool {
		bit := row*int64(sensors) + int64(c)
		return present[bit/8]&(1<<(bit%8)) != 0
	}
	order := make([]int64, len(times))
	for i := range order {
		order[i] = int64(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return times[order[a]] < times[order[b]] })
	counts := make(map[int64]int32, len(dups))
	seen := make([]bool, sensors)
	for i, row := range order {
		if i == 0 || times[row] != times[order[i-1]] {
			clear(seen)
		} else {
			n := int32(0)
			for c := range seen {
				if seen[c] && has(row, c) {
					n++
				}
			}
			counts[row] = n
		}
		for c := range seen {
			seen[c] = seen[c] || has(row, c)
		}
	}
	out := make([]int32, len(dups))
	for j, row := range dups {
		out[j] = counts[row]
	}
	return out
}

// duplicates returns the positions of the times that an earlier position
// already had, in increasing order.
func duplicates(times []int64) []int64 {
	order := make([]int, len(times))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return times[order[a]] < times[order[b]] })
	var out []int64
	for i := 1; i < len(order); i++ {
		if times[order[i]] == times[order[i-1]] {
			out = append(out, int64(order[i])) // stable: the later one
		}
	}
	slices.Sort(out)
	return out
}

func median(xs []int64) int64 {
	if len(xs) == 0 {
		return 1
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
