package influxdb

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Write sends a batch as line protocol, one line per row.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.bound()
	if err != nil {
		return err
	}
	pos := s.DevicePos(b.Device.Index)
	if pos < 0 {
		return fmt.Errorf("influxdb: device %s is not in the schema", b.Device.Name)
	}
	t.buf.Reset()
	appendLines(&t.buf, t.lines[pos], s.Sensors, b)
	var body io.Reader = bytes.NewReader(t.buf.Bytes())
	hdr := map[string]string{"Content-Type": "text/plain; charset=utf-8"}
	if t.gzip {
		if err := t.compress(); err != nil {
			return err
		}
		body = bytes.NewReader(t.zbuf.Bytes())
		hdr["Content-Encoding"] = "gzip"
	}
	_, _, err = t.do(ctx, http.MethodPost, "/write?db="+t.db+"&precision=ms", body, hdr)
	if err != nil {
		return fmt.Errorf("write batch of %s: %w", b.Device.Name, err)
	}
	return nil
}

func (t *Target) compress() error {
	t.zbuf.Reset()
	if t.zw == nil {
		t.zw = gzip.NewWriter(&t.zbuf)
	} else {
		t.zw.Reset(&t.zbuf)
	}
	if _, err := t.zw.Write(t.buf.Bytes()); err != nil {
		return err
	}
	return t.zw.Close()
}

// appendLines writes one line per row of the batch:
//
//	g_0,device=d_0 s_0=true,s_1=12i,s_2=1.5,s_3="ab" 1640966400000
func appendLines(buf *bytes.Buffer, prefix string, sensors []ts.Sensor, b *ts.Batch) {
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

// escape backslash-escapes the characters special in a line-protocol name.
func escape(s, special string) string {
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

// ident quotes an InfluxQL identifier.
func ident(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// literal quotes an InfluxQL string literal.
func literal(s string) string {
	return `'` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `'`, `\'`) + `'`
}
