package dataset

// IoT-benchmark's data directories: what its generateDataMode writes under
// FILE_PATH and its verificationWriteMode reads back.
//
//	FILE_PATH/schema.txt              one line per device and sensor:
//	                                  "<device> <sensor> <type>", separated by
//	                                  single spaces; type is the ordinal of
//	                                  IoT-benchmark's SensorType (0 BOOLEAN,
//	                                  1 INT32, 2 INT64, 3 FLOAT, 4 DOUBLE,
//	                                  5 TEXT, 6 STRING, 7 BLOB, 8 TIMESTAMP,
//	                                  9 DATE, 10 OBJECT); blank lines skipped
//	FILE_PATH/info.txt                the generator's settings, KEY=value per
//	                                  line (LOOP, BIG_BATCH_SIZE,
//	                                  TIMESTAMP_PRECISION='ms', GROUP_NUMBER, ...)
//	FILE_PATH/<device>/BigBatch_<n>.csv
//	                                  the device's batches of write loops
//	                                  [n*BIG_BATCH_SIZE, (n+1)*BIG_BATCH_SIZE),
//	                                  each batch a header line
//	                                  "Sensor,<sensor>,<sensor>,..." and then
//	                                  one line per row: "<time>,<value>,...",
//	                                  the time an integer in
//	                                  TIMESTAMP_PRECISION, values as Java prints
//	                                  them (true, 42, 1.5, 1.0E7) and text in
//	                                  double quotes.
//
// Groups are not in the files (IoT-benchmark derives them from GROUP_NUMBER
// at run time): the import spreads the devices over GROUP_NUMBER groups as
// the other formats do (ImportOptions.Groups; info.txt's GROUP_NUMBER when
// that is not set). Devices keep their names and are numbered in natural
// name order (d_2 before d_10). A device's files are read in batch-number
// order, all of them.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// The names IoT-benchmark gives its files (Constants.SCHEMA_PATH,
// Constants.INFO_PATH, CSVDataWriter).
const (
	iotSchemaName   = "schema.txt"
	iotInfoName     = "info.txt"
	iotHeader       = "Sensor"
	iotBatchPrefix  = "BigBatch_"
	iotLayoutAdvice = "an IoT-benchmark data directory (generateDataMode's FILE_PATH) holds schema.txt, info.txt and a directory per device of BigBatch_<n>.csv files"
)

// iotTypes are IoT-benchmark's SensorType names by ordinal.
var iotTypes = []string{"BOOLEAN", "INT32", "INT64", "FLOAT", "DOUBLE", "TEXT", "STRING", "BLOB", "TIMESTAMP", "DATE", "OBJECT"}

// iotType maps a schema.txt type (an ordinal, or a name) to tsbench's type.
func iotType(text string) (ts.DataType, error) {
	name := ""
	if n, err := strconv.Atoi(text); err == nil {
		if n < 0 || n >= len(iotTypes) {
			return 0, fmt.Errorf("type %d is not an IoT-benchmark SensorType (0-%d)", n, len(iotTypes)-1)
		}
		name = iotTypes[n]
	} else {
		name = strings.ToUpper(text)
	}
	switch name {
	case "BOOLEAN":
		return ts.Boolean, nil
	case "INT32":
		return ts.Int32, nil
	case "INT64", "TIMESTAMP":
		return ts.Int64, nil
	case "FLOAT":
		return ts.Float, nil
	case "DOUBLE":
		return ts.Double, nil
	case "TEXT", "STRING", "BLOB", "DATE":
		return ts.Text, nil
	case "OBJECT":
		return 0, fmt.Errorf("OBJECT sensors cannot be replayed (IoT-benchmark writes no readable value for them)")
	}
	return 0, fmt.Errorf("type %q: want an IoT-benchmark SensorType ordinal (0 BOOLEAN, 1 INT32, 2 INT64, 3 FLOAT, 4 DOUBLE, 5 TEXT, ...) or name", text)
}

// isIoTBenchmark reports whether files are an IoT-benchmark data directory:
// a schema.txt whose first line reads "<device> <sensor> <type>", with an
// info.txt beside it.
func isIoTBenchmark(files []string) bool {
	for _, f := range files {
		if filepath.Base(f) != iotSchemaName {
			continue
		}
		st, err := os.Stat(filepath.Join(filepath.Dir(f), iotInfoName))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if iotSchemaLooksRight(f) {
			return true
		}
	}
	return false
}

