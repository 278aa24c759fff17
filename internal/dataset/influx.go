package dataset

// InfluxDB line protocol files: what TSBS's influx-format data files hold
// and what `influx_inspect export` writes.
//
//	measurement[,tag=value...] field=value[,field=value...] [timestamp]
//
// The measurement is the device's group, the tag set the device (several
// tags are joined into its name, sorted by key, and kept as its tags;
// DATA_DEVICE_COLUMNS names the tags that make it), the fields its sensors
// (floats DOUBLE, integers 1i and unsigned 1u INT64, strings TEXT,
// booleans BOOLEAN). Timestamps are integers of any precision: nanoseconds
// by default, DATA_TIME_UNIT, or by the magnitude of the first. Lines
// starting with # are comments; an export's DDL section (between "# DDL"
// and "# DML": CREATE DATABASE statements) is skipped. Each line is
// decoded by InfluxData's decoder (lineproto.go).
//
// influx_inspect export writes one field per line, series by series, and
// TSBS every field of a point on one line: the import sorts and pivots
// either into rows (csvconvert.go). A device lacking a field at one of its
// times (TSBS's measurements each have their own fields) has an empty cell
// there: sparse data, whose missing values are no points.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// lpReader reads a line-protocol file's data lines, skipping comments,
// blank lines and an export's DDL section; lines may be of any length.
// With comments set it returns comment lines too, and knows no DDL
// (exposition files, whose comments say what the samples are).
type lpReader struct {
	name     string
	in       *inputFile
	br       *bufio.Reader
	line     int64
	ddl      bool
	comments bool
	buf      []byte
}

func newLineReader(in *inputFile) *bufio.Reader { return bufio.NewReaderSize(in, 256<<10) }

func openLP(name string) (*lpReader, error) {
	in, err := openInput(name)
	if err != nil {
		return nil, err
	}
	return &lpReader{name: name, in: in, br: newLineReader(in)}, nil
}

func (r *lpReader) close() error { return r.in.Close() }

// eachLine calls fn with every data line of the file (valid during the
// call) and its number, until the file ends or fn returns an error, which
// eachLine returns as it is.
func eachLine(name string, fn func(text []byte, line int64) error) error {
	r, err := openLP(name)
	if err != nil {
		return err
	}
	defer r.close()
	return eachItem(r.next, fn)
}

// eachParsed is eachLine for line formats read one record a line (line
// protocol, Prometheus's JSON lines): parse reads each line into *into
// before fn sees it, and a line that does not parse is an InputError at
// its line and column.
func eachParsed[T any](name string, parse func([]byte, *T) *lpError, into *T, fn func(text []byte, line int64) error) error {
	return eachLine(name, func(text []byte, line int64) error {
		if e := parse(text, into); e != nil {
			return lpErr(name, line, e.col, e.msg)
		}
		return fn(text, line)
	})
}

// eachRawLine is eachLine with the comment lines too.
func eachRawLine(name string, fn func(text []byte, line int64) error) error {
	r, err := openLP(name)
	if err != nil {
		return err
	}
	defer r.close()
	r.comments = true
	return eachItem(r.next, fn)
}

// next returns the next data line (valid until the next call) and its
// number, or io.EOF.
func (r *lpReader) next() ([]byte, int64, error) {
	for {
		raw, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			r.buf = append(r.buf[:0], raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = r.br.ReadSlice('\n')
				r.buf = append(r.buf, raw...)
			}
			raw = r.buf
		}
		if err != nil && err != io.EOF {
			var ie *InputError
			if errors.As(err, &ie) {
				return nil, r.line + 1, ie
			}
			return nil, r.line + 1, &InputError{File: r.name, Line: r.line + 1, Msg: err.Error()}
		}
		if len(raw) == 0 && err == io.EOF {
			return nil, 0, io.EOF
		}
		r.line++
		text := bytes.TrimRight(raw, "\r\n")
		trimmed := bytes.TrimSpace(text)
		switch {
		case len(trimmed) == 0:
		case r.comments:
			return text, r.line, nil
		case trimmed[0] == '#':
			switch string(trimmed) {
			case "# DDL":
				r.ddl = true
			case "# DML":
				r.ddl = false
			}
		case r.ddl:
		default:
			return text, r.line, nil
		}
		if err == io.EOF {
			return nil, 0, io.EOF
		}
	}
}

