// Package lineproto writes InfluxDB line protocol, which InfluxDB and
// QuestDB (ILP) both ingest: one line per row, straight from a columnar batch
// into a reused buffer, without an allocation per point.
package lineproto

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// AppendRows writes one line per row of the batch:
//
//	g_0,device=d_0 s_0=true,s_1=12i,s_2=1.5,s_3="ab" 1640966400000
func AppendRows(buf *bytes.Buffer, prefix string, sensors []ts.Sensor, b *ts.Batch) {
	var num [32]byte
	for i, tm := range b.Times {
		buf.WriteString(prefix)
		for sn := range b.Columns {
			if sn > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(sensors[sn].Name)
			buf.WriteByte('=')
			c := &b.Columns[sn]
			switch c.Type {
			case ts.Boolean:
				buf.WriteString(strconv.FormatBool(c.Bools[i]))
			case ts.Int32:
				buf.Write(strconv.AppendInt(num[:0], int64(c.Int32s[i]), 10))
				buf.WriteByte('i')
			case ts.Int64:
				buf.Write(strconv.AppendInt(num[:0], c.Int64s[i], 10))
				buf.WriteByte('i')
			case ts.Float:
				buf.Write(strconv.AppendFloat(num[:0], float64(c.Floats[i]), 'g', -1, 64))
			case ts.Double:
				buf.Write(strconv.AppendFloat(num[:0], c.Doubles[i], 'g', -1, 64))
			case ts.Text:
				buf.WriteByte('"')
				writeEscaped(buf, c.Texts[i], `"\`)
				buf.WriteByte('"')
			}
		}
		buf.WriteByte(' ')
		buf.Write(strconv.AppendInt(num[:0], tm, 10))
		buf.WriteByte('\n')
	}
}

// Escape backslash-escapes the characters special in a line-protocol name.
func Escape(s, special string) string {
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b bytes.Buffer
	writeEscaped(&b, s, special)
	return b.String()
}

func writeEscaped(b *bytes.Buffer, s, special string) {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}
