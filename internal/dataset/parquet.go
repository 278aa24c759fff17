//go:build parquet

package dataset

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tsbench/tsbench/internal/ts"
)

// importParquet reads Parquet files in the layouts CSV has (csv.go: long or
// wide, columns found by the same names), with the file's own types: each
// value goes straight from the Parquet value to its sensor's column, no
// text in between. A file is streamed row group by row group, parquetRows
// rows at a time; a long file's sensor column is read once before (that
// column alone) to learn the sensors. Sensors take their column's type (a
// long file's value column's) unless DATA_TYPES declares another; a
// TIMESTAMP time column keeps its unit, plain integers follow
// DATA_TIME_UNIT. Several files must share one schema.
func importParquet(files []string, dir string, o ImportOptions) (*Manifest, error) {
	im, err := newParquetImport(files, o)
	if err != nil {
		return nil, err
	}
	o.describe(func(in *Inspection) {
		l := im.layout
		in.Time.Column, in.Time.Format = l.timeColumn(), im.describeTime()
		for _, i := range l.devices {
			in.DeviceColumns = append(in.DeviceColumns, l.header[i])
		}
		for _, sn := range im.sensors {
			col := sn.Name
			if l.kind == layoutLong {
				col = l.header[l.sensor] + "=" + sn.Name + ", " + l.header[l.value]
			}
			in.Sensors = append(in.Sensors, SensorFound{Name: sn.Name, Column: col})
		}
	})
	t, err := newTable(dir, strings.Join(files, ","), "parquet-"+im.layout.kind, im.sensors, o)
	if err != nil {
		return nil, err
	}
	return t.fill(files, func(_ int, name string) error { return im.convert(t, name) })
}

// parquetRows is how many rows of a Parquet file are read at a time.
const parquetRows = 1024

// pqSource is how a column's values are read: its physical type and the
// logical type that changes their meaning.
type pqSource int

const (
	pqBool      pqSource = iota
	pqInt32              // INT32, signed (INT(8|16|32, true), TIME, or none)
	pqUint32             // INT32 as INT(8|16|32, false)
	pqInt64              // INT64, signed
	pqUint64             // INT64 as INT(64, false)
	pqFloat              // FLOAT
	pqDouble             // DOUBLE
	pqText               // BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY: STRING, ENUM, JSON or none
	pqUUID               // FIXED_LEN_BYTE_ARRAY(16) as UUID
	pqDecimal            // DECIMAL in any physical type: an unscaled integer
	pqTimestamp          // INT64 as TIMESTAMP(unit)
	pqDate               // INT32 as DATE: days since the epoch
	pqInt96              // legacy INT96 timestamps: nanoseconds of the day, Julian day
)

// pqColumn is one column of a Parquet file's flat schema.
type pqColumn struct {
	name  string
	leaf  int // the leaf column index of its values
	src   pqSource
	unit  string // pqTimestamp: ms, us or ns
	local bool   // pqTimestamp not adjusted to UTC: a wall-clock time, in DATA_TIMEZONE
	scale int    // pqDecimal
	ofDay bool   // a TIME (of the day): no time column
	// typ is the sensor type its values have unless declared otherwise.
	typ  ts.DataType
	desc string // the Parquet type, for messages
}

// same reports whether two files' columns are read alike.
func (c *pqColumn) same(d *pqColumn) bool {
	return c.name == d.name && c.src == d.src && c.unit == d.unit && c.scale == d.scale && c.ofDay == d.ofDay && c.local == d.local
}

// pqUnread is the error of a column whose type tsbench does not read.
const pqUnread = "its Parquet type %s is not one tsbench reads (BOOLEAN, INT32, INT64, FLOAT, DOUBLE, strings, DECIMAL, DATE, TIMESTAMP and INT96)"