// lpScan is what the first pass learnt.
type lpScan struct {
	measurements []string
	kinds        map[string]lpKind
	kindAt       map[string][2]int64 // where a field got its kind: line, column
	tagKeys      []string
	unit         string
	sensors      []ts.Sensor
	index        map[string]int
	keep         map[string]bool // DATA_SENSOR_COLUMNS, when given
}

func lpErr(file string, line int64, col int, msg string) *InputError {
	return &InputError{File: file, Line: line, Column: strconv.Itoa(col), Msg: msg}
}

func scanLP(files []string, o ImportOptions) (*lpScan, error) {
	s := &lpScan{kinds: map[string]lpKind{}, kindAt: map[string][2]int64{}, unit: o.TimeUnit}
	if s.unit == "auto" {
		s.unit = ""
	}
	if len(o.SensorColumns) > 0 {
		s.keep = map[string]bool{}
		for _, c := range o.SensorColumns {
			s.keep[c] = true
		}
	}
	seenM, seenT := map[string]bool{}, map[string]bool{}
	var p lpLine
	lines := 0
	for _, name := range files {
		err := eachParsed(name, parseLP, &p, func(text []byte, line int64) error {
			if !p.hasTime {
				return lpErr(name, line, len(text)+1, "no timestamp: a replay needs every point's time")
			}
			if s.unit == "" {
				s.unit = unitOf(p.time)
			}
			lines++
			kept := s.keep == nil
			for _, f := range p.fields {
				kept = kept || s.keep[f.key]
			}
			if !seenM[p.measurement] && kept {
				// A measurement none of whose fields DATA_SENSOR_COLUMNS
				// keeps is left out (TSBS devops' cpu of its nine).
				seenM[p.measurement] = true
				s.measurements = append(s.measurements, p.measurement)
			}
			for _, t := range p.tags {
				if !seenT[t.Key] {
					seenT[t.Key] = true
					s.tagKeys = append(s.tagKeys, t.Key)
				}
			}
			for i, f := range p.fields {
				if s.keep != nil && !s.keep[f.key] {
					continue
				}
				if err := s.kind(name, line, text, i, f); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if lines == 0 || len(s.measurements) == 0 {
		return nil, &InputError{File: files[0], Msg: "no data lines: want measurement[,tag=value...] field=value[,...] timestamp"}
	}
	slices.Sort(s.measurements)
	slices.Sort(s.tagKeys)
	var names []string
	for k := range s.kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	for c := range s.keep {
		if _, ok := s.kinds[c]; !ok {
			return nil, &InputError{File: files[0], Msg: fmt.Sprintf("DATA_SENSOR_COLUMNS names field %q, which the data does not have; it has %s", c, strings.Join(names, ", "))}
		}
	}
	s.index = map[string]int{}
	for _, n := range names {
		s.index[n] = len(s.sensors)
		s.sensors = append(s.sensors, o.typedSensor(n, lpTypes[s.kinds[n]]))
	}
	if err := o.checkTypesNamed(files[0], s.index, names); err != nil {
		return nil, err
	}
	return s, nil
}

// kind widens a field's kind by field i of a line: integers and floats
// mix as floats; other mixes are refused, naming where the field got its
// kind.
func (s *lpScan) kind(file string, line int64, text []byte, i int, f lpField) error {
	k, ok := s.kinds[f.key]
	switch {
	case !ok:
		s.kinds[f.key], s.kindAt[f.key] = f.kind, [2]int64{line, int64(lpValueCol(text, i))}
	case k == f.kind:
	case isNumber(k) && isNumber(f.kind):
		if k == lpFloat || f.kind == lpFloat {
			s.kinds[f.key] = lpFloat
		} else {
			s.kinds[f.key] = lpInt
		}
	default:
		at := s.kindAt[f.key]
		return lpErr(file, line, lpValueCol(text, i), fmt.Sprintf("field %s is a %s here, a %s at line %d column %d: one type per field", f.key, f.kind, k, at[0], at[1]))
	}
	return nil
}

func isNumber(k lpKind) bool { return k == lpFloat || k == lpInt || k == lpUint }

// importInflux imports line-protocol files.
func importInflux(files []string, dir string, o ImportOptions) (*Manifest, error) {
	s, err := scanLP(files, o)
	if err != nil {
		return nil, err
	}
	o.describe(func(in *Inspection) {
		in.Time.Column, in.Time.Format = "timestamp", "integer, "+s.unit+" since the epoch"
		in.DeviceColumns = s.tagKeys
		if len(o.DeviceColumns) > 0 {
			in.DeviceColumns = o.DeviceColumns
		}
		for _, sn := range s.sensors {
			in.Sensors = append(in.Sensors, SensorFound{Name: sn.Name, Column: "field " + sn.Name + " (" + s.kinds[sn.Name].String() + ")"})
		}
	})
	t, err := newTable(dir, strings.Join(files, ","), "influx", s.sensors, o)
	if err != nil {
		return nil, err
	}
	t.groupNames = s.measurements
	im := newSortImport(dir, files, s.sensors, true, o)
	im.groups = map[string]int{}
	tp := timeParser{unit: s.unit}
	return im.fill(t, func(i int, name string) error { return gatherLP(im, s, tp, i, name) })
}

// gatherLP reads one file's lines into the sort: a line of one field as a
// point, others as partial rows.
func gatherLP(im *sortImport, s *lpScan, tp timeParser, file int, name string) error {
	var p lpLine
	group := map[string]int{}
	for i, m := range s.measurements {
		group[m] = i
	}
	several := len(s.measurements) > 1
	return eachParsed(name, parseLP, &p, func(text []byte, line int64) error {
		device, tags, e := lpDevice(&p, im.o.DeviceColumns, several)
		if e != nil {
			return lpErr(name, line, e.col, e.msg)
		}
		tm, cut, terr := tp.millis(p.time)
		if terr != nil {
			return lpErr(name, line, lpTimeCol(text, len(p.fields)), terr.Error())
		}
		rec := sortRecord{device: im.intern(device), time: tm, cut: cut, file: file, line: line, sensor: -1}
		for i, f := range p.fields {
			k, ok := s.index[f.key]
			if !ok {
				continue // left out by DATA_SENSOR_COLUMNS
			}
			if err := im.checkValue(k, f.text); err != nil {
				return lpErr(name, line, lpValueCol(text, i), fmt.Sprintf("field %s: %v", f.key, err))
			}
			if len(p.fields) == 1 {
				rec.sensor, rec.values = k, []string{f.text}
				break
			}
			if rec.values == nil {
				rec.values = make([]string, len(s.sensors))
				for j := range rec.values {
					rec.values[j] = absent
				}
			}
			rec.values[k] = f.text
		}
		if rec.values == nil {
			return nil // no field kept
		}
		if _, ok := im.groups[device]; !ok {
			im.groups[device] = group[p.measurement]
			im.tags[device] = tags
		}
		return im.sorter.add(rec)
	})
}

// lpDevice names a line's device: its tags' values joined, sorted by key
// (or in the order of DATA_DEVICE_COLUMNS); the measurement's name
// without tags; prefixed by the measurement when the file has several. It
// returns the tags kept.
func lpDevice(p *lpLine, named []string, several bool) (string, []ts.Tag, *lpError) {
	var tags []ts.Tag
	if len(named) > 0 {
		for _, k := range named {
			j := slices.IndexFunc(p.tags, func(t ts.Tag) bool { return t.Key == k })
			if j < 0 {
				return "", nil, &lpError{len(p.measurement) + 1, fmt.Sprintf("no tag %s (DATA_DEVICE_COLUMNS)", k)}
			}
			tags = append(tags, p.tags[j])
		}
	} else {
		tags = slices.Clone(p.tags)
		slices.SortFunc(tags, func(a, b ts.Tag) int { return strings.Compare(a.Key, b.Key) })
	}
	parts := make([]string, 0, len(tags)+1)
	if several || len(tags) == 0 {
		parts = append(parts, p.measurement)
	}
	for _, t := range tags {
		parts = append(parts, t.Value)
	}
	if len(tags) < 2 {
		tags = nil // one tag is the name itself, as CSV's one device column
	}
	return strings.Join(parts, deviceSep), tags, nil
}
