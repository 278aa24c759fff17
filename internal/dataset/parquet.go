package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/tsbench/tsbench/internal/ts"
)

// importParquet reads Parquet files, in the layouts CSV has (long or wide,
// columns found by name): each file is read row group by row group, a
// bounded number of rows at a time, and its rows go through the same
// pivot and checks as CSV records. Sensors take their column's Parquet
// type (a long file's value column's) unless DATA_TYPES says otherwise;
// a TIMESTAMP column keeps its unit, plain integers follow DATA_TIME_UNIT.
func importParquet(files []string, dir string, o ImportOptions) (*Manifest, error) {
	first, err := openParquet(files[0], o)
	if err != nil {
		return nil, err
	}
	pf := first.(*parquetFile)
	header := pf.header
	types := pf.types
	first.close()
	o.columnTypes = map[string]ts.DataType{}
	l, err := layoutOf(files[0], header)
	if err != nil {
		return nil, err
	}
	if l.kind == layoutLong {
		vt := types[l.value]
		o.valueType = &vt
	} else {
		for i, name := range l.sensors {
			o.columnTypes[name] = types[l.sensorCols[i]]
		}
	}
	return importRecords(files, dir, o, "parquet", openParquet)
}

// parquetRows is how many rows a Parquet file is read by at a time.
const parquetRows = 1024

// parquetFile reads a Parquet file as text records (records): its column
// names, then each row, numbered from 1.
type parquetFile struct {
	name   string
	f      *os.File
	pf     *parquet.File
	header []string
	types  []ts.DataType   // each column's, TEXT for byte arrays
	tsUnit []time.Duration // a TIMESTAMP column's unit, else 0
	index  []int           // column -> leaf column index
	group  int             // the row group being read
	rows   parquet.Rows
	buf    []parquet.Row
	n, at  int // rows in buf, and the next one
	row    int64
	rec    []string
	null   []bool
	sent   bool // the header was returned
}

func openParquet(name string, _ ImportOptions) (records, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, &InputError{File: name, Msg: err.Error()}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &InputError{File: name, Msg: err.Error()}
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, &InputError{File: name, Msg: "not a Parquet file: " + err.Error()}
	}
	p := &parquetFile{name: name, f: f, pf: pf, buf: make([]parquet.Row, parquetRows)}
	schema := pf.Schema()
	for _, field := range schema.Fields() {
		if !field.Leaf() {
			f.Close()
			return nil, &InputError{File: name, Column: field.Name(), Msg: "a nested column: tsbench reads flat tables (one column per time, device, sensor or value)"}
		}
		leaf, ok := schema.Lookup(field.Name())
		if !ok {
			f.Close()
			return nil, &InputError{File: name, Column: field.Name(), Msg: "column not found in the file's schema"}
		}
		typ, unit, err := parquetType(field.Type())
		if err != nil {
			f.Close()
			return nil, &InputError{File: name, Column: field.Name(), Msg: err.Error()}
		}
		p.header = append(p.header, field.Name())
		p.index = append(p.index, leaf.ColumnIndex)
		p.types = append(p.types, typ)
		p.tsUnit = append(p.tsUnit, unit)
	}
	p.rec = make([]string, len(p.header))
	p.null = make([]bool, len(p.header))
	return p, nil
}

// parquetType maps a column's type to a sensor type, and gives the unit
// of a TIMESTAMP column.
func parquetType(t parquet.Type) (ts.DataType, time.Duration, error) {
	if lt := t.LogicalType(); lt != nil {
		if tt, ok := lt.Value.(*format.TimestampType); ok && tt.Unit.Value != nil {
			return ts.Int64, tt.Unit.Value.Duration(), nil
		}
	}
	switch t.Kind() {
	case parquet.Boolean:
		return ts.Boolean, 0, nil
	case parquet.Int32:
		return ts.Int32, 0, nil
	case parquet.Int64:
		return ts.Int64, 0, nil
	case parquet.Float:
		return ts.Float, 0, nil
	case parquet.Double:
		return ts.Double, 0, nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return ts.Text, 0, nil
	}
	return 0, 0, fmt.Errorf("Parquet type %s: tsbench reads BOOLEAN, INT32, INT64, FLOAT, DOUBLE, byte arrays and TIMESTAMP", t)
}

func (p *parquetFile) file() string       { return p.name }
func (p *parquetFile) unit() string       { return "row" }
func (p *parquetFile) missing(i int) bool { return p.null[i] }

func (p *parquetFile) close() error {
	if p.rows != nil {
		p.rows.Close()
	}
	return p.f.Close()
}

// next returns the header, then each row as text, numbered from 1.
func (p *parquetFile) next() ([]string, int64, error) {
	if !p.sent {
		p.sent = true
		return p.header, 0, nil
	}
	for p.at >= p.n {
		if err := p.fill(); err != nil {
			return nil, 0, err
		}
	}
	row := p.buf[p.at]
	p.at++
	p.row++
	for i := range p.rec {
		p.rec[i], p.null[i] = "", true
	}
	for _, v := range row {
		for i, c := range p.index {
			if c == v.Column() && !v.IsNull() {
				p.rec[i], p.null[i] = p.text(i, v), false
			}
		}
	}
	return p.rec, p.row, nil
}

// fill reads the next rows into buf, moving to the next row group when one
// is read out; io.EOF after the last.
func (p *parquetFile) fill() error {
	if p.rows == nil {
		groups := p.pf.RowGroups()
		if p.group >= len(groups) {
			return io.EOF
		}
		p.rows = groups[p.group].Rows()
		p.group++
	}
	n, err := p.rows.ReadRows(p.buf)
	p.n, p.at = n, 0
	if errors.Is(err, io.EOF) || (err == nil && n == 0) {
		p.rows.Close()
		p.rows = nil
		return nil
	}
	if err != nil {
		return &InputError{File: p.name, Line: p.row + 1, Unit: "row", Msg: err.Error()}
	}
	return nil
}

// text is a value as the CSV path reads it: exact for every type (floats
// in their shortest round-tripping form), a TIMESTAMP as RFC 3339.
func (p *parquetFile) text(i int, v parquet.Value) string {
	if u := p.tsUnit[i]; u > 0 {
		return time.Unix(0, v.Int64()*int64(u)).UTC().Format(time.RFC3339Nano)
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean())
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	}
	return string(v.ByteArray())
}
