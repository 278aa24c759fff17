package dataset

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
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
	ignored                     []int      // CSV: columns of row numbers, left out
	// timeParts are the columns after l.time that the time spans (a year
	// and a quarter); timeSeps the text that joins each to the one before
	// for the parser.
	timeParts []int
	timeSeps  []string
	// clock times the rows by their order (DATA_TIME_START): time is -1.
	clock *rowClock
	// comma separates the fields; decimalComma reads 7,35 as a number
	// (any separator but the comma).
	comma        rune
	decimalComma bool
	// head are the rows under the names that are no data (units).
	head headRows
	// byContent: the device columns were found by their content, not
	// by name nor key. oneDevice: DATA_DEVICE_COLUMNS=none.
	byContent, oneDevice bool
}

// isTime reports whether column i holds (part of) the time.
func (l *csvLayout) isTime(i int) bool { return i == l.time || slices.Contains(l.timeParts, i) }

// timeText is a record's time as its parser reads it: the time column, or
// the columns it spans joined.
func (l *csvLayout) timeText(rec []string) string {
	if len(l.timeParts) == 0 {
		return rec[l.time]
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(rec[l.time]))
	for j, i := range l.timeParts {
		b.WriteString(l.timeSeps[j])
		part := strings.TrimSpace(rec[i])
		if len(part) == 1 && l.timeSeps[j] == "-" {
			b.WriteByte('0') // a month or day of one digit, as layouts read it
		}
		b.WriteString(part)
	}
	return b.String()
}

// timeValues are the sample's times as the parser reads them; none
// when the rows are timed by their order.
func (l *csvLayout) timeValues(sample []sampled) []string {
	if l.clock != nil {
		return nil
	}
	out := make([]string, len(sample))
	for j, r := range sample {
		out[j] = l.timeText(r.rec)
	}
	return out
}

// timeColumn names the time column(s), for messages.
func (l *csvLayout) timeColumn() string {
	if l.clock != nil {
		return "none"
	}
	names := []string{l.header[l.time]}
	for _, i := range l.timeParts {
		names = append(names, l.header[i])
	}
	return strings.Join(names, ",")
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

// detectTime finds the format of the time column from the sample.
func (l *csvLayout) detectTime(file string, sample []sampled, to timeOptions) error {
	values := l.timeValues(sample)
	name := l.header[l.time]
	if len(l.timeParts) > 0 {
		name = "time" // joined parts are read as one time, by any layout
	}
	p, at, msg := to.detectTime(name, values)
	if at >= 0 {
		return &InputError{File: file, Line: sample[at].line, Column: l.timeColumn(), Msg: msg}
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
	name    string
	f       *inputFile
	r       *csv.Reader
	rec     []string // the last record
	line    int64    // the last record's line
	skipped int64    // comment lines before the header, which the reader never saw
	// comma is the separator of the file's fields; detected when
	// DATA_DELIMITER did not give it.
	comma    rune
	detected bool
}

// utf8BOM is the byte-order mark spreadsheet programs write first.
const utf8BOM = "\ufeff"

// openCSV opens a CSV file past what comes before its header: a UTF-8
// byte-order mark (dropped, or the first column's name would hold it) and
// comment lines starting with '#' (a "# Data source" line above the
// header). Line numbers still count the file's lines. Its fields are
// split at comma; when 0, at the separator its header and first rows
// show (sniffDelimiter), else a comma (a .tsv file's tab).
func openCSV(name string, comma rune) (*csvFile, error) {
	f, err := openInput(name)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(len(utf8BOM)); string(head) == utf8BOM {
		br.Discard(len(utf8BOM))
	}
	c := &csvFile{name: name, f: f, comma: comma}
	for {
		head, _ := br.Peek(1)
		if len(head) == 0 || head[0] != '#' {
			break
		}
		if _, err := br.ReadString('\n'); err != nil {
			break
		}
		c.skipped++
	}
	tsv := innerExt(name) == ".tsv"
	if c.comma == 0 {
		c.detected = true
		if c.comma = sniffDelimiter(readHead(br), tsv); c.comma == 0 {
			c.comma = ','
			if tsv {
				c.comma = '\t'
			}
		}
	}
	var in io.Reader = br
	if c.comma == ' ' {
		in = &lineEndTrimmer{br: br}
	}
	r := csv.NewReader(in)
	r.Comma, r.TrimLeadingSpace = c.comma, c.comma == ' '
	r.ReuseRecord = true
	c.r = r
	return c, nil
}

func (c *csvFile) close() error { return c.f.Close() }

// inputErr is an InputError at a line of c.
func inputErr(c *csvFile, line int64, column, msg string) *InputError {
	return &InputError{File: c.name, Line: line, Unit: "line", Column: column, Msg: msg}
}

// next returns the next record and its line, io.EOF at the end, or an
// InputError naming the line. A row of another number of fields than the
// header's names the separator the file was split at.
func (c *csvFile) next() ([]string, int64, error) {
	rec, err := c.r.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	c.rec = rec
	// A record that failed may have no field (an unterminated quote at the
	// end of the file): it is then on the line after the last one read.
	line := c.line + 1
	if len(rec) > 0 {
		pos, _ := c.r.FieldPos(0)
		line = int64(pos) + c.skipped
	}
	c.line = line
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, line, ie
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			at := int64(pe.Line) + c.skipped
			msg := pe.Err.Error()
			if errors.Is(pe.Err, csv.ErrFieldCount) {
				msg = fmt.Sprintf("%s: %d, the header has %d (%s)", pe.Err, len(rec), c.r.FieldsPerRecord, c.delimiterNote())
			}
			return nil, at, &InputError{File: c.name, Line: at, Column: fmt.Sprint(pe.Column), Msg: msg}
		}
		return nil, line, &InputError{File: c.name, Line: line, Msg: err.Error()}
	}
	return rec, line, nil
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
	// markers are the missing-cell markers in force; found counts the
	// cells of each marker in each column (what inspect lists).
	markers *markerSet
	found   markerCounts
	// decimals counts each sensor's cells written with a decimal comma.
	decimals map[string]int64
	// keys follows the device columns found by their content: the first
	// row's values, and whether another row differs.
	keys  []string
	many  bool
	rows  int64
	types map[string]ts.DataType // by sensor name, once the scan ends
}