// pqColumnOf reads a schema field's type.
func pqColumnOf(field parquet.Field, leaf int) (pqColumn, error) {
	t := field.Type()
	c := pqColumn{name: field.Name(), leaf: leaf, desc: t.String()}
	var lt format.LogicalTypeValue
	if l := t.LogicalType(); l != nil {
		lt = l.Value
	}
	switch l := lt.(type) {
	case *format.TimestampType:
		if t.Kind() != parquet.Int64 || l.Unit.Value == nil {
			break
		}
		c.src, c.typ, c.local = pqTimestamp, ts.Int64, !l.IsAdjustedToUTC
		err := c.timestampUnit(l.Unit.Value) // before c is returned: it sets c.unit
		return c, err
	case *format.DateType:
		if t.Kind() == parquet.Int32 {
			c.src, c.typ = pqDate, ts.Int32
			return c, nil
		}
	case *format.IntType:
		if !l.IsSigned {
			switch {
			case t.Kind() == parquet.Int32 && l.BitWidth < 32:
				c.src, c.typ = pqUint32, ts.Int32 // UINT8 and UINT16 fit
				return c, nil
			case t.Kind() == parquet.Int32:
				c.src, c.typ = pqUint32, ts.Int64
				return c, nil
			case t.Kind() == parquet.Int64:
				c.src, c.typ = pqUint64, ts.Int64
				return c, nil
			}
		}
	case *format.DecimalType:
		c.src, c.typ, c.scale = pqDecimal, ts.Double, int(l.Scale)
		return c, nil
	case *format.UUIDType:
		c.src, c.typ = pqUUID, ts.Text
		return c, nil
	case *format.TimeType:
		c.ofDay = true // a plain integer below, but no time column
	case *format.StringType, *format.EnumType, *format.JsonType, nil:
		// By the physical type below.
	default:
		return c, fmt.Errorf(pqUnread, c.desc)
	}
	err := c.physical(t.Kind()) // before c is returned: it sets c's source and type
	return c, err
}

// timestampUnit sets a TIMESTAMP column's unit.
func (c *pqColumn) timestampUnit(u format.TimeUnitValue) error {
	switch u.(type) {
	case *format.MilliSeconds:
		c.unit = "ms"
	case *format.MicroSeconds:
		c.unit = "us"
	case *format.NanoSeconds:
		c.unit = "ns"
	default:
		return fmt.Errorf("TIMESTAMP in unit %s: tsbench reads MILLIS, MICROS and NANOS", u)
	}
	return nil
}

// physical sets the column's source and type by its physical type alone:
// for a column whose logical type, if any, does not decide them.
func (c *pqColumn) physical(k parquet.Kind) error {
	switch k {
	case parquet.Boolean:
		c.src, c.typ = pqBool, ts.Boolean
	case parquet.Int32:
		c.src, c.typ = pqInt32, ts.Int32
	case parquet.Int64:
		c.src, c.typ = pqInt64, ts.Int64
	case parquet.Float:
		c.src, c.typ = pqFloat, ts.Float
	case parquet.Double:
		c.src, c.typ = pqDouble, ts.Double
	case parquet.ByteArray, parquet.FixedLenByteArray:
		c.src, c.typ = pqText, ts.Text
	case parquet.Int96:
		c.src, c.typ = pqInt96, ts.Int64
	default:
		return fmt.Errorf(pqUnread, c.desc)
	}
	return nil
}

// pqFile is an open Parquet file and its flat schema.
type pqFile struct {
	name    string
	f       *os.File
	pf      *parquet.File
	columns []pqColumn
	header  []string
}

