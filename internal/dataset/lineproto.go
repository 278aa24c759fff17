package dataset

// A line of InfluxDB line protocol is decoded by the parser InfluxDB's
// maintainers keep (github.com/influxdata/line-protocol/v2), so that
// tsbench reads what InfluxDB reads. Its errors become tsbench's
// messages, at the columns they always named: the decoder tells where it
// stopped, and the raw line (re-read only when a message needs it) what
// was there.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/tsbench/tsbench/internal/ts"
)

// lpKind is a field value's line-protocol type.
type lpKind int

const (
	lpFloat lpKind = iota + 1
	lpInt
	lpUint
	lpString
	lpBool
)

func (k lpKind) String() string {
	return [...]string{"", "float", "integer", "unsigned", "string", "boolean"}[k]
}

// lpKinds are the decoder's value kinds as tsbench names them.
var lpKinds = [...]lpKind{lineprotocol.Float: lpFloat, lineprotocol.Int: lpInt, lineprotocol.Uint: lpUint,
	lineprotocol.String: lpString, lineprotocol.Bool: lpBool}

// lpTypes are the sensor types of the kinds (unsigned integers are INT64:
// a larger one is refused as it is read).
var lpTypes = map[lpKind]ts.DataType{lpFloat: ts.Double, lpInt: ts.Int64, lpUint: ts.Int64, lpString: ts.Text, lpBool: ts.Boolean}

// lpField is a field of a line: its key, kind and value as tsbench's text
// (integers without their suffix, booleans true/false, strings unquoted
// and unescaped). Its column is lpValueCol's, found when a message needs it.
type lpField struct {
	key  string
	kind lpKind
	text string
}

// lpLine is a decoded line.
type lpLine struct {
	measurement string
	tags        []ts.Tag // in the line's order
	fields      []lpField
	time        int64
	hasTime     bool
}

// lpError is a fault at a column of a line.
type lpError struct {
	col int
	msg string
}

const lpNoFields = "no fields: want measurement[,tag=value...] field=value[,...] [timestamp]"

// parseLP decodes one line (no newline) into p, reusing its slices. A
// decoder per line keeps tsbench's reader, which knows an export's DDL
// section and numbers the file's lines, in charge of the stream.
func parseLP(line []byte, p *lpLine) *lpError {
	p.tags, p.fields, p.hasTime = p.tags[:0], p.fields[:0], false
	d := lineprotocol.NewDecoderWithBytes(line)
	if !d.Next() {
		return &lpError{1, "no measurement name"}
	}
	m, err := d.Measurement()
	if err != nil {
		return measurementFault(line, err)
	}
	p.measurement = string(m)
	if e := p.decodeTags(d, line); e != nil {
		return e
	}
	if e := p.decodeFields(d, line); e != nil {
		return e
	}
	return p.decodeTime(d, line)
}

func (p *lpLine) decodeTags(d *lineprotocol.Decoder, line []byte) *lpError {
	for {
		key, val, err := d.NextTag()
		if err != nil {
			return tagFault(line, err)
		}
		if key == nil {
			return nil
		}
		p.tags = append(p.tags, ts.Tag{Key: string(key), Value: string(val)})
	}
}

// decodeFields reads the fields; the decoder refuses a line without one.
func (p *lpLine) decodeFields(d *lineprotocol.Decoder, line []byte) *lpError {
	for {
		key, kind, raw, err := d.NextFieldBytes()
		if err != nil {
			return fieldFault(line, err)
		}
		if key == nil {
			return nil
		}
		f := lpField{key: string(key)}
		if msg := f.set(kind, raw); msg != "" {
			return &lpError{lpValueCol(line, len(p.fields)), msg}
		}
		p.fields = append(p.fields, f)
	}
}

// decodeTime reads the timestamp: the decoder checks its characters, not
// that they make an int64.
func (p *lpLine) decodeTime(d *lineprotocol.Decoder, line []byte) *lpError {
	raw, err := d.TimeBytes()
	if err != nil {
		return timeFault(line, len(p.fields), err)
	}
	if raw == nil {
		return nil
	}
	// Read as an integer value is: without copying it into a string.
	v, verr := lineprotocol.NewValueFromBytes(lineprotocol.Int, raw)
	if verr != nil {
		return &lpError{lpTimeCol(line, len(p.fields)), fmt.Sprintf("timestamp %q is not an integer", raw)}
	}
	p.time, p.hasTime = v.IntV(), true
	return nil
}

