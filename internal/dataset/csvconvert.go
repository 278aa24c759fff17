package dataset

import (
	"fmt"
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
	o.describe(func(in *Inspection) { in.fromCSV(scan) })
	if p := scan.keyProblem(); p != "" {
		// As for rows on one device and time: an inspection says it and
		// reads on; a run stops before anything is written.
		if o.inspect == nil {
			return nil, &InputError{File: files[0], Msg: p}
		}
		o.inspect.problem = p
	}
	t, err := newTable(dir, strings.Join(files, ","), "csv-"+scan.layouts[0].kind, scan.sensors, o)
	if err != nil {
		return nil, err
	}
	t.w.m.Notes = append(t.w.m.Notes, scan.notes()...)
	im := newSortImport(dir, files, scan.sensors, scan.layouts[0].kind == layoutLong, o)
	im.scan, im.markers = scan, scan.markers
	// An inferred number type read every value of its column in the first
	// pass: the second need not parse them again before the sort.
	im.trusted = make([]bool, len(scan.sensors))
	for k, sn := range scan.sensors {
		_, declared := o.Types[sn.Name]
		im.trusted[k] = !declared && sn.Type != ts.Boolean && sn.Type != ts.Text
	}
	return im.fill(t, im.gather)
}

// absent stands for a missing value among a record's values: the row is
// written with the cell empty (ts.Column.Null).
const absent = "\x00"

// sortImport gathers the records of a file of any text format into a
// sort by device, time and input position, then writes them as rows:
// rows as they are (wide), or points of one device and time pivoted into
// rows (long, and formats whose lines are series or partial rows).
type sortImport struct {
	files   []string
	sensors []ts.Sensor
	long    bool
	o       ImportOptions
	scan    *csvScan            // CSV: what the first pass learnt
	markers *markerSet          // CSV: the missing-cell markers
	sorter  *rowSorter          // every record
	repeats *rowSorter          // rows repeating an earlier row's device and time
	tags    map[string][]ts.Tag // by device name, when its columns make tags
	groups  map[string]int      // by device name, when the format names groups
	check   *ts.Batch           // a scratch column per sensor, to check values
	row     longRow             // long: the row being pivoted
	last    sortRecord          // the last row written: its device, time and rank
	wrote   bool
	current string // the device whose rows the table holds unflushed
	names   map[string]string
	trusted []bool // by sensor: its values need no check before the sort
}

func newSortImport(dir string, files []string, sensors []ts.Sensor, long bool, o ImportOptions) *sortImport {
	return &sortImport{files: files, sensors: sensors, long: long, o: o, sorter: newRowSorter(dir), repeats: newRowSorter(dir),
		tags: map[string][]ts.Tag{}, check: newCheckBatch(sensors), names: map[string]string{}}
}

func (im *sortImport) cleanup() {
	im.sorter.cleanup()
	im.repeats.cleanup()
}