func openParquet(name string) (*pqFile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, &InputError{File: name, Msg: err.Error()}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &InputError{File: name, Msg: err.Error()}
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		f.Close()
		return nil, &InputError{File: name, Msg: "not a Parquet file: " + err.Error()}
	}
	p := &pqFile{name: name, f: f, pf: pf}
	fail := func(column, msg string) (*pqFile, error) {
		f.Close()
		return nil, &InputError{File: name, Column: column, Msg: msg}
	}
	schema := pf.Schema()
	for _, field := range schema.Fields() {
		if !field.Leaf() {
			return fail(field.Name(), "a nested column: tsbench reads flat tables (one column per time, device, sensor or value)")
		}
		if field.Repeated() {
			return fail(field.Name(), "a repeated column (a list per row): tsbench reads one value per column and row")
		}
		leaf, ok := schema.Lookup(field.Name())
		if !ok {
			return fail(field.Name(), "column not found in the file's schema")
		}
		c, err := pqColumnOf(field, leaf.ColumnIndex)
		if err != nil {
			return fail(field.Name(), err.Error())
		}
		p.columns = append(p.columns, c)
		p.header = append(p.header, c.name)
	}
	if len(p.columns) == 0 {
		return fail("", "no columns")
	}
	return p, nil
}

func (p *pqFile) close() error { return p.f.Close() }

// errAt is an InputError at row (from 1; 0 for none) and column of p.
func (p *pqFile) errAt(row int64, column, msg string) *InputError {
	return &InputError{File: p.name, Line: row, Unit: "row", Column: column, Msg: msg}
}

// pqRows streams a file's rows: row group by row group, parquetRows at a
// time. The values of the current row stay valid until the next call of
// next (Clone keeps one longer).
type pqRows struct {
	p      *pqFile
	group  int
	rows   parquet.Rows
	ended  bool  // rows is read out (closed before the next group opens)
	want   int64 // the group's rows, and those read so far
	got    int64
	buf    []parquet.Row
	n, at  int
	row    int64           // the current row's number in the file, from 1
	values []parquet.Value // the current row's, by column position
	pos    []int           // leaf column index -> column position
}

func (p *pqFile) rows() *pqRows {
	r := &pqRows{p: p, buf: make([]parquet.Row, parquetRows), values: make([]parquet.Value, len(p.columns))}
	r.pos = make([]int, len(p.pf.Schema().Columns()))
	for i := range r.pos {
		r.pos[i] = -1
	}
	for i, c := range p.columns {
		r.pos[c.leaf] = i
	}
	return r
}

// next moves to the next row: false at the end of the file.
func (r *pqRows) next() (bool, error) {
	for r.at >= r.n {
		if r.rows != nil && r.ended {
			r.rows.Close()
			r.rows = nil
		}
		if r.rows == nil {
			groups := r.p.pf.RowGroups()
			if r.group >= len(groups) {
				return false, nil
			}
			g := groups[r.group]
			r.rows, r.ended, r.want, r.got = g.Rows(), false, g.NumRows(), 0
			r.group++
		}
		n, err := r.rows.ReadRows(r.buf)
		r.n, r.at = n, 0
		r.got += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return false, r.p.errAt(r.row+1, "", "reading the file: "+err.Error())
		}
		if err != nil || n == 0 || r.got >= r.want {
			r.ended = true
			if r.got != r.want {
				return false, r.p.errAt(r.row+1, "", fmt.Sprintf("row group %d: %d of its %d rows could be read", r.group, r.got, r.want))
			}
		}
	}
	row := r.buf[r.at]
	r.at++
	r.row++
	clear(r.values)
	for _, v := range row {
		if c := v.Column(); c >= 0 && c < len(r.pos) && r.pos[c] >= 0 {
			r.values[r.pos[c]] = v
		}
	}
	return true, nil
}

func (r *pqRows) close() {
	if r.rows != nil {
		r.rows.Close()
		r.rows = nil
	}
}

// parquetImport is what the files' schemas (and a long file's sensor
// column) say, and the conversion's state.
type parquetImport struct {
	files   []string
	layout  *csvLayout // the first file's
	columns []pqColumn
	sensors []ts.Sensor
	index   map[string]int // sensor name -> position
	time    timeParser     // plain integer and text times, as detected from the first rows
	to      timeOptions
	o       ImportOptions
}

