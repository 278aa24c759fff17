package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// CSV layouts. Long: one point per line, columns time, device, sensor and
// value (in any order, found by name). Wide: one row per line, a time and
// a device column (by name, else the first two) and one column per sensor;
// without a device column the file is one device named after the file.
const (
	layoutLong = "long"
	layoutWide = "wide"
)

// Column names recognised in headers (lower case).
var (
	timeNames   = []string{"time", "timestamp", "ts", "t"}
	deviceNames = []string{"device", "device_id", "deviceid", "device_name", "host", "tag"}
	sensorNames = []string{"sensor", "measurement", "metric", "field", "sensor_id", "name"}
	valueNames  = []string{"value", "val", "v"}
)

// csvLayout is where a CSV file's columns are.
type csvLayout struct {
	kind                        string
	time, device, sensor, value int // column numbers; device -1 = one device
	sensors                     []string
	sensorCols                  []int // wide: each sensor's column
	header                      []string
	tp                          timeParser // how the time column reads
	deviceName                  string     // without a device column
	devices                     []int      // CSV: the device columns, joined into its name
	tags                        bool       // CSV: the device columns are kept as tags
}

func findColumn(header []string, names []string) int {
	for i, h := range header {
		for _, n := range names {
			if strings.EqualFold(strings.TrimSpace(h), n) {
				return i
			}
		}
	}
	return -1
}

// layoutByName finds the columns by their names alone (Parquet's columns
// are typed: their content needs no guessing).
func layoutByName(file string, header []string) (*csvLayout, error) {
	l := &csvLayout{header: header, time: findColumn(header, timeNames), device: findColumn(header, deviceNames),
		sensor: findColumn(header, sensorNames), value: findColumn(header, valueNames)}
	if len(header) == 4 && l.time >= 0 && l.device >= 0 && l.sensor >= 0 && l.value >= 0 {
		l.kind = layoutLong
		return l, nil
	}
	l.kind, l.sensor, l.value = layoutWide, -1, -1
	if l.time < 0 {
		l.time = 0
	}
	if l.device < 0 {
		// No device column: the file is one device, named after it.
		l.deviceName = stem(file)
	}
	for i, h := range header {
		if i == l.time || i == l.device {
			continue
		}
		name := strings.TrimSpace(h)
		if name == "" {
			return nil, &InputError{File: file, Line: 1, Column: fmt.Sprint(i + 1), Msg: "a sensor column without a name"}
		}
		l.sensors = append(l.sensors, name)
		l.sensorCols = append(l.sensorCols, i)
	}
	if len(l.sensors) == 0 {
		return nil, &InputError{File: file, Line: 1, Msg: "no sensor columns: want time, device, sensor, value (long) or time, device, then one column per sensor (wide)"}
	}
	return l, nil
}

// detectTime finds the format of the time column from the sample.
func (l *csvLayout) detectTime(file string, sample []sampled, to timeOptions) error {
	values := columnValues(sample, l.time)
	p, at, msg := to.detectTime(l.header[l.time], values)
	if at >= 0 {
		return &InputError{File: file, Line: sample[at].line, Column: l.header[l.time], Msg: msg}
	}
	l.tp = p
	return nil
}

// columnValues are column i's values in the sample (the CSV reader gives
// every record the header's length).
func columnValues(sample []sampled, i int) []string {
	out := make([]string, len(sample))
	for j, r := range sample {
		if i < len(r.rec) {
			out[j] = r.rec[i]
		}
	}
	return out
}

// csvFile reads one CSV file record by record, with line numbers.
type csvFile struct {
	name string
	f    *inputFile
	r    *csv.Reader
	rec  []string // the last record
}

func openCSV(name string) (*csvFile, error) {
	f, err := openInput(name)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(f)
	if innerExt(name) == ".tsv" {
		r.Comma = '\t'
	}
	r.ReuseRecord = true
	return &csvFile{name: name, f: f, r: r}, nil
}

func (c *csvFile) close() error { return c.f.Close() }

// missing reports whether column i of the last record is a missing value
// (missingText).
func (c *csvFile) missing(i int) bool { return missingText(c.rec[i]) }

// missingText reports whether a cell is a missing value: empty (or only
// spaces), null or NaN, in any case. Such a cell is no point (sparse
// data), whatever the sensor's type.
func missingText(v string) bool {
	v = strings.TrimSpace(v)
	return v == "" || strings.EqualFold(v, "null") || strings.EqualFold(v, "nan")
}

// inputErr is an InputError at a line of c.
func inputErr(c *csvFile, line int64, column, msg string) *InputError {
	return &InputError{File: c.name, Line: line, Unit: "line", Column: column, Msg: msg}
}

// next returns the next record and its line, io.EOF at the end, or an
// InputError naming the line.
func (c *csvFile) next() ([]string, int64, error) {
	rec, err := c.r.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	c.rec = rec
	line, _ := c.r.FieldPos(0)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, int64(line), ie
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, int64(pe.Line), &InputError{File: c.name, Line: int64(pe.Line), Column: fmt.Sprint(pe.Column), Msg: pe.Err.Error()}
		}
		return nil, int64(line), &InputError{File: c.name, Line: int64(line), Msg: err.Error()}
	}
	return rec, int64(line), nil
}

// eachRecord calls fn with each record left in the file and its line,
// until the file ends or fn returns an error, which eachRecord returns as
// it is.
func (c *csvFile) eachRecord(fn func(rec []string, line int64) error) error {
	return eachItem(c.next, fn)
}