// iotSchemaLooksRight checks the first non-blank line of a schema file.
func iotSchemaLooksRight(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 3 {
			return false
		}
		_, err := iotType(fields[2])
		return err == nil || strings.HasPrefix(err.Error(), "OBJECT")
	}
	return false
}

// iotSchema is what schema.txt says.
type iotSchema struct {
	file    string
	sensors []ts.Sensor
	index   map[string]int   // sensor name -> position
	devices map[string]int64 // device -> its first line in schema.txt
}

func readIoTSchema(name string, o ImportOptions) (*iotSchema, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, &InputError{File: name, Msg: "cannot read it: " + err.Error() + ": " + iotLayoutAdvice}
	}
	defer f.Close()
	r := &schemaReader{o: o, seen: map[string][]bool{},
		s: &iotSchema{file: name, index: map[string]int{}, devices: map[string]int64{}}}
	br := bufio.NewReader(f)
	var line int64
	for {
		text, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, &InputError{File: name, Line: line + 1, Msg: err.Error()}
		}
		if text == "" && err == io.EOF {
			break
		}
		line++
		if t := strings.TrimSpace(text); t != "" {
			if err := r.add(line, strings.Fields(t)); err != nil {
				return nil, err
			}
		}
		if err == io.EOF {
			break
		}
	}
	return r.complete()
}

// schemaReader builds an iotSchema from schema.txt's lines.
type schemaReader struct {
	s        *iotSchema
	o        ImportOptions
	seen     map[string][]bool // device -> which sensors it listed
	order    []string          // the devices in schema order
	typeLine []int64           // the line that gave each sensor its type
}

// add takes line's "<device> <sensor> <type>": a sensor keeps one type (or
// the one DATA_TYPES declares), a device lists a sensor once.
func (r *schemaReader) add(line int64, fields []string) error {
	s, name := r.s, r.s.file
	if len(fields) != 3 {
		return &InputError{File: name, Line: line, Msg: fmt.Sprintf("%d fields: want \"<device> <sensor> <type>\" separated by spaces", len(fields))}
	}
	device, sensor := fields[0], fields[1]
	ty, terr := iotType(fields[2])
	if terr != nil {
		return &InputError{File: name, Line: line, Column: "3", Msg: terr.Error()}
	}
	if _, ok := s.devices[device]; !ok {
		s.devices[device] = line
		r.order = append(r.order, device)
	}
	i, ok := s.index[sensor]
	if !ok {
		i = len(s.sensors)
		s.index[sensor] = i
		s.sensors = append(s.sensors, ts.Sensor{Name: sensor, Type: ty})
		r.typeLine = append(r.typeLine, line)
	} else if _, declared := r.o.Types[sensor]; !declared && s.sensors[i].Type != ty {
		return &InputError{File: name, Line: line, Column: "3", Msg: fmt.Sprintf("device %s: sensor %s is %s, line %d made it %s: "+
			"tsbench replays one type per sensor (declare it with DATA_TYPES)", device, sensor, ty, r.typeLine[i], s.sensors[i].Type)}
	}
	has := r.seen[device]
	for len(has) <= i {
		has = append(has, false)
	}
	if has[i] {
		return &InputError{File: name, Line: line, Column: "2", Msg: fmt.Sprintf("device %s lists sensor %s twice", device, sensor)}
	}
	has[i] = true
	r.seen[device] = has
	return nil
}

// complete checks that every device lists every sensor, and applies the
// declared types.
func (r *schemaReader) complete() (*iotSchema, error) {
	s, name := r.s, r.s.file
	if len(s.devices) == 0 {
		return nil, &InputError{File: name, Msg: "no devices: want lines \"<device> <sensor> <type>\""}
	}
	for _, device := range r.order {
		has := r.seen[device]
		var missing []string
		for i := range s.sensors {
			if i >= len(has) || !has[i] {
				missing = append(missing, s.sensors[i].Name)
			}
		}
		if len(missing) > 0 {
			return nil, &InputError{File: name, Line: s.devices[device], Msg: fmt.Sprintf("device %s lacks sensor(s) %s that other devices have: "+
				"tsbench replays one sensor list for every device", device, strings.Join(missing, ", "))}
		}
	}
	if err := r.o.checkTypesNamed(name, s.index, namesOf(s.sensors)); err != nil {
		return nil, err
	}
	for sensor, ty := range r.o.Types {
		s.sensors[s.index[sensor]].Type = ty
	}
	return s, nil
}

