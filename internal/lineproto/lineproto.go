// Package lineproto writes InfluxDB line protocol, which InfluxDB and
// QuestDB (ILP) both ingest: one line per row, straight from a columnar batch
// into a reused buffer, without an allocation per point.
package lineproto

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/numfmt"
	"github.com/tsbench/tsbench/internal/ts"
)

// Keys are a measurement's field keys as each field of a line starts:
// "s_0=" for the first sensor, ",s_1=" for the others, escaped. A target
// makes them once per schema, so that a field costs one append.
type Keys struct {
	text []string
	// words holds each key of up to 8 bytes as a little-endian word (0
	// for a longer one), stored whole where there is room: a
	// variable-length append calls memmove, which for a few bytes costs
	// as much as the value's text.
	words []uint64
	lens  []uint8 // each word's key's length, where there is a word
}

// NewKeys makes the field keys of the sensors, in order.
func NewKeys(sensors []ts.Sensor) Keys {
	keys := Keys{text: make([]string, len(sensors)), words: make([]uint64, len(sensors)), lens: make([]uint8, len(sensors))}
	for i, sn := range sensors {
		k := Escape(sn.Name, ",= ") + "="
		if i > 0 {
			k = "," + k
		}
		keys.text[i] = k
		if len(k) <= 8 {
			var w [8]byte
			copy(w[:], k)
			keys.words[i], keys.lens[i] = binary.LittleEndian.Uint64(w[:]), uint8(len(k))
		}
	}
	return keys
}

// appendKey appends key i.
func (k *Keys) appendKey(dst []byte, i int) []byte {
	m, key := len(dst), k.text[i]
	if w := k.words[i]; w != 0 && cap(dst)-m >= 8 {
		binary.LittleEndian.PutUint64(dst[m:m+8], w)
		return dst[:m+len(key)]
	}
	return append(dst, key...)
}