func newParquetImport(files []string, o ImportOptions) (*parquetImport, error) {
	to, err := newTimeOptions(o)
	if err != nil {
		return nil, &InputError{File: files[0], Msg: err.Error()}
	}
	im := &parquetImport{files: files, index: map[string]int{}, to: to, o: o}
	first, err := openParquet(files[0])
	if err != nil {
		return nil, err
	}
	defer first.close()
	im.columns = first.columns
	if im.layout, err = parquetLayout(first.name, first.columns, first.header, o, to); err != nil {
		return nil, err
	}
	l := im.layout
	if l.clock != nil && l.kind == layoutLong {
		return nil, &InputError{File: first.name, Msg: "DATA_TIME_START and DATA_TIME_STEP time a wide Parquet file's rows; this one is long (time, device, sensor, value)"}
	}
	if l.time >= 0 {
		switch tc := &im.columns[l.time]; {
		case tc.ofDay, tc.src == pqBool, tc.src == pqFloat, tc.src == pqDouble, tc.src == pqDecimal, tc.src == pqUUID:
			return nil, &InputError{File: first.name, Column: tc.name,
				Msg: fmt.Sprintf("a time column of type %s: want a TIMESTAMP, integers (s, ms, us or ns since the epoch, DATA_TIME_UNIT) or text times", tc.desc)}
		case !tc.isTimestamp():
			if err := im.detectTime(first); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range files[1:] {
		f, err := openParquet(name)
		if err != nil {
			return nil, err
		}
		f.close()
		if err := im.sameSchema(f); err != nil {
			return nil, err
		}
	}
	if l.kind == layoutLong {
		if err := im.scanSensors(o); err != nil {
			return nil, err
		}
	} else {
		for i, name := range l.sensors {
			im.index[name] = len(im.sensors)
			im.sensors = append(im.sensors, o.typedSensor(name, im.columns[l.sensorCols[i]].typ))
		}
	}
	if err := o.checkTypesNamed(files[0], im.index, namesOf(im.sensors)); err != nil {
		return nil, err
	}
	return im, nil
}

// sameSchema refuses a file whose columns differ from the first file's.
func (im *parquetImport) sameSchema(f *pqFile) error {
	if len(f.columns) != len(im.columns) {
		return &InputError{File: f.name, Msg: fmt.Sprintf("columns %s; the first file, %s, has %s: replay files of one schema",
			strings.Join(f.header, ", "), im.files[0], strings.Join(im.layout.header, ", "))}
	}
	for i := range f.columns {
		c, d := &f.columns[i], &im.columns[i]
		if c.name != d.name {
			return &InputError{File: f.name, Msg: fmt.Sprintf("columns %s; the first file, %s, has %s: replay files of one schema",
				strings.Join(f.header, ", "), im.files[0], strings.Join(im.layout.header, ", "))}
		}
		if !c.same(d) {
			return &InputError{File: f.name, Column: c.name, Msg: fmt.Sprintf("of type %s, %s in the first file, %s: replay files of one schema",
				c.desc, d.desc, im.files[0])}
		}
	}
	return nil
}

// scanSensors reads the sensor column of every long file (that column
// alone, page by page) for the sensors in order of appearance; they take
// the value column's type unless declared.
func (im *parquetImport) scanSensors(o ImportOptions) error {
	l := im.layout
	sc := &im.columns[l.sensor]
	vt := im.columns[l.value].typ
	buf := make([]parquet.Value, parquetRows)
	for _, name := range im.files {
		f, err := openParquet(name)
		if err != nil {
			return err
		}
		err = func() error {
			defer f.close()
			var row int64
			for _, g := range f.pf.RowGroups() {
				chunk := g.ColumnChunks()[sc.leaf]
				if err := im.scanChunk(f, sc, chunk, buf, &row, o, vt); err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	if len(im.sensors) == 0 {
		return &InputError{File: im.files[0], Msg: "no rows"}
	}
	return nil
}

func (im *parquetImport) scanChunk(f *pqFile, sc *pqColumn, chunk parquet.ColumnChunk, buf []parquet.Value, row *int64, o ImportOptions, vt ts.DataType) error {
	pages := chunk.Pages()
	defer pages.Close()
	for {
		page, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return f.errAt(*row+1, sc.name, "reading the file: "+err.Error())
		}
		values, want, got := page.Values(), page.NumValues(), int64(0)
		for got < want {
			n, err := values.ReadValues(buf)
			for _, v := range buf[:n] {
				*row++
				if v.IsNull() {
					parquet.Release(page)
					return f.errAt(*row, sc.name, "null sensor name")
				}
				name := sc.name0(v)
				if name == "" {
					parquet.Release(page)
					return f.errAt(*row, sc.name, "empty sensor name")
				}
				if _, ok := im.index[name]; !ok {
					im.index[name] = len(im.sensors)
					im.sensors = append(im.sensors, o.typedSensor(name, vt))
				}
			}
			got += int64(n)
			if err != nil && !errors.Is(err, io.EOF) {
				parquet.Release(page)
				return f.errAt(*row+1, sc.name, "reading the file: "+err.Error())
			}
			if err != nil || n == 0 {
				break
			}
		}
		parquet.Release(page)
		if got != want {
			return f.errAt(*row+1, sc.name, fmt.Sprintf("a page of %d values gave %d", want, got))
		}
	}
}

// name0 is a device or sensor name value as text, trimmed (as CSV's
// are); v is not null.
func (c *pqColumn) name0(v parquet.Value) string {
	if c.src == pqText {
		return string(bytes.TrimSpace(v.ByteArray()))
	}
	return strings.TrimSpace(c.text(v))
}

// nameOf is a name value as text, last itself when equal (no allocation
// for the usual run of rows of one device).
func (c *pqColumn) nameOf(v parquet.Value, last string) string {
	if c.src == pqText {
		if b := bytes.TrimSpace(v.ByteArray()); string(b) == last {
			return last
		}
	}
	return c.name0(v)
}

// convert is the pass over one file that writes its rows.
func (im *parquetImport) convert(t *table, name string) error {
	f, err := openParquet(name)
	if err != nil {
		return err
	}
	defer f.close()
	// The schema was checked; each file's layout differs only in the
	// device a file without a device column is.
	l, err := parquetLayout(name, f.columns, f.header, im.o, im.to)
	if err != nil {
		return err
	}
	r := f.rows()
	defer r.close()
	if l.kind == layoutLong {
		return im.convertLong(t, f, r, l)
	}
	var last string // the last row's device
	named := im.o.markers()
	for {
		ok, err := r.next()
		if err != nil || !ok {
			return err
		}
		vs := r.values
		device, tags, err := im.deviceOf(f, r, l, last)
		if err != nil {
			return err
		}
		last = device
		var tm int64
		var cut bool
		if l.clock != nil {
			tm = l.clock.at(device)
		} else if tm, cut, err = im.millis(f, r, l.time); err != nil {
			return err
		}
		p, b := t.row(device)
		t.tag(p, tags)
		for i, col := range l.sensorCols {
			c := &f.columns[col]
			if vs[col].IsNull() || (c.src == pqText && len(named.named) > 0 && named.isNamed(string(vs[col].ByteArray()))) {
				// A missing value (sparse data): the cell is empty.
				markAbsent(b, i)
				appendValue(&b.Columns[i], zeroText(b.Columns[i].Type))
				continue
			}
			if err := c.put(&b.Columns[i], vs[col]); err != nil {
				undoRow(b, i)
				return f.errAt(r.row, c.name, err.Error())
			}
		}
		b.Times = append(b.Times, tm)
		if cut {
			t.subMillis++
		}
		if err := t.done(p); err != nil {
			return err
		}
	}
}

// name reads column i of the current row as a device or sensor name.
func (im *parquetImport) name(f *pqFile, r *pqRows, i int, what, last string) (string, error) {
	c := &f.columns[i]
	v := r.values[i]
	if v.IsNull() {
		return "", f.errAt(r.row, c.name, "null "+what+" name")
	}
	s := c.nameOf(v, last)
	if s == "" {
		return "", f.errAt(r.row, c.name, "empty "+what+" name")
	}
	return s, nil
}

// sensorAt reads column i of the current row as a sensor name, and gives
// its position.
func (im *parquetImport) sensorAt(f *pqFile, r *pqRows, i int) (int, error) {
	c := &f.columns[i]
	if v := r.values[i]; c.src == pqText && !v.IsNull() {
		if p, ok := im.index[string(bytes.TrimSpace(v.ByteArray()))]; ok { // no allocation
			return p, nil
		}
	}
	name, err := im.name(f, r, i, "sensor", "")
	if err != nil {
		return 0, err
	}
	p, ok := im.index[name]
	if !ok { // the first pass saw every name: the file changed since
		return 0, f.errAt(r.row, c.name, fmt.Sprintf("sensor %q was not in the file when it was first read", name))
	}
	return p, nil
}

// millis reads column i of the current row as a time in ms, and whether a
// part below a millisecond was cut off.
func (im *parquetImport) millis(f *pqFile, r *pqRows, i int) (int64, bool, error) {
	c := &f.columns[i]
	v := r.values[i]
	if v.IsNull() {
		return 0, false, f.errAt(r.row, c.name, "null time")
	}
	ms, cut, err := im.timeOf(c, v)
	if err != nil {
		return 0, false, f.errAt(r.row, c.name, err.Error())
	}
	return ms, cut, nil
}

func (im *parquetImport) timeOf(c *pqColumn, v parquet.Value) (int64, bool, error) {
	var n int64
	switch c.src {
	case pqTimestamp:
		p := timeParser{unit: c.unit}
		ms, cut, err := p.millis(v.Int64())
		if err == nil && c.local && im.to.loc != time.UTC {
			// A wall-clock time (not adjusted to UTC): in DATA_TIMEZONE,
			// as CSV's times without a zone.
			w := time.UnixMilli(ms).UTC()
			ms = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), im.to.loc).UnixMilli()
		}
		return ms, cut, err
	case pqDate:
		return int64(v.Int32()) * 86_400_000, false, nil
	case pqInt96:
		ns, err := int96Nanos(v)
		if err != nil {
			return 0, false, err
		}
		return floorDiv(ns, 1_000_000), ns%1_000_000 != 0, nil
	case pqText:
		return im.time.parse(string(v.ByteArray()))
	case pqInt32:
		n = int64(v.Int32())
	case pqUint32:
		n = int64(v.Uint32())
	case pqInt64:
		n = v.Int64()
	case pqUint64:
		u := v.Uint64()
		if u > math.MaxInt64 {
			return 0, false, fmt.Errorf("%d is out of range for a time", u)
		}
		n = int64(u)
	default:
		return 0, false, fmt.Errorf("a %s is not a time", c.desc)
	}
	if im.time.layout != "" || im.time.read != nil {
		return im.time.parse(strconv.FormatInt(n, 10)) // integers as dates, months or years (20200131)
	}
	return im.time.integer(n)
}

// julianEpoch is the Julian day of 1970-01-01.
const julianEpoch = 2_440_588

// int96Nanos is an INT96 timestamp (8 bytes of nanoseconds within the day,
// then 4 of the Julian day, little-endian) in ns since the epoch.
func int96Nanos(v parquet.Value) (int64, error) {
	i := v.Int96()
	nanos := int64(uint64(i[1])<<32 | uint64(i[0]))
	day := int64(i[2]) - julianEpoch
	const nsPerDay = 86_400 * 1_000_000_000
	if day > math.MaxInt64/nsPerDay-1 || day < math.MinInt64/nsPerDay+1 || nanos < 0 || nanos >= nsPerDay {
		return 0, fmt.Errorf("INT96 timestamp out of range (Julian day %d, %d ns)", i[2], nanos)
	}
	return day*nsPerDay + nanos, nil
}

// convertLong pivots a long file as CSV's convertLong does: the rows of one
// device and time, which must be consecutive, make one row, whose sensors
// without a value are empty cells; a sensor again starts a new row (a
// duplicate). A null value is no point.
func (im *parquetImport) convertLong(t *table, f *pqFile, r *pqRows, l *csvLayout) error {
	var (
		device    string
		tm        int64
		cut       bool
		started   int64 // the row the current row began on
		values    = make([]parquet.Value, len(im.sensors))
		have      = make([]bool, len(im.sensors))
		collected int
	)
	vc := &f.columns[l.value]
	emit := func() error {
		if collected == 0 {
			return nil
		}
		p, b := t.row(device)
		for i, v := range values {
			if !have[i] {
				// No row gave the sensor a value at this time: sparse
				// data, the cell is empty.
				markAbsent(b, i)
				appendValue(&b.Columns[i], zeroText(b.Columns[i].Type))
				continue
			}
			if err := vc.put(&b.Columns[i], v); err != nil {
				undoRow(b, i)
				return f.errAt(started, vc.name, fmt.Sprintf("sensor %s: %v", im.sensors[i].Name, err))
			}
		}
		b.Times = append(b.Times, tm)
		if cut {
			t.subMillis++
		}
		clear(have)
		collected = 0
		return t.done(p)
	}
	for {
		ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			return emit()
		}
		dev, err := im.name(f, r, l.device, "device", device)
		if err != nil {
			return err
		}
		at, atCut, err := im.millis(f, r, l.time)
		if err != nil {
			return err
		}
		i, err := im.sensorAt(f, r, l.sensor)
		if err != nil {
			return err
		}
		v := r.values[l.value]
		if v.IsNull() {
			continue // a missing value: no point
		}
		if collected > 0 && (dev != device || at != tm || have[i]) {
			// A new row: another device or time, or the same sensor again
			// (a duplicate row of this device and time).
			if err := emit(); err != nil {
				return err
			}
		}
		if collected == 0 {
			device, tm, cut, started = dev, at, atCut, r.row
		}
		values[i], have[i] = v.Clone(), true
		collected++
	}
}

// put appends v (not null), a value of column c, to col, converted to
// col's type: directly when the types agree or widen exactly, else through
// its text as CSV values are (range and format checked).
func (c *pqColumn) put(col *ts.Column, v parquet.Value) error {
	switch col.Type {
	case ts.Boolean:
		if c.src == pqBool {
			col.Bools = append(col.Bools, v.Boolean())
			return nil
		}
	case ts.Int32:
		switch c.src {
		case pqInt32, pqDate:
			col.Int32s = append(col.Int32s, v.Int32())
			return nil
		case pqUint32:
			if u := v.Uint32(); u <= math.MaxInt32 {
				col.Int32s = append(col.Int32s, int32(u))
				return nil
			}
		}
	case ts.Int64:
		if ok, err := c.putInt64(col, v); ok || err != nil {
			return err
		}
	case ts.Float:
		if c.src == pqFloat {
			x := v.Float()
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("%v is not a finite FLOAT", x)
			}
			col.Floats = append(col.Floats, x)
			return nil
		}
	case ts.Double:
		var x float64
		switch c.src {
		case pqDouble:
			x = v.Double()
		case pqFloat:
			x = float64(v.Float())
		case pqInt32:
			x = float64(v.Int32())
		case pqUint32:
			x = float64(v.Uint32())
		default:
			return appendText(col, c, v)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%v is not a finite DOUBLE", x)
		}
		col.Doubles = append(col.Doubles, x)
		return nil
	default: // TEXT
		s, err := c.textChecked(v)
		if err != nil {
			return err
		}
		col.Texts = append(col.Texts, s)
		return nil
	}
	return appendText(col, c, v)
}

