package dataset

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// table gathers complete rows, device by device, for the writer: what every
// importer feeds, whatever its file's layout.
type table struct {
	w       *Writer
	o       ImportOptions
	sensors []ts.Sensor
	devices map[string]int
	pending []*ts.Batch // by device position
	// groupNames, when set, are the groups the format names (the
	// importer sets each device's); else GROUP_NUMBER spreads the devices.
	groupNames []string
	// subMillis counts timestamps that had a part below a millisecond
	// (tsbench's unit), cut off.
	subMillis int64
}

// flushRows is how many rows of a device wait before they go to the writer.
const flushRows = 256

func newTable(dir, source, format string, sensors []ts.Sensor, o ImportOptions) (*table, error) {
	w, err := Create(dir, Manifest{Source: source, Format: format, Sensors: sensors, Decimals: -1})
	if err != nil {
		return nil, err
	}
	return &table{w: w, o: o, sensors: sensors, devices: map[string]int{}}, nil
}

// row returns the batch the next row of device goes into (its time and
// values are appended by the caller, then done is called).
func (t *table) row(device string) (int, *ts.Batch) {
	p, ok := t.devices[device]
	if !ok {
		p = t.w.AddDevice(Device{Name: device, Group: t.o.groupOf(len(t.devices))})
		t.devices[device] = p
		t.pending = append(t.pending, t.newBatch())
	}
	if t.pending[p] == nil { // released
		t.pending[p] = t.newBatch()
	}
	return p, t.pending[p]
}

func (t *table) newBatch() *ts.Batch {
	b := &ts.Batch{Columns: make([]ts.Column, len(t.sensors))}
	for i, s := range t.sensors {
		b.Columns[i].Type = s.Type
	}
	return b
}

// release writes a device's pending rows and frees its batch: an import
// that gives the devices' rows one device after another holds one
// device's at a time, however many devices there are.
func (t *table) release(p int) error {
	if err := t.flush(p); err != nil {
		return err
	}
	t.pending[p] = nil
	return t.w.flush(p) // its last chunk: the writer need not buffer it
}

// tag gives the device at position p its tags, the first time.
func (t *table) tag(p int, tags []ts.Tag) {
	if d := &t.w.m.Devices[p]; len(tags) > 0 && len(d.Tags) == 0 {
		d.Tags = tags
	}
}

// done sends the device's rows on once enough have gathered.
func (t *table) done(p int) error {
	b := t.pending[p]
	if len(b.Times) < flushRows {
		return nil
	}
	return t.flush(p)
}

func (t *table) flush(p int) error {
	b := t.pending[p]
	if b == nil || len(b.Times) == 0 {
		return nil
	}
	if b.Nulls > 0 {
		// Every column's marks as long as the batch (markAbsent leaves
		// those of a column's last empty cell).
		for c := range b.Columns {
			col := &b.Columns[c]
			col.Null = append(col.Null, make([]bool, len(b.Times)-len(col.Null))...)
		}
	}
	if err := t.w.Write(p, b); err != nil {
		return err
	}
	resetBatch(b, nil)
	return nil
}

// close writes every pending row and the manifest.
// fill converts each file into the table with convert (given the file's
// position and name), in order, then closes it; the first error abandons
// the table.
func (t *table) fill(files []string, convert func(i int, name string) error) (*Manifest, error) {
	for i, name := range files {
		if err := convert(i, name); err != nil {
			t.w.f.Close()
			return nil, err
		}
	}
	m, err := t.close()
	if err != nil {
		return nil, &InputError{File: files[0], Msg: err.Error()}
	}
	return m, nil
}

func (t *table) close() (*Manifest, error) {
	for p := range t.pending {
		if err := t.flush(p); err != nil {
			return nil, err
		}
	}
	t.w.m.Groups = t.o.groups(len(t.pending))
	if t.groupNames != nil {
		t.w.m.Groups = t.groupNames
	}
	for p := range t.w.m.Devices {
		t.w.m.Devices[p].Group = min(t.w.m.Devices[p].Group, len(t.w.m.Groups)-1)
	}
	if t.subMillis > 0 {
		t.w.m.Notes = append(t.w.m.Notes, fmt.Sprintf("%d timestamps had parts below a millisecond, cut off (tsbench writes milliseconds)", t.subMillis))
	}
	if len(t.pending) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	return t.w.Close()
}

// markAbsent marks column c of the row being appended to b (its time not
// yet appended) as empty.
func markAbsent(b *ts.Batch, c int) {
	col := &b.Columns[c]
	i := len(b.Times)
	col.Null = append(col.Null, make([]bool, i-len(col.Null))...)
	col.Null = append(col.Null, true)
	b.Nulls++
}