// set gives f a value of the decoder's, checked as the decoder checks
// values (NewValueFromBytes) and unsigned ones against INT64. It returns
// a fault's message, or "".
func (f *lpField) set(kind lineprotocol.ValueKind, raw []byte) string {
	f.kind = lpKinds[kind]
	if kind == lineprotocol.String {
		f.text = string(raw)
		return ""
	}
	v, err := lineprotocol.NewValueFromBytes(kind, raw)
	switch {
	case err != nil:
		return f.badValue(kind, raw, err)
	case kind == lineprotocol.Bool:
		f.text = strconv.FormatBool(v.BoolV())
	case kind == lineprotocol.Uint && v.UintV() > math.MaxInt64:
		return fmt.Sprintf("field %s: %q exceeds INT64, the widest integer tsbench writes", f.key, string(raw)+"u")
	default:
		f.text = string(raw) // as written: the dataset keeps a float's digits
	}
	return ""
}

// badValue says why the decoder refused a value, quoting it as written.
func (f *lpField) badValue(kind lineprotocol.ValueKind, raw []byte, err error) string {
	switch kind {
	case lineprotocol.Int:
		return fmt.Sprintf("field %s: %q is not an integer", f.key, string(raw)+"i")
	case lineprotocol.Uint:
		return fmt.Sprintf("field %s: %q is not an unsigned integer", f.key, string(raw)+"u")
	case lineprotocol.Float:
		if errors.Is(err, lineprotocol.ErrValueOutOfRange) {
			return fmt.Sprintf("field %s: %q is not a finite number", f.key, raw)
		}
	}
	return notAValue(f.key, raw)
}

func notAValue(key string, raw []byte) string {
	return fmt.Sprintf("field %s: %q is not a value: want a float, 1i, 1u, \"text\" or true/false", key, raw)
}

// lpAt is where the decoder's error is, as a column of the line, and its
// text. The decoder counts columns from the measurement, after any spaces
// before it.
func lpAt(line []byte, err error) (int, string) {
	var de *lineprotocol.DecodeError
	if !errors.As(err, &de) {
		return 1, err.Error()
	}
	return de.Column + len(line) - len(bytes.TrimLeft(line, " ")), de.Err.Error()
}

// measurementFault: a measurement's comma followed by no tag, or a line
// starting with a comma. Other faults keep the decoder's words.
func measurementFault(line []byte, err error) *lpError {
	c, msg := lpAt(line, err)
	switch {
	case lpIsSep(line, c-2, ","):
		return &lpError{c, "a tag without a key=value"}
	case c <= len(line) && line[c-1] == ',':
		return &lpError{c, "no measurement name"}
	}
	return &lpError{c, msg}
}

// tagFault: the decoder stopped at a tag's start (a tag without key=value),
// after its '=' (no value), or at the line's end (no fields).
func tagFault(line []byte, err error) *lpError {
	c, msg := lpAt(line, err)
	switch {
	case lpIsSep(line, c-2, ","):
		return &lpError{c, "a tag without a key=value"}
	case lpIsSep(line, c-2, "="):
		return &lpError{c, fmt.Sprintf("tag %s has no value", lpKeyBefore(line, c-2))}
	case c > len(line):
		return &lpError{c, lpNoFields}
	}
	return &lpError{c, msg}
}

