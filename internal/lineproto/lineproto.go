// Package lineproto writes InfluxDB line protocol, which InfluxDB and
// QuestDB (ILP) both ingest: one line per row, straight from a columnar batch
// into a reused buffer, without an allocation per point.
package lineproto

import (
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/numfmt"
	"github.com/tsbench/tsbench/internal/ts"
)

// Keys are a measurement's field keys as each field of a line starts:
// "s_0=" for the first sensor, ",s_1=" for the others, escaped. A target
// makes them once per schema, so that a field costs one append.
type Keys []string

// NewKeys makes the field keys of the sensors, in order.
func NewKeys(sensors []ts.Sensor) Keys {
	keys := make(Keys, len(sensors))
	for i, sn := range sensors {
		k := Escape(sn.Name, ",= ") + "="
		if i > 0 {
			k = "," + k
		}
		keys[i] = k
	}
	return keys
}

// AppendRows appends one line per row of the batch to dst, keys being
// NewKeys of the batch's sensors:
//
//	g_0,device=d_0 s_0=true,s_1=12i,s_2=1.5,s_3="ab" 1640966400000
//
// Plain appends to a slice the caller reuses: no allocation, no per-byte
// call.
func AppendRows(dst []byte, prefix string, keys Keys, b *ts.Batch) []byte {
	keys = keys[:len(b.Columns)]
	for i, tm := range b.Times {
		dst = append(dst, prefix...)
		for sn := range b.Columns {
			dst = append(dst, keys[sn]...)
			c := &b.Columns[sn]
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
				dst = numfmt.AppendFloat(dst, c.Doubles[i], b.Decimals)
			case ts.Text:
				dst = append(dst, '"')
				dst = appendEscaped(dst, c.Texts[i], `"\`)
				dst = append(dst, '"')
			}
		}
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, tm, 10)
		dst = append(dst, '\n')
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