// putInt64 is put for an INT64 column: false (and no error) when v goes
// through its text instead (an unsigned value above the INT64 range, a
// source that does not widen to INT64).
func (c *pqColumn) putInt64(col *ts.Column, v parquet.Value) (bool, error) {
	switch c.src {
	case pqInt32, pqDate:
		col.Int64s = append(col.Int64s, int64(v.Int32()))
	case pqUint32:
		col.Int64s = append(col.Int64s, int64(v.Uint32()))
	case pqInt64, pqTimestamp:
		col.Int64s = append(col.Int64s, v.Int64())
	case pqUint64:
		u := v.Uint64()
		if u > math.MaxInt64 {
			return false, nil
		}
		col.Int64s = append(col.Int64s, int64(u))
	case pqInt96:
		ns, err := int96Nanos(v)
		if err != nil {
			return false, err
		}
		col.Int64s = append(col.Int64s, ns)
	default:
		return false, nil
	}
	return true, nil
}

// appendText converts through the value's text (a declared type other
// than the column's, a DECIMAL, out-of-range unsigned values).
func appendText(col *ts.Column, c *pqColumn, v parquet.Value) error {
	s, err := c.textChecked(v)
	if err != nil {
		return err
	}
	return appendValue(col, s)
}

// textChecked is c.text, refusing bytes that are not UTF-8 text.
func (c *pqColumn) textChecked(v parquet.Value) (string, error) {
	if c.src == pqText {
		b := v.ByteArray()
		if !utf8.Valid(b) {
			return "", fmt.Errorf("bytes that are not UTF-8 text (%s)", c.desc)
		}
		return string(b), nil
	}
	if c.src == pqInt96 {
		ns, err := int96Nanos(v)
		return strconv.FormatInt(ns, 10), err
	}
	return c.text(v), nil
}