// readIoTInfo reads info.txt's KEY=value lines (quotes around values
// dropped); a missing file is no settings.
func readIoTInfo(name string) map[string]string {
	info := map[string]string{}
	f, err := os.Open(name)
	if err != nil {
		return info
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		info[strings.TrimSpace(k)] = v
	}
	return info
}

// importIoTBenchmark reads IoT-benchmark's generated data files: src is the
// data directory (or a file in it, schema.txt say); files are its top-level
// files, the rows are in its device directories.
func importIoTBenchmark(src string, files []string, dir string, o ImportOptions) (*Manifest, error) {
	root := src
	if st, err := os.Stat(src); err == nil && !st.IsDir() {
		root = filepath.Dir(src)
	}
	schemaFile := filepath.Join(root, iotSchemaName)
	if _, err := os.Stat(schemaFile); err != nil {
		return nil, &InputError{File: src, Msg: "no " + iotSchemaName + ": " + iotLayoutAdvice}
	}
	s, err := readIoTSchema(schemaFile, o)
	if err != nil {
		return nil, err
	}
	info := readIoTInfo(filepath.Join(root, iotInfoName))
	var notes []string
	if n, err := strconv.Atoi(info["GROUP_NUMBER"]); err == nil && n > 0 {
		if o.Groups <= 0 {
			o.Groups = n
		} else if n != o.Groups {
			notes = append(notes, fmt.Sprintf("%s says GROUP_NUMBER=%d; the devices are spread over %d groups (GROUP_NUMBER of this run)", iotInfoName, n, o.Groups))
		}
	}
	tp := timeParser{unit: o.TimeUnit}
	if tp.unit == "" || tp.unit == "auto" {
		switch p := info["TIMESTAMP_PRECISION"]; p {
		case "ms", "us", "ns":
			tp.unit = p
		default:
			tp.unit = "" // by the first timestamp's magnitude
		}
	}
	dirs, err := iotDeviceDirs(root, s)
	if err != nil {
		return nil, err
	}
	t, err := newTable(dir, src, "iot-benchmark", s.sensors, o)
	if err != nil {
		return nil, err
	}
	c := &iotConverter{t: t, s: s, time: tp, cols: make([]int, len(s.sensors)), values: make([]iotField, len(s.sensors))}
	for _, d := range dirs {
		before := c.rows
		for _, f := range d.files {
			if err := c.convert(d.device, f); err != nil {
				t.w.f.Close()
				return nil, err
			}
		}
		if c.rows == before {
			t.w.f.Close()
			where := filepath.Join(root, d.device)
			if len(d.files) > 0 {
				where = d.files[0]
			}
			return nil, &InputError{File: where, Msg: fmt.Sprintf("device %s has no rows", d.device)}
		}
	}
	t.w.m.Notes = append(t.w.m.Notes, notes...)
	m, err := t.close()
	if err != nil {
		return nil, &InputError{File: src, Msg: err.Error()}
	}
	return m, nil
}

// iotDevice is a device's directory and its data files in batch order.
type iotDevice struct {
	device string
	files  []string
}