// notes say what the scan left out or read as missing: row-number
// columns, header rows, the separator, decimal commas, and the
// missing-cell markers met, with their counts and columns.
func (s *csvScan) notes() []string {
	var out []string
	for _, l := range s.layouts[:1] {
		for _, i := range l.ignored {
			out = append(out, fmt.Sprintf("column %d (%q) counts the rows: a row index, not a time nor a measurement; left out", i+1, l.header[i]))
		}
		if len(l.timeParts) > 0 {
			out = append(out, fmt.Sprintf("the time spans columns %s, read together as %s", l.timeColumn(), l.tp.describe()))
		}
		if l.clock != nil {
			out = append(out, "no time column: times from "+l.clock.text)
		}
		if l.comma != ',' {
			out = append(out, fmt.Sprintf("fields split at %s (DATA_DELIMITER sets it)", delimiterName(l.comma)))
		}
		if n := l.head.n; n > 0 {
			out = append(out, l.head.note())
		}
	}
	var decimals int64
	for name, n := range s.decimals {
		if s.types[name] != ts.Text {
			decimals += n
		}
	}
	if decimals > 0 {
		out = append(out, fmt.Sprintf("%d cells written with a decimal comma (7,35) read as numbers (7.35)", decimals))
	}
	return append(out, markerNotes(s.found.found(s.types))...)
}

// marked reports whether a cell of sensor is missing, by any marker, for
// type inference: a column of numbers with NA cells is a column of
// numbers. It counts the markers it meets.
func (s *csvScan) marked(sensor, v string) bool {
	t := strings.TrimSpace(v)
	if t == "" {
		return true
	}
	numericOnly, ok := s.markers.match(t)
	if ok {
		s.found[markerKey{column: sensor, marker: t, numericOnly: numericOnly}]++
	}
	return ok
}

