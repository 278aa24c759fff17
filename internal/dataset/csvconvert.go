package dataset

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// importCSV reads CSV files in two passes: the first finds the layout,
// the sensors, their types and the time format; the second gathers every
// record, checked, into a sort by device, time and input position
// (sorter.go), and writes the sorted rows into the table. A file sorted by
// series, sorted by time or shuffled so gives the same dataset, and a long
// file's points of one row need not be adjacent.
//
// A row that repeats an earlier row's device and time goes after all of
// the device's first rows (the repeats in time order, then the repeats of
// repeats): a batch then never holds one point twice, which upserts such
// as PostgreSQL's refuse, and the file's later value is still written
// last, as it would be in file order.
func importCSV(files []string, dir string, o ImportOptions) (*Manifest, error) {
	scan, err := scanCSV(files, o)
	if err != nil {
		return nil, err
	}
	t, err := newTable(dir, strings.Join(files, ","), "csv-"+scan.layouts[0].kind, scan.sensors, o)
	if err != nil {
		return nil, err
	}
	im := &csvImport{files: files, scan: scan, sorter: newRowSorter(dir), repeats: newRowSorter(dir),
		tags: map[string][]ts.Tag{}, check: newCheckBatch(scan.sensors)}
	defer im.sorter.cleanup()
	defer im.repeats.cleanup()
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
	files   []string
	scan    *csvScan
	sorter  *rowSorter          // every record
	repeats *rowSorter          // rows repeating an earlier row's device and time
	tags    map[string][]ts.Tag // by device name, when its columns make tags
	check   *ts.Batch           // a scratch column per sensor, to check values
	row     longRow             // long: the row being pivoted
	last    sortRecord          // the last row written: its device, time and rank
	wrote   bool
}

func newCheckBatch(sensors []ts.Sensor) *ts.Batch {
	b := &ts.Batch{Columns: make([]ts.Column, len(sensors))}
	for i, s := range sensors {
		b.Columns[i].Type = s.Type
	}
	return b
}

// checkValue reports whether text is a value of sensor i, before the sort
// takes the value away from its line.
func (im *csvImport) checkValue(i int, text string) error {
	c := &im.check.Columns[i]
	if err := appendValue(c, text); err != nil {
		return err
	}
	dropLast(c)
	return nil
}

// gather reads one file's records into the sorter.
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

// record makes the sort record of a CSV record: its device and time
// parsed, its values checked and kept as text.
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
		r.sensor = im.scan.index[strings.TrimSpace(rec[l.sensor])]
		if c.missing(l.value) {
			return r, inputErr(c, line, l.header[l.value], "empty value")
		}
		if err := im.checkValue(r.sensor, rec[l.value]); err != nil {
			return r, inputErr(c, line, l.header[l.value], fmt.Sprintf("sensor %s: %v", im.scan.sensors[r.sensor].Name, err))
		}
		r.values = []string{strings.Clone(rec[l.value])}
		return r, nil
	}
	r.values = make([]string, len(im.scan.sensors))
	for i, col := range l.sensorCols {
		if c.missing(col) {
			return r, inputErr(c, line, l.header[col], "empty value: tsbench replays complete rows (a value for every sensor at every time)")
		}
		k := im.scan.index[l.sensors[i]]
		if err := im.checkValue(k, rec[col]); err != nil {
			return r, inputErr(c, line, l.header[col], err.Error())
		}
		r.values[k] = strings.Clone(rec[col])
	}
	return r, nil
}

// drain writes the sorted records into the table, then the repeats.
func (im *csvImport) drain(t *table) error {
	if im.scan.layouts[0].kind == layoutWide {
		if err := im.sorter.each(func(r *sortRecord) error { return im.put(t, r) }); err != nil {
			return err
		}
	} else {
		im.row = newLongRow(len(im.scan.sensors))
		if err := im.sorter.each(func(r *sortRecord) error { return im.longPoint(t, r) }); err != nil {
			return err
		}
		if err := im.emit(t); err != nil {
			return err
		}
	}
	return im.repeats.each(func(r *sortRecord) error { return im.write(t, r) })
}

// put writes a row, or sets it aside when it repeats the last row's
// device and time.
func (im *csvImport) put(t *table, r *sortRecord) error {
	rank := 0
	if im.wrote && r.device == im.last.device && r.time == im.last.time {
		rank = im.last.rank + 1
	}
	im.last.device, im.last.time, im.last.rank, im.wrote = r.device, r.time, rank, true
	if rank == 0 {
		return im.write(t, r)
	}
	repeat := *r
	repeat.rank, repeat.values = rank, slices.Clone(r.values)
	return im.repeats.add(repeat)
}

// write appends a row, its values in the dataset's sensor order.
func (im *csvImport) write(t *table, r *sortRecord) error {
	p, b := t.row(r.device)
	t.tag(p, im.tags[r.device])
	for i, v := range r.values {
		if err := appendValue(&b.Columns[i], v); err != nil {
			// Checked when read: the file changed since.
			undoRow(b, i)
			return fmt.Errorf("%s:%d: %v (was the file changed during the import?)", im.files[r.file], r.line, err)
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
	sortRecord // the row: device, time, the first point's file and line, values
	have       []bool
	collected  int
}

func newLongRow(sensors int) longRow {
	return longRow{sortRecord: sortRecord{sensor: -1, values: make([]string, sensors)}, have: make([]bool, sensors)}
}

// longPoint adds a point to the row being pivoted; another device or
// time, or a sensor the row has already (a repeated row), starts the next
// row.
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
	w.values[r.sensor], w.have[r.sensor] = r.values[0], true
	w.collected++
	return nil
}

// emit writes the pivoted row, which must have every sensor.
func (im *csvImport) emit(t *table) error {
	w := &im.row
	if w.collected == 0 {
		return nil
	}
	if w.collected < len(w.have) {
		return &InputError{File: im.files[w.file], Line: w.line, Unit: "line", Msg: fmt.Sprintf("device %s at %d ms lacks sensor(s) %s (%s): "+
			"tsbench replays complete rows (a value for every sensor at every time)", w.device, w.time, im.lacking(), fmtMillis(w.time))}
	}
	clear(w.have)
	w.collected = 0
	return im.put(t, &w.sortRecord)
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