// iotDeviceDirs lists the device directories under root in natural name
// order; every device of the schema must have one, and every one must be
// in the schema.
func iotDeviceDirs(root string, s *iotSchema) ([]iotDevice, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, &InputError{File: root, Msg: err.Error()}
	}
	var out []iotDevice
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // schema.txt, info.txt and anything else beside them
		}
		d := iotDevice{device: e.Name()}
		path := filepath.Join(root, e.Name())
		inner, err := os.ReadDir(path)
		if err != nil {
			return nil, &InputError{File: path, Msg: err.Error()}
		}
		for _, f := range inner {
			if strings.HasPrefix(f.Name(), ".") {
				continue
			}
			if f.IsDir() {
				return nil, &InputError{File: filepath.Join(path, f.Name()), Msg: "a directory inside a device directory: " + iotLayoutAdvice}
			}
			d.files = append(d.files, filepath.Join(path, f.Name()))
		}
		if _, ok := s.devices[d.device]; !ok {
			where := path
			if len(d.files) > 0 {
				where = d.files[0]
			}
			return nil, &InputError{File: where, Msg: fmt.Sprintf("device %s (its directory) is not in %s", d.device, s.file)}
		}
		sort.Slice(d.files, func(i, j int) bool { return batchLess(d.files[i], d.files[j]) })
		out = append(out, d)
	}
	have := map[string]bool{}
	for _, d := range out {
		have[d.device] = true
	}
	var missing []string
	for device := range s.devices {
		if !have[device] {
			missing = append(missing, device)
		}
	}
	if len(missing) > 0 {
		sort.Slice(missing, func(i, j int) bool { return s.devices[missing[i]] < s.devices[missing[j]] })
		return nil, &InputError{File: s.file, Line: s.devices[missing[0]], Msg: fmt.Sprintf("device %s has no directory %s of data files",
			missing[0], filepath.Join(root, missing[0]))}
	}
	sort.Slice(out, func(i, j int) bool { return naturalLess(out[i].device, out[j].device) })
	return out, nil
}

// batchLess orders BigBatch_<n>.csv files by n, others after them by name.
func batchLess(a, b string) bool {
	na, oka := batchNumber(a)
	nb, okb := batchNumber(b)
	switch {
	case oka && okb && na != nb:
		return na < nb
	case oka != okb:
		return oka
	}
	return a < b
}

func batchNumber(path string) (int64, bool) {
	name := filepath.Base(path)
	if !strings.HasPrefix(name, iotBatchPrefix) {
		return 0, false
	}
	name = strings.TrimPrefix(name, iotBatchPrefix)
	name = strings.TrimSuffix(name, filepath.Ext(name))
	n, err := strconv.ParseInt(name, 10, 64)
	return n, err == nil
}

// naturalLess orders names by their text, a trailing number by its value:
// d_2 before d_10.
func naturalLess(a, b string) bool {
	pa, da := splitNumber(a)
	pb, db := splitNumber(b)
	if pa != pb || da == "" || db == "" {
		return a < b
	}
	ta, tb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
	if len(ta) != len(tb) {
		return len(ta) < len(tb)
	}
	if ta != tb {
		return ta < tb
	}
	return a < b
}

func splitNumber(s string) (string, string) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	return s[:i], s[i:]
}

// iotField is one field of a data line, its quotes removed.
type iotField struct {
	text   string
	quoted bool
	col    int // 1-based column
}

// iotConverter turns data files into rows of the table.
type iotConverter struct {
	t    *table
	s    *iotSchema
	time timeParser
	rows int64
	// The current header: cols[k] is the field number (1-based) of sensor k.
	header     bool
	headerLine int64
	headerLen  int
	cols       []int
	fields     []iotField
	values     []iotField // by sensor
	buf        []byte
}