// fill writes the files into t through the sort: gather reads each file
// (given its position and name) into the sort, and once the last one is
// in, the sorted rows go into t. The sort's spill files are removed
// whatever happens.
func (im *sortImport) fill(t *table, gather func(file int, name string) error) (*Manifest, error) {
	defer im.cleanup()
	return t.fill(im.files, func(i int, name string) error {
		if err := gather(i, name); err != nil {
			return err
		}
		if i < len(im.files)-1 {
			return nil
		}
		return im.drain(t)
	})
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
func (im *sortImport) checkValue(i int, text string) error {
	if im.trusted != nil && im.trusted[i] {
		return nil
	}
	c := &im.check.Columns[i]
	if err := appendValue(c, text); err != nil {
		return err
	}
	dropLast(c)
	return nil
}

// gather reads one file's records into the sorter.
func (im *sortImport) gather(file int, name string) error {
	l := im.scan.layouts[file]
	c, err := openCSV(name, l.comma)
	if err != nil {
		return err
	}
	defer c.close()
	for range 1 + l.head.n { // the names, and the rows of units under them
		if _, _, err := c.next(); err != nil {
			return err
		}
	}
	return c.eachRecord(func(rec []string, line int64) error {
		r, err := im.record(c, l, rec, line)
		if err != nil {
			return err
		}
		r.file = file
		return im.sorter.add(r)
	})
}

// record makes the sort record of a CSV record: its device and time
// parsed, its values checked and kept as text.
func (im *sortImport) record(c *csvFile, l *csvLayout, rec []string, line int64) (sortRecord, error) {
	device, err := l.deviceOf(c, rec, line)
	if err != nil {
		return sortRecord{}, err
	}
	if _, ok := im.tags[device]; !ok && l.tags {
		im.tags[device] = l.tagsOf(rec)
	}
	var (
		tm     int64
		cut    bool
		sensor = -1
	)
	if l.kind == layoutLong {
		sensor = im.scan.index[strings.TrimSpace(rec[l.sensor])]
	}
	switch {
	case l.clock != nil && l.kind == layoutLong:
		tm = l.clock.at(device + "\x00" + im.sensors[sensor].Name) // a series is a device's sensor
	case l.clock != nil:
		tm = l.clock.at(device)
	default:
		if tm, cut, err = l.tp.parse(l.timeText(rec)); err != nil {
			return sortRecord{}, inputErr(c, line, l.timeColumn(), err.Error())
		}
	}
	// Copies: the reader's fields share the whole line's memory.
	r := sortRecord{device: im.intern(device), time: tm, cut: cut, line: line, sensor: sensor}
	if l.kind == layoutLong {
		v, ok := im.cell(l, r.sensor, rec[l.value])
		if !ok {
			r.values = []string{absent}
			return r, nil
		}
		if err := im.checkValue(r.sensor, v); err != nil {
			return r, inputErr(c, line, l.header[l.value], fmt.Sprintf("sensor %s: %v", im.sensors[r.sensor].Name, err))
		}
		r.values = []string{strings.Clone(v)}
		return r, nil
	}
	r.values = make([]string, len(im.sensors))
	for k := range r.values {
		r.values[k] = absent // a sensor this file has no column of
	}
	for i, col := range l.sensorCols {
		k := im.scan.index[l.sensors[i]]
		v, ok := im.cell(l, k, rec[col])
		if !ok {
			continue
		}
		if err := im.checkValue(k, v); err != nil {
			return r, inputErr(c, line, l.header[col], err.Error())
		}
		r.values[k] = v
	}
	cloneValues(r.values)
	return r, nil
}

// cell is a CSV cell as sensor k's value: false when it is missing; a
// number's decimal comma read as a point where the file writes them.
func (im *sortImport) cell(l *csvLayout, k int, v string) (string, bool) {
	ty := im.sensors[k].Type
	if im.markers.missing(v, ty) {
		return "", false
	}
	if l.decimalComma && ty != ts.Text && ty != ts.Boolean {
		v, _ = decimalPoint(v)
	}
	return v, true
}

// cloneValues copies a row's values into one new string: one allocation
// a row rather than one a value.
func cloneValues(values []string) {
	n := 0
	for _, v := range values {
		n += len(v)
	}
	var b strings.Builder
	b.Grow(n)
	for _, v := range values {
		b.WriteString(v)
	}
	all := b.String()
	for i, v := range values {
		values[i], all = all[:len(v)], all[len(v):] // absent stays equal to absent
	}
}

// intern returns the one copy of a device name: the sort's records share
// it rather than each holding its own.
func (im *sortImport) intern(device string) string {
	if d, ok := im.names[device]; ok {
		return d
	}
	d := strings.Clone(device)
	im.names[d] = d
	return d
}

// drain writes the sorted records into the table, then the repeats.
func (im *sortImport) drain(t *table) error {
	if !im.long {
		if err := im.sorter.each(func(r *sortRecord) error { return im.put(t, r) }); err != nil {
			return err
		}
	} else {
		im.row = newLongRow(len(im.sensors))
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
func (im *sortImport) put(t *table, r *sortRecord) error {
	rank := 0
	if im.wrote && r.device == im.last.device && r.time == im.last.time {
		rank = im.last.rank + 1
		if t.w.m.DuplicateExample == "" {
			t.w.m.DuplicateExample = fmt.Sprintf("%s and %s (device %q, time %s)",
				im.where(&im.last), im.where(r), r.device, fmtMillis(r.time))
		}
	} else {
		im.last.file, im.last.line = r.file, r.line
	}
	im.last.device, im.last.time, im.last.rank, im.wrote = r.device, r.time, rank, true
	if rank == 0 {
		return im.write(t, r)
	}
	if im.o.Duplicates == "first" {
		t.w.m.DroppedDuplicates++
		return nil
	}
	repeat := *r
	repeat.rank, repeat.values = rank, slices.Clone(r.values)
	return im.repeats.add(repeat)
}

// write appends a row, its values in the dataset's sensor order. The
// rows come device by device: the last device's rows go on to the writer
// when the next device starts, so that memory holds one device's.
func (im *sortImport) write(t *table, r *sortRecord) error {
	if r.device != im.current && im.current != "" {
		if p, ok := t.devices[im.current]; ok {
			if err := t.release(p); err != nil {
				return err
			}
		}
	}
	im.current = r.device
	p, b := t.row(r.device)
	t.tag(p, im.tags[r.device])
	if im.groups != nil {
		t.w.m.Devices[p].Group = im.groups[r.device]
	}
	for i, v := range r.values {
		if v == absent {
			markAbsent(b, i)
			v = zeroText(b.Columns[i].Type) // the empty cell's zero
		}
		if err := appendValue(&b.Columns[i], v); err != nil {
			// Checked when read: the file changed since.
			undoRow(b, i)
			return fmt.Errorf("%s:%d: %w (was the file changed during the import?)", im.files[r.file], r.line, err)
		}
	}
	b.Times = append(b.Times, r.time)
	if r.cut {
		t.subMillis++
	}
	return t.done(p)
}

// where names a record's place: file:line.
func (im *sortImport) where(r *sortRecord) string {
	return fmt.Sprintf("%s:%d", im.files[r.file], r.line)
}

// zeroText is a type's zero value as text.
func zeroText(ty ts.DataType) string {
	switch ty {
	case ts.Boolean:
		return "false"
	case ts.Text:
		return ""
	}
	return "0"
}

// longRow is the row a long file's points of one device and time make.
type longRow struct {
	sortRecord // the row: device, time, the first point's file and line, values
	have       []bool
	collected  int  // sensors with a value
	started    bool // a record came (an inspection's may be all absent)
}

func newLongRow(sensors int) longRow {
	return longRow{sortRecord: sortRecord{sensor: -1, values: make([]string, sensors)}, have: make([]bool, sensors)}
}

// longPoint adds a record's values to the row being pivoted: a point
// (sensor >= 0: one value) or a partial row (sensor -1: a value or absent
// per sensor). Another device or time, or a sensor the row has already (a
// repeated row), starts the next row.
func (im *sortImport) longPoint(t *table, r *sortRecord) error {
	w := &im.row
	if w.started {
		next := r.device != w.device || r.time != w.time
		for s := range im.present(r) {
			next = next || w.have[s]
		}
		if next {
			if err := im.emit(t); err != nil {
				return err
			}
		}
	}
	if !w.started {
		w.device, w.time, w.cut, w.file, w.line, w.started = r.device, r.time, r.cut, r.file, r.line, true
	}
	for s, v := range im.present(r) {
		w.values[s], w.have[s] = v, true
		w.collected++
	}
	return nil
}

// present yields a record's sensors and values, absent ones left out.
func (im *sortImport) present(r *sortRecord) func(func(int, string) bool) {
	return func(yield func(int, string) bool) {
		if r.sensor >= 0 {
			if r.values[0] != absent {
				yield(r.sensor, r.values[0])
			}
			return
		}
		for s, v := range r.values {
			if v != absent && !yield(s, v) {
				return
			}
		}
	}
}

// emit writes the pivoted row; the sensors it lacks (no line, field or
// series gave a value at its time) are its empty cells.
func (im *sortImport) emit(t *table) error {
	w := &im.row
	if !w.started {
		return nil
	}
	if w.collected < len(w.have) {
		for s, ok := range w.have {
			if !ok {
				w.values[s] = absent
			}
		}
	}
	clear(w.have)
	w.collected, w.started = 0, false
	return im.put(t, &w.sortRecord)
}

func fmtMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}