// csvScan is what the first pass learnt.
type csvScan struct {
	layouts []*csvLayout
	sensors []ts.Sensor
	index   map[string]int // sensor name -> position
	kinds   map[string]kind
	order   []string // sensor names in order of appearance
}

func scanCSV(files []string, o ImportOptions) (*csvScan, error) {
	to, err := newTimeOptions(o)
	if err != nil {
		return nil, &InputError{File: files[0], Msg: err.Error()}
	}
	s := &csvScan{index: map[string]int{}, kinds: map[string]kind{}}
	for _, name := range files {
		if err := s.scanFile(name, o, to); err != nil {
			return nil, err
		}
	}
	if s.layouts[0].kind == layoutLong {
		// A long file's sensors, in the order they first appear, would
		// change with the order of its lines: by name, they do not.
		slices.Sort(s.order)
	}
	for _, name := range s.order {
		s.index[name] = len(s.sensors)
		s.sensors = append(s.sensors, o.typedSensor(name, s.kinds[name].dataType()))
	}
	if err := o.checkTypesNamed(files[0], s.index, s.order); err != nil {
		return nil, err
	}
	return s, nil
}

// sampled is a record of a file's first rows, kept to decide its layout.
type sampled struct {
	rec  []string
	line int64
}

// readSample reads the header and up to sampleRows records of c.
func readSample(c *csvFile) ([]string, []sampled, error) {
	header, _, err := c.next()
	if err == io.EOF {
		return nil, nil, &InputError{File: c.name, Msg: "empty file"}
	}
	if err != nil {
		return nil, nil, err
	}
	header = append([]string(nil), header...)
	var sample []sampled
	for len(sample) < sampleRows {
		rec, line, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		sample = append(sample, sampled{append([]string(nil), rec...), line})
	}
	return header, sample, nil
}

// scanFile learns one file's layout, and its sensors and their kinds.
func (s *csvScan) scanFile(name string, o ImportOptions, to timeOptions) error {
	c, err := openCSV(name)
	if err != nil {
		return err
	}
	defer c.close()
	header, sample, err := readSample(c)
	if err != nil {
		return err
	}
	l, err := layoutOf(name, header, sample, o, to)
	if err != nil {
		return err
	}
	if err := s.addLayout(name, l); err != nil {
		return err
	}
	for _, r := range sample {
		if err := s.observe(c, l, r.rec, r.line); err != nil {
			return err
		}
	}
	return c.eachRecord(func(rec []string, line int64) error { return s.observe(c, l, rec, line) })
}

// addLayout checks that a file's layout agrees with the first file's.
func (s *csvScan) addLayout(name string, l *csvLayout) error {
	if len(s.layouts) > 0 && l.kind != s.layouts[0].kind {
		return &InputError{File: name, Line: 1, Msg: fmt.Sprintf("%s layout, the first file is %s", l.kind, s.layouts[0].kind)}
	}
	// Wide files of other sensor columns are allowed: a row of one has
	// no value of the sensors it lacks (sparse data).
	s.layouts = append(s.layouts, l)
	for _, sn := range l.sensors {
		s.addSensor(sn)
	}
	return nil
}

func (s *csvScan) addSensor(sensor string) {
	if _, ok := s.kinds[sensor]; !ok {
		s.kinds[sensor] = kindNone
		s.order = append(s.order, sensor)
	}
}

// observe widens the kinds of one record's values.
func (s *csvScan) observe(c *csvFile, l *csvLayout, rec []string, line int64) error {
	c.rec = rec
	if l.kind == layoutLong {
		sensor := strings.TrimSpace(rec[l.sensor])
		if sensor == "" {
			return inputErr(c, line, l.header[l.sensor], "empty sensor name")
		}
		s.addSensor(sensor)
		if v := rec[l.value]; !c.missing(l.value) {
			s.kinds[sensor] = widen(s.kinds[sensor], kindOf(v))
		}
		return nil
	}
	for i, col := range l.sensorCols {
		if v := rec[col]; !c.missing(col) {
			s.kinds[l.sensors[i]] = widen(s.kinds[l.sensors[i]], kindOf(v))
		}
	}
	return nil
}

func integer(text string) (int64, bool) {
	var n int64
	_, err := fmt.Sscan(strings.TrimSpace(text), &n)
	return n, err == nil && !strings.ContainsAny(text, ".eE")
}

// undoRow drops the first n values of a row that failed part-way; the
// import fails anyway, this keeps the batch square for the error path.
func undoRow(b *ts.Batch, n int) {
	for i := 0; i < n; i++ {
		dropLast(&b.Columns[i])
	}
}

// dropLast drops a column's last value.
func dropLast(c *ts.Column) {
	switch c.Type {
	case ts.Boolean:
		c.Bools = c.Bools[:len(c.Bools)-1]
	case ts.Int32:
		c.Int32s = c.Int32s[:len(c.Int32s)-1]
	case ts.Int64:
		c.Int64s = c.Int64s[:len(c.Int64s)-1]
	case ts.Float:
		c.Floats = c.Floats[:len(c.Floats)-1]
	case ts.Double:
		c.Doubles = c.Doubles[:len(c.Doubles)-1]
	default:
		c.Texts = c.Texts[:len(c.Texts)-1]
	}
}