// convert reads one data file of device line by line.
func (c *iotConverter) convert(device, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return &InputError{File: name, Msg: err.Error()}
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	c.header = false
	var line int64
	for {
		raw, err := c.readLine(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		line++
		if err != nil {
			return &InputError{File: name, Line: line, Msg: err.Error()}
		}
		text := string(raw)
		if strings.TrimSpace(text) == "" {
			continue
		}
		if c.fields, err = splitIoTLine(text, c.fields[:0]); err != nil {
			return &InputError{File: name, Line: line, Column: fmt.Sprint(len(c.fields) + 1), Msg: err.Error()}
		}
		if strings.TrimSpace(c.fields[0].text) == iotHeader && !c.fields[0].quoted {
			if err := c.readHeader(device, name, line); err != nil {
				return err
			}
			continue
		}
		if err := c.row(device, name, line); err != nil {
			return err
		}
	}
}

// readLine returns the next line without its end of line, io.EOF after
// the last.
func (c *iotConverter) readLine(br *bufio.Reader) ([]byte, error) {
	c.buf = c.buf[:0]
	for {
		part, err := br.ReadSlice('\n')
		c.buf = append(c.buf, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF {
			if len(c.buf) == 0 {
				return nil, io.EOF
			}
			break
		}
		if err != nil {
			return nil, err
		}
		break
	}
	b := bytes.TrimSuffix(c.buf, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r")), nil
}

// readHeader takes a "Sensor,<sensor>,..." line: the sensors of the rows
// after it, which must be every sensor of the schema.
func (c *iotConverter) readHeader(device, name string, line int64) error {
	n := len(c.s.sensors)
	for k := range c.cols {
		c.cols[k] = 0
	}
	for _, fl := range c.fields[1:] {
		sensor := strings.TrimSpace(fl.text)
		k, ok := c.s.index[sensor]
		if !ok {
			return &InputError{File: name, Line: line, Column: fmt.Sprint(fl.col), Msg: fmt.Sprintf("sensor %q is not in %s", sensor, c.s.file)}
		}
		if c.cols[k] != 0 {
			return &InputError{File: name, Line: line, Column: fmt.Sprint(fl.col), Msg: fmt.Sprintf("sensor %s twice in the header", sensor)}
		}
		c.cols[k] = fl.col
	}
	if len(c.fields)-1 != n {
		var missing []string
		for k, col := range c.cols {
			if col == 0 {
				missing = append(missing, c.s.sensors[k].Name)
			}
		}
		return &InputError{File: name, Line: line, Msg: fmt.Sprintf("the header names %d of device %s's %d sensors (lacks %s; data generated with IS_SENSOR_TS_ALIGNMENT=false?): "+
			"tsbench replays complete rows (a value for every sensor at every time)", len(c.fields)-1, device, n, strings.Join(missing, ", "))}
	}
	c.header, c.headerLine, c.headerLen = true, line, len(c.fields)
	return nil
}

// row takes a data line: the time, then a value per header column.
func (c *iotConverter) row(device, name string, line int64) error {
	if !c.header {
		return &InputError{File: name, Line: line, Msg: "a data line before any \"Sensor,...\" header line"}
	}
	if len(c.fields) != c.headerLen {
		return &InputError{File: name, Line: line, Msg: fmt.Sprintf("%d fields, the header on line %d has %d", len(c.fields), c.headerLine, c.headerLen)}
	}
	tf := c.fields[0]
	if c.time.unit == "" {
		if n, ok := integer(tf.text); ok {
			c.time.unit = unitOf(n)
		}
	}
	tm, cut, err := c.time.parse(tf.text)
	if err != nil {
		return &InputError{File: name, Line: line, Column: "1 (time)", Msg: err.Error()}
	}
	for k, col := range c.cols {
		v := c.fields[col-1]
		if !v.quoted && (strings.TrimSpace(v.text) == "" || v.text == "null") {
			return &InputError{File: name, Line: line, Column: fmt.Sprintf("%d (%s)", col, c.s.sensors[k].Name),
				Msg: "empty value: tsbench replays complete rows (a value for every sensor at every time)"}
		}
		c.values[k] = v
	}
	p, b := c.t.row(device)
	for k, v := range c.values {
		if err := appendValue(&b.Columns[k], v.text); err != nil {
			undoRow(b, k)
			return &InputError{File: name, Line: line, Column: fmt.Sprintf("%d (%s)", v.col, c.s.sensors[k].Name), Msg: err.Error()}
		}
	}
	b.Times = append(b.Times, tm)
	if cut {
		c.t.subMillis++
	}
	c.rows++
	return c.t.done(p)
}

// splitIoTLine splits a line at commas; a field in double quotes may hold
// commas, and "" in it is a quote (IoT-benchmark writes text quoted).
func splitIoTLine(line string, dst []iotField) ([]iotField, error) {
	for i := 0; ; {
		col := len(dst) + 1
		if i < len(line) && line[i] == '"' {
			var sb strings.Builder
			j := i + 1
			for {
				q := strings.IndexByte(line[j:], '"')
				if q < 0 {
					return dst, errors.New("a quoted field without its closing quote")
				}
				sb.WriteString(line[j : j+q])
				j += q + 1
				if j < len(line) && line[j] == '"' {
					sb.WriteByte('"')
					j++
					continue
				}
				break
			}
			dst = append(dst, iotField{text: sb.String(), quoted: true, col: col})
			if j == len(line) {
				return dst, nil
			}
			if line[j] != ',' {
				return dst, errors.New("text after a quoted field's closing quote")
			}
			i = j + 1
			continue
		}
		end := strings.IndexByte(line[i:], ',')
		if end < 0 {
			return append(dst, iotField{text: line[i:], col: col}), nil
		}
		dst = append(dst, iotField{text: line[i : i+end], col: col})
		i += end + 1
	}
}
