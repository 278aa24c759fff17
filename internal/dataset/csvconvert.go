package dataset

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// importCSV reads CSV files in two passes: the first finds the layout,
// the sensors, their types and the time format; the second gathers every
// record, sorted by device, time and input position (sorter.go), into the
// table. A file sorted by series, sorted by time or shuffled so gives the
// same dataset, and a long file's points of one row need not be adjacent.
func importCSV(files []string, dir string, o ImportOptions) (*Manifest, error) {
	scan, err := scanCSV(files, o)
	if err != nil {
		return nil, err
	}
	t, err := newTable(dir, strings.Join(files, ","), "csv-"+scan.layouts[0].kind, scan.sensors, o)
	if err != nil {
		return nil, err
	}
	im := &csvImport{files: files, scan: scan, sorter: newRowSorter(dir), tags: map[string][]ts.Tag{}}
	defer im.sorter.cleanup()
	return t.fill(files, func(i int, name string) error {
		if err := im.gather(i, name); err != nil {
			return err
		}
		if i < len(files)-1 {
			return nil
		}
		return im.drain(t)
	})
}

// csvImport is the second pass's state.
type csvImport struct {
	files  []string
	scan   *csvScan
	sorter *rowSorter
	tags   map[string][]ts.Tag // by device name, when its columns make tags
	row    longRow             // long: the row being pivoted
}

// gather reads one file's records into the sorter: their device and time
// parsed, their values kept as text and checked to be there.
func (im *csvImport) gather(file int, name string) error {
	c, err := openCSV(name)
	if err != nil {
		return err
	}
	defer c.close()
	if _, _, err := c.next(); err != nil { // the header
		return err
	}
	l := im.scan.layouts[file]
	for {
		rec, line, err := c.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		r, err := im.record(c, l, rec, line)
		if err != nil {
			return err
		}
		r.file = file
		if err := im.sorter.add(r); err != nil {
			return err
		}
	}
}

// record makes the sort record of a CSV record.
func (im *csvImport) record(c *csvFile, l *csvLayout, rec []string, line int64) (sortRecord, error) {
	device, err := l.deviceOf(c, rec, line)
	if err != nil {
		return sortRecord{}, err
	}
	if _, ok := im.tags[device]; !ok && l.tags {
		im.tags[device] = l.tagsOf(rec)
	}
	tm, cut, err := l.tp.parse(rec[l.time])
	if err != nil {
		return sortRecord{}, inputErr(c, line, l.header[l.time], err.Error())
	}
	// Clones: the reader's fields share the whole line's memory.
	r := sortRecord{device: strings.Clone(device), time: tm, cut: cut, line: line, sensor: -1}
	if l.kind == layoutLong {
		if c.missing(l.value) {
			return r, inputErr(c, line, l.header[l.value], "empty value")
		}
		r.sensor = im.scan.index[strings.TrimSpace(rec[l.sensor])]
		r.values = []string{strings.Clone(rec[l.value])}
		return r, nil
	}
	r.values = make([]string, len(l.sensorCols))
	for i, col := range l.sensorCols {
		if c.missing(col) {
			return r, inputErr(c, line, l.header[col], "empty value: tsbench replays complete rows (a value for every sensor at every time)")
		}
		r.values[i] = strings.Clone(rec[col])
	}
	return r, nil
}

// errAt is an input error at a record's line.
func (im *csvImport) errAt(file int, line int64, column, msg string) *InputError {
	return &InputError{File: im.files[file], Line: line, Unit: "line", Column: column, Msg: msg}
}

// drain writes the sorted records into the table.
func (im *csvImport) drain(t *table) error {
	if im.scan.layouts[0].kind == layoutWide {
		return im.sorter.each(func(r *sortRecord) error { return im.wideRow(t, r) })
	}
	im.row = newLongRow(len(im.scan.sensors))
	if err := im.sorter.each(func(r *sortRecord) error { return im.longPoint(t, r) }); err != nil {
		return err
	}
	return im.emit(t)
}

// wideRow writes the row of a wide record.
func (im *csvImport) wideRow(t *table, r *sortRecord) error {
	l := im.scan.layouts[r.file]
	p, b := t.row(r.device)
	t.tag(p, im.tags[r.device])
	for i, v := range r.values {
		if err := appendValue(&b.Columns[im.scan.index[l.sensors[i]]], v); err != nil {
			undoRow(b, i)
			return im.errAt(r.file, r.line, l.header[l.sensorCols[i]], err.Error())
		}
	}
	b.Times = append(b.Times, r.time)
	if r.cut {
		t.subMillis++
	}
	return t.done(p)
}

// longRow is the row a long file's points of one device and time make.
type longRow struct {
	device     string
	time       int64
	cut        bool
	file       int
	line       int64 // the first point's
	values     []string
	files      []int // where each value came from, for errors
	lines      []int64
	have       []bool
	collected  int
	sensorsLen int
}

func newLongRow(sensors int) longRow {
	return longRow{values: make([]string, sensors), files: make([]int, sensors), lines: make([]int64, sensors),
		have: make([]bool, sensors), sensorsLen: sensors}
}

// longPoint adds a point to the row being pivoted; another device or
// time, or a sensor the row has already (a duplicate row), starts the
// next row.
func (im *csvImport) longPoint(t *table, r *sortRecord) error {
	w := &im.row
	if w.collected > 0 && (r.device != w.device || r.time != w.time || w.have[r.sensor]) {
		if err := im.emit(t); err != nil {
			return err
		}
	}
	if w.collected == 0 {
		w.device, w.time, w.cut, w.file, w.line = r.device, r.time, r.cut, r.file, r.line
	}
	w.values[r.sensor], w.files[r.sensor], w.lines[r.sensor], w.have[r.sensor] = r.values[0], r.file, r.line, true
	w.collected++
	return nil
}

// emit writes the pivoted row, which must have every sensor.
func (im *csvImport) emit(t *table) error {
	w := &im.row
	if w.collected == 0 {
		return nil
	}
	if w.collected < w.sensorsLen {
		return im.errAt(w.file, w.line, "", fmt.Sprintf("device %s at %s lacks sensor(s) %s: "+
			"tsbench replays complete rows (a value for every sensor at every time)", w.device, fmtMillis(w.time), im.lacking()))
	}
	p, b := t.row(w.device)
	t.tag(p, im.tags[w.device])
	for i, v := range w.values {
		if err := appendValue(&b.Columns[i], v); err != nil {
			undoRow(b, i)
			l := im.scan.layouts[w.files[i]]
			return im.errAt(w.files[i], w.lines[i], l.header[l.value], fmt.Sprintf("sensor %s: %v", im.scan.sensors[i].Name, err))
		}
	}
	b.Times = append(b.Times, w.time)
	if w.cut {
		t.subMillis++
	}
	clear(w.have)
	w.collected = 0
	return t.done(p)
}

// lacking names the sensors the pivoted row has no value of.
func (im *csvImport) lacking() string {
	var out []string
	for i, ok := range im.row.have {
		if !ok {
			out = append(out, im.scan.sensors[i].Name)
		}
	}
	return strings.Join(out, ", ")
}

func fmtMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}