// text is a value as text: exact for every type (floats in their shortest
// round-tripping form, decimals in full), times as the integers they are
// (INT96 in ns).
func (c *pqColumn) text(v parquet.Value) string {
	switch c.src {
	case pqBool:
		return strconv.FormatBool(v.Boolean())
	case pqInt32, pqDate:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case pqUint32:
		return strconv.FormatUint(uint64(v.Uint32()), 10)
	case pqInt64, pqTimestamp:
		return strconv.FormatInt(v.Int64(), 10)
	case pqUint64:
		return strconv.FormatUint(v.Uint64(), 10)
	case pqFloat:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case pqDouble:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case pqUUID:
		if b := v.ByteArray(); len(b) == 16 {
			h := hex.EncodeToString(b)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		}
	case pqDecimal:
		return decimalText(c, v)
	case pqInt96:
		ns, _ := int96Nanos(v)
		return strconv.FormatInt(ns, 10)
	}
	return string(v.ByteArray())
}

// decimalText is a DECIMAL value in full: its unscaled integer (INT32,
// INT64, or big-endian two's complement bytes) with the scale's decimal
// point.
func decimalText(c *pqColumn, v parquet.Value) string {
	var digits string
	switch v.Kind() {
	case parquet.Int32:
		digits = strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		digits = strconv.FormatInt(v.Int64(), 10)
	default:
		b := v.ByteArray()
		n := new(big.Int).SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		digits = n.String()
	}
	if c.scale <= 0 {
		return digits + strings.Repeat("0", -c.scale)
	}
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= c.scale {
		digits = strings.Repeat("0", c.scale-len(digits)+1) + digits
	}
	k := len(digits) - c.scale
	return sign + digits[:k] + "." + digits[k:]
}

// isNamed reports whether v is a marker DATA_MISSING names (a Parquet
// text cell takes no default marker, only those named).
func (m *markerSet) isNamed(v string) bool {
	return len(m.named) > 0 && has(m.named, strings.TrimSpace(v))
}