// appendValue parses text as sensor s's type into column c.
func appendValue(c *ts.Column, text string) error {
	switch c.Type {
	case ts.Boolean:
		v, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return fmt.Errorf("%q is not a BOOLEAN (true or false)", text)
		}
		c.Bools = append(c.Bools, v)
	case ts.Int32:
		v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 32)
		if err != nil {
			return fmt.Errorf("%q is not an INT32", text)
		}
		c.Int32s = append(c.Int32s, int32(v))
	case ts.Int64:
		v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an INT64", text)
		}
		c.Int64s = append(c.Int64s, v)
	case ts.Float:
		v, err := strconv.ParseFloat(strings.TrimSpace(text), 32)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%q is not a finite FLOAT", text)
		}
		c.Floats = append(c.Floats, float32(v))
	case ts.Double:
		v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%q is not a finite DOUBLE", text)
		}
		c.Doubles = append(c.Doubles, v)
	default:
		c.Texts = append(c.Texts, text)
	}
	return nil
}

// kind is what a text value can be, in widening order: a column takes the
// widest kind of its values.
type kind int

const (
	kindNone kind = iota
	kindBool
	kindInt
	kindDouble
	kindText
)

func kindOf(text string) kind {
	v := strings.TrimSpace(text)
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return kindInt
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return kindDouble
	}
	if strings.EqualFold(v, "true") || strings.EqualFold(v, "false") {
		return kindBool
	}
	return kindText
}

// widen joins two kinds: numbers widen to DOUBLE; anything mixed with
// booleans or text is TEXT.
func widen(a, b kind) kind {
	switch {
	case a == kindNone:
		return b
	case b == kindNone, a == b:
		return a
	case (a == kindInt && b == kindDouble) || (a == kindDouble && b == kindInt):
		return kindDouble
	}
	return kindText
}

func (k kind) dataType() ts.DataType {
	switch k {
	case kindBool:
		return ts.Boolean
	case kindInt:
		return ts.Int64
	case kindDouble:
		return ts.Double
	}
	return ts.Text
}

// timeParser reads timestamps in one format: integers in s, ms, us or ns,
// or text in one layout (RFC 3339 when none is given).
type timeParser struct {
	unit   string // s, ms, us, ns; "" until known (auto)
	layout string // Go layout of text times; "" = integers or RFC 3339
	format string // how messages name the format
	loc    *time.Location
	// read parses a shape no Go layout says (quarters, decimal years).
	read func(string) (int64, error)
	// guard refuses integers within a year of the epoch: their unit was
	// inferred, and no key nor name said they are times since 1970.
	guard bool
}

// nearEpoch is how close to 1970-01-01 an inferred integer time may not
// be: row numbers, YYYYMM months, years and small counts read as seconds
// all land within it, real times since the epoch do not.
const nearEpoch = 365 * 86_400_000

// errNearEpoch marks an integer that would be a time within nearEpoch of
// the epoch, refused by a guarded parser.
var errNearEpoch = errors.New("integers are read as times since 1970 only where they fall outside its first year, " +
	"or where a key says so: DATA_TIME_UNIT (s, ms, us, ns) or DATA_TIME_FORMAT=%s; " +
	"a file with only a row order takes its times from DATA_TIME_START and DATA_TIME_STEP")

// unitOf guesses the unit of an integer timestamp by its magnitude: any
// time after 1973 in ms has 12+ digits, in us 15+, in ns 18+.
func unitOf(v int64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1e17:
		return "ns"
	case a >= 1e14:
		return "us"
	case a >= 1e11:
		return "ms"
	}
	return "s"
}

// parse returns text as milliseconds since the epoch, and whether a part
// below a millisecond was cut off.
func (p *timeParser) parse(text string) (int64, bool, error) {
	v := strings.TrimSpace(text)
	if p.read != nil {
		ms, err := p.read(v)
		return ms, false, err
	}
	if p.layout != "" {
		t, err := time.ParseInLocation(p.layout, v, p.loc)
		if err != nil {
			return 0, false, fmt.Errorf("%q is not a timestamp in the file's format, %s", text, p.format)
		}
		return t.UnixMilli(), t.Nanosecond()%int(time.Millisecond) != 0, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return p.integer(n)
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, false, fmt.Errorf("%q is not a timestamp: want integer s, ms, us or ns since the epoch, or RFC 3339", text)
	}
	return t.UnixMilli(), t.Nanosecond()%int(time.Millisecond) != 0, nil
}

// integer reads an integer time since the epoch in the parser's unit,
// refusing one within nearEpoch of it where the parser is guarded.
func (p *timeParser) integer(n int64) (int64, bool, error) {
	ms, cut, err := p.millis(n)
	if err == nil && p.guard && ms > -nearEpoch && ms < nearEpoch {
		return 0, false, fmt.Errorf("\"%d\" as %s since the epoch would be %s: %w", n, p.unit, fmtMillis(ms), errNearEpoch)
	}
	return ms, cut, err
}

// millis converts an integer timestamp in the parser's unit.
func (p *timeParser) millis(n int64) (int64, bool, error) {
	switch p.unit {
	case "s":
		if n > math.MaxInt64/1000 || n < math.MinInt64/1000 {
			return 0, false, fmt.Errorf("%d s is out of range", n)
		}
		return n * 1000, false, nil
	case "ms":
		return n, false, nil
	case "us":
		return floorDiv(n, 1000), n%1000 != 0, nil
	case "ns":
		return floorDiv(n, 1_000_000), n%1_000_000 != 0, nil
	}
	return 0, false, fmt.Errorf("time unit %q: allowed: auto, s, ms, us, ns", p.unit)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