// fieldFault: the decoder stopped after a field's '=' (no value, an
// unclosed string, a value of no type), at the end of a line with no
// space after its tags (no fields), or in a field's key (reported at the
// key's start).
func fieldFault(line []byte, err error) *lpError {
	c, msg := lpAt(line, err)
	switch {
	case lpIsSep(line, c-2, "="):
		key := lpKeyBefore(line, c-2)
		switch {
		case c > len(line) || line[c-1] == ' ' || line[c-1] == ',':
			return &lpError{c, fmt.Sprintf("field %s has no value", key)}
		case line[c-1] == '"':
			return &lpError{c, fmt.Sprintf("field %s: a string without its closing quote", key)}
		}
		return &lpError{c, notAValue(key, line[c-1:lpValueEnd(line, c-1)])}
	case lpFieldsAt(line) == len(line) && !lpIsSep(line, len(line)-1, " "):
		// No space after the measurement and tags: no fields at all.
		return &lpError{len(line) + 1, lpNoFields}
	}
	start := lpKeyStart(line, c-1)
	if eq := lpSkip(line, start, "=, "); eq == start || eq == len(line) || line[eq] != '=' {
		return &lpError{start + 1, "a field without a key=value"}
	}
	return &lpError{c, msg}
}

// timeFault: the decoder stopped at the timestamp (not an integer) or
// after it (text after it).
func timeFault(line []byte, fields int, err error) *lpError {
	c, msg := lpAt(line, err)
	switch tc := lpTimeCol(line, fields); {
	case c == tc:
		return &lpError{c, fmt.Sprintf("timestamp %q is not an integer", line[c-1:lpValueEnd(line, c-1)])}
	case c > tc:
		return &lpError{c, "text after the timestamp"}
	}
	return &lpError{c, msg}
}

// The functions below find the parts of a line the decoder has read, for
// the columns of messages, by the escapes it follows: in names a
// backslash escapes a comma, equals sign or space (a backslash before
// anything else is itself), in a string whatever follows it.

// lpSkip returns the index of the first byte of stops at or after i that
// no backslash escapes, or len(line).
func lpSkip(line []byte, i int, stops string) int {
	for ; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line) && strings.IndexByte(",= ", line[i+1]) >= 0:
			i++
		case strings.IndexByte(stops, c) >= 0:
			return i
		}
	}
	return len(line)
}

// lpIsSep reports whether line[i] is one of seps, unescaped.
func lpIsSep(line []byte, i int, seps string) bool {
	return i >= 0 && i < len(line) && strings.IndexByte(seps, line[i]) >= 0 && (i == 0 || line[i-1] != '\\')
}

// lpKeyStart returns the index of the start of the name that line[end-1]
// ends (end itself when it is empty): names hold no unescaped comma or
// space.
func lpKeyStart(line []byte, end int) int {
	for end > 0 && !lpIsSep(line, end-1, ", ") {
		end--
	}
	return end
}

// lpKeyBefore returns the key whose '=' is at eq, unescaped.
func lpKeyBefore(line []byte, eq int) string {
	return lpUnescape.Replace(string(line[lpKeyStart(line, eq):eq]))
}

var lpUnescape = strings.NewReplacer(`\,`, ",", `\=`, "=", `\ `, " ")

// lpValueAt returns the index at which field k's value begins.
func lpValueAt(line []byte, k int) int {
	i := lpFieldsAt(line)
	for ; k > 0 && i < len(line); k-- {
		i = lpValueEnd(line, lpSkip(line, i, "=")+1) + 1 // past the comma
	}
	return min(lpSkip(line, i, "=")+1, len(line))
}

// lpFieldsAt returns the index of a line's first field: past any spaces
// (the decoder skips them), the measurement and tags, and spaces.
func lpFieldsAt(line []byte) int {
	i := lpSkip(line, lpSpaces(line, 0), " ")
	return lpSpaces(line, i)
}

func lpSpaces(line []byte, i int) int {
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// lpValueCol is the column of field k's value.
func lpValueCol(line []byte, k int) int { return lpValueAt(line, k) + 1 }

// lpValueEnd returns the index of the comma or space that ends the value
// (or timestamp) at i, or len(line).
func lpValueEnd(line []byte, i int) int {
	if i < len(line) && line[i] == '"' {
		for i++; i < len(line) && line[i] != '"'; i++ {
			if line[i] == '\\' {
				i++
			}
		}
		i++
	}
	for i < len(line) && line[i] != ',' && line[i] != ' ' {
		i++
	}
	return min(i, len(line))
}

// lpTimeCol is the column of the timestamp after a line's fields.
func lpTimeCol(line []byte, fields int) int {
	return lpSpaces(line, lpValueEnd(line, lpValueAt(line, fields-1))) + 1
}