// AppendRows appends one line per row of the batch to dst, keys being
// NewKeys of the batch's sensors:
//
//	g_0,device=d_0 s_0=true,s_1=12i,s_2=1.5,s_3="ab" 1640966400000
//
// Plain appends to a slice the caller reuses: no allocation, no per-byte
// call. The generator's default batch (DOUBLEs to 2 places) has a loop of
// its own, appendCentRows, which makes the values' text a column at a time.
func AppendRows(dst []byte, prefix string, keys Keys, b *ts.Batch) []byte {
	keys.text, keys.words, keys.lens = keys.text[:len(b.Columns)], keys.words[:len(b.Columns)], keys.lens[:len(b.Columns)]
	if b.Nulls != 0 {
		return appendSparseRows(dst, prefix, keys, b)
	}
	if centsOnly(keys, b) {
		return appendCentRows(dst, prefix, keys, b)
	}
	for i, tm := range b.Times {
		dst = append(dst, prefix...)
		for sn := range b.Columns {
			dst = keys.appendKey(dst, sn)
			c := &b.Columns[sn]
			// The switch inline, not appendValue: a call per value costs
			// the dense loop its registers (see appendCentRows).
			switch c.Type {
			case ts.Boolean:
				dst = strconv.AppendBool(dst, c.Bools[i])
			case ts.Int32:
				dst = append(strconv.AppendInt(dst, int64(c.Int32s[i]), 10), 'i')
			case ts.Int64:
				dst = append(strconv.AppendInt(dst, c.Int64s[i], 10), 'i')
			case ts.Float:
				dst = strconv.AppendFloat(dst, float64(c.Floats[i]), 'g', -1, 64)
			case ts.Double:
				if c.HasFixed() {
					dst = numfmt.AppendFixed(dst, c.Doubles[i], c.Fixed[i], b.Decimals)
				} else {
					dst = numfmt.AppendFloat(dst, c.Doubles[i], b.Decimals)
				}
			case ts.Text:
				dst = append(dst, '"')
				dst = appendEscaped(dst, c.Texts[i], `"\`)
				dst = append(dst, '"')
			}
		}
		dst = append(dst, ' ')
		dst = numfmt.AppendInt(dst, tm)
		dst = append(dst, '\n')
	}
	return dst
}

// appendSparseRows is AppendRows for a batch with empty cells
// (ts.Column.Null): an empty cell's field is left out, and a row with no
// value at all gets no line, for a line needs at least one field. Dense
// batches never come here, so their loops test no cell.
func appendSparseRows(dst []byte, prefix string, keys Keys, b *ts.Batch) []byte {
	for i, tm := range b.Times {
		if !b.RowPresent(i) {
			continue
		}
		dst = append(dst, prefix...)
		first := true
		for sn := range b.Columns {
			c := &b.Columns[sn]
			if !c.Present(i) {
				continue
			}
			key := keys.text[sn]
			if first && sn > 0 {
				key = key[1:] // the line's first field: no comma before it
			}
			first = false
			dst = append(dst, key...)
			dst = appendValue(dst, c, i, b.Decimals)
		}
		dst = append(dst, ' ')
		dst = numfmt.AppendInt(dst, tm)
		dst = append(dst, '\n')
	}
	return dst
}

// appendValue appends row i of column c as a field value.
func appendValue(dst []byte, c *ts.Column, i, decimals int) []byte {
	switch c.Type {
	case ts.Boolean:
		return strconv.AppendBool(dst, c.Bools[i])
	case ts.Int32:
		return append(strconv.AppendInt(dst, int64(c.Int32s[i]), 10), 'i')
	case ts.Int64:
		return append(strconv.AppendInt(dst, c.Int64s[i], 10), 'i')
	case ts.Float:
		return strconv.AppendFloat(dst, float64(c.Floats[i]), 'g', -1, 64)
	case ts.Double:
		if c.HasFixed() {
			return numfmt.AppendFixed(dst, c.Doubles[i], c.Fixed[i], decimals)
		}
		return numfmt.AppendFloat(dst, c.Doubles[i], decimals)
	case ts.Text:
		dst = append(dst, '"')
		dst = appendEscaped(dst, c.Texts[i], `"\`)
		return append(dst, '"')
	}
	return dst
}

// centsOnly tells whether appendCentRows can write b: every column a DOUBLE
// with its hundredths kept (ts.Column.Fixed, 2 decimals: the generator's
// default), every key short enough to be a word, and a row's values fit in
// one of its chunks.
func centsOnly(keys Keys, b *ts.Batch) bool {
	if b.Decimals != 2 || len(b.Columns) == 0 || len(b.Columns) > centChunk {
		return false
	}
	for sn := range b.Columns {
		c := &b.Columns[sn]
		if c.Type != ts.Double || !c.HasFixed() || keys.words[sn] == 0 {
			return false
		}
	}
	return true
}

// centChunk is how many values appendCentRows formats before it writes
// them out: words on the stack, a few kilobytes.
const centChunk = 256

// appendCentRows is AppendRows for a batch centsOnly accepts, in chunks of
// rows: first each column's values become text words (numfmt.CentsWords,
// a loop with no call), then each row is its prefix and, per column, a key
// word and a value word stored and stepped over, then its time. Without a
// call per value the row loop keeps its state in registers; with one, Go's
// calling convention (no callee-saved registers) spilled and reloaded it
// for each value. A value out of CentsWords' range goes through
// numfmt.AppendFixed.
func appendCentRows(dst []byte, prefix string, keys Keys, b *ts.Batch) []byte {
	var words [centChunk]uint64
	var lens [centChunk]uint8
	cols := len(b.Columns)
	room := len(prefix) + 16*cols + 18 // a row of short values: 8 bytes a key, 8 a value; the time
	for r0 := 0; r0 < len(b.Times); r0 += centChunk / cols {
		rows := min(centChunk/cols, len(b.Times)-r0)
		for sn := range b.Columns {
			numfmt.CentsWords(words[sn:], lens[sn:], b.Columns[sn].Fixed[r0:r0+rows], cols)
		}
		for i := range rows {
			dst = append(dst, prefix...)
			dst = slices.Grow(dst, room)
			ws, ls, kls := words[i*cols:][:cols], lens[i*cols:][:cols], keys.lens[:cols]
			m := len(dst)
			for sn, kw := range keys.words[:cols] {
				binary.LittleEndian.PutUint64(dst[m:m+8], kw)
				m += int(kls[sn])
				if ls[sn] == 0 {
					dst = numfmt.AppendFixed(dst[:m], b.Columns[sn].Doubles[r0+i], b.Columns[sn].Fixed[r0+i], 2)
					dst = slices.Grow(dst, room)
					m = len(dst)
					continue
				}
				binary.LittleEndian.PutUint64(dst[m:m+8], ws[sn])
				m += int(ls[sn])
			}
			dst = append(dst[:m], ' ')
			dst = numfmt.AppendInt(dst, b.Times[r0+i])
			dst = append(dst, '\n')
		}
	}
	return dst
}

// Escape backslash-escapes the characters special in a line-protocol name.
func Escape(s, special string) string {
	if !strings.ContainsAny(s, special) {
		return s
	}
	return string(appendEscaped(nil, s, special))
}

func appendEscaped(dst []byte, s, special string) []byte {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[i])
	}
	return dst
}

// Series is what a line-protocol target writes every batch from once a
// schema is bound: each device's line prefix and the sensors' field keys.
type Series struct {
	prefixes []string // per device position: "measurement,device=NAME,tag=value "
	keys     Keys
}

// NewSeries makes the Series of s, each device's lines in the measurement
// (InfluxDB) or table (QuestDB) that measurement names, tagged with the
// device's name and its tags.
func NewSeries(s *ts.Schema, measurement func(d *ts.Device) string) Series {
	prefixes := make([]string, len(s.Devices))
	for i := range s.Devices {
		d := &s.Devices[i]
		var b strings.Builder
		b.WriteString(Escape(measurement(d), ", "))
		b.WriteString(",device=" + Escape(d.Name, ",= "))
		for _, tg := range d.Tags {
			b.WriteString("," + Escape(tg.Key, ",= ") + "=" + Escape(tg.Value, ",= "))
		}
		b.WriteByte(' ')
		prefixes[i] = b.String()
	}
	return Series{prefixes: prefixes, keys: NewKeys(s.Sensors)}
}

// AppendRows appends b's rows to dst as AppendRows does, b's device being
// at position pos among the schema's devices.
func (l *Series) AppendRows(dst []byte, pos int, b *ts.Batch) []byte {
	return AppendRows(dst, l.prefixes[pos], l.keys, b)
}