func scanCSV(files []string, o ImportOptions) (*csvScan, error) {
	to, err := newTimeOptions(o)
	if err != nil {
		return nil, &InputError{File: files[0], Msg: err.Error()}
	}
	s := &csvScan{index: map[string]int{}, kinds: map[string]kind{}, markers: o.markers(), found: markerCounts{},
		decimals: map[string]int64{}, types: map[string]ts.DataType{}}
	comma, err := parseDelimiter(o.Delimiter)
	if err != nil {
		return nil, &InputError{File: files[0], Msg: err.Error()}
	}
	for _, name := range files {
		if err := s.scanFile(name, comma, o, to); err != nil {
			return nil, err
		}
	}
	if s.layouts[0].kind == layoutLong {
		// A long file's sensors, in the order they first appear, would
		// change with the order of its lines: by name, they do not.
		slices.Sort(s.order)
	}
	marked := map[string]bool{}
	for k := range s.found {
		marked[k.column] = marked[k.column] || k.numericOnly
	}
	for _, name := range s.order {
		if s.kinds[name] == kindNone && marked[name] {
			// Markers and empty cells alone: a column of numbers none of
			// whose values is known, not a TEXT column of markers.
			s.kinds[name] = kindDouble
		}
		s.index[name] = len(s.sensors)
		sn := o.typedSensor(name, s.kinds[name].dataType())
		s.sensors = append(s.sensors, sn)
		s.types[name] = sn.Type
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
	if errors.Is(err, io.EOF) {
		return nil, nil, &InputError{File: c.name, Msg: "empty file"}
	}
	if err != nil {
		return nil, nil, err
	}
	header = append([]string(nil), header...)
	var sample []sampled
	for len(sample) < sampleRows {
		rec, line, err := c.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		sample = append(sample, sampled{append([]string(nil), rec...), line})
	}
	return header, sample, nil
}

// scanFile learns one file's layout, and its sensors and their kinds. Its
// fields are split at comma, or at the separator it shows when 0.
func (s *csvScan) scanFile(name string, comma rune, o ImportOptions, to timeOptions) error {
	c, err := openCSV(name, comma)
	if err != nil {
		return err
	}
	defer c.close()
	header, sample, err := readSample(c)
	if err != nil {
		return err
	}
	head, err := findHeadRows(c, header, sample, o, to, s.markers)
	if err != nil {
		return err
	}
	sample = sample[head.n:]
	l, err := layoutOf(name, header, sample, o, to, s.markers)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			ie.Msg += " (" + c.delimiterNote() + ")"
		}
		return err
	}
	l.comma, l.decimalComma, l.head = c.comma, c.comma != ',', head
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

// observe widens the kinds of one record's values, and follows the
// device columns found by content.
func (s *csvScan) observe(c *csvFile, l *csvLayout, rec []string, line int64) error {
	c.rec = rec
	s.rows++
	if l.byContent {
		s.followKeys(l, rec)
	}
	if l.kind == layoutLong {
		sensor := strings.TrimSpace(rec[l.sensor])
		if sensor == "" {
			return inputErr(c, line, l.header[l.sensor], "empty sensor name")
		}
		s.addSensor(sensor)
		s.widen(l, sensor, rec[l.value])
		return nil
	}
	for i, col := range l.sensorCols {
		s.widen(l, l.sensors[i], rec[col])
	}
	return nil
}

// widen widens sensor's kind by a value, unless it is missing; in a file
// of decimal commas, 7,35 is a number.
func (s *csvScan) widen(l *csvLayout, sensor, v string) {
	if s.marked(sensor, v) {
		return
	}
	if l.decimalComma {
		if d, ok := decimalPoint(v); ok {
			v = d
			s.decimals[sensor]++
		}
	}
	s.kinds[sensor] = widen(s.kinds[sensor], kindOf(v))
}

// followKeys notes whether a row's device columns (found by their
// content) hold other values than the first row's.
func (s *csvScan) followKeys(l *csvLayout, rec []string) {
	if s.many {
		return
	}
	if s.keys == nil {
		for _, i := range l.devices {
			s.keys = append(s.keys, strings.TrimSpace(rec[i]))
		}
		return
	}
	for j, i := range l.devices {
		if j >= len(s.keys) || strings.TrimSpace(rec[i]) != s.keys[j] {
			s.many = true
			return
		}
	}
}

// keyProblem is why the run stops when the device columns were found by
// their content and hold one value throughout: they could name the one
// device as well as be TEXT sensors, and the points stored depend on
// which. "" otherwise.
func (s *csvScan) keyProblem() string {
	l := s.layouts[0]
	if !l.byContent || s.many || s.keys == nil {
		return ""
	}
	var names, quoted []string
	for _, i := range l.devices {
		names, quoted = append(names, strings.TrimSpace(l.header[i])), append(quoted, strconv.Quote(l.header[i]))
	}
	what, it, holds := "column "+quoted[0], "it", "holds"
	if len(names) > 1 {
		what, it, holds = "columns "+strings.Join(quoted, ", "), "them", "hold"
	}
	cols := strings.Join(names, ",")
	return fmt.Sprintf("%s %s one value in every row (%q): the name of the file's one device, or a TEXT sensor measured in every row "+
		"(%d points more); the points stored depend on which, so say it: DATA_DEVICE_COLUMNS=%s takes %s as the device, "+
		"DATA_DEVICE_COLUMNS=none measures %s", what, holds, strings.Join(s.keys, deviceSep), s.rows*int64(len(names)), cols, it, it)
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
