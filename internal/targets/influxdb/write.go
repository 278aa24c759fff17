package influxdb

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Write sends a batch as line protocol, one line per row.
func (t *Target) Write(ctx context.Context, b *ts.Batch) error {
	_, pos, err := t.binding.LockDevice(&t.mu, b.Device)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	t.buf = t.series.AppendRows(t.buf[:0], pos, b)
	if t.zeros != "" {
		t.pbuf = appendPrecision(t.pbuf[:0], t.buf, t.zeros)
		t.buf, t.pbuf = t.pbuf, t.buf
	}
	body := t.buf
	if t.gzip {
		if body, err = t.zip.Compress(body); err != nil {
			return fmt.Errorf("influxdb: write batch of %s: %w", b.Device.Name, err)
		}
	}
	if err := t.Poster.Post(ctx, body); err != nil {
		return fmt.Errorf("influxdb: write batch of %s: %w", b.Device.Name, err)
	}
	return nil
}

// appendPrecision appends body's lines to dst, each line's time (its last
// word, in milliseconds) followed by zeros: the same instant at the finer
// precision=us or ns.
func appendPrecision(dst, body []byte, zeros string) []byte {
	for len(body) > 0 {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			i = len(body)
		}
		dst = append(append(append(dst, body[:i]...), zeros...), '\n')
		body = body[min(i+1, len(body)):]
	}
	return dst
}

// quoted is s between quote characters, as InfluxQL's scanner reads a
// quoted identifier or string back: a backslash, the quote and a newline
// escaped with a backslash (a raw newline ends the statement's string).
func quoted(s string, quote byte) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', quote:
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// ident quotes an InfluxQL identifier.
func ident(s string) string { return quoted(s, '"') }

// literal quotes an InfluxQL string literal.
func literal(s string) string { return quoted(s, '\'') }

// field is the quoted field key s, cast to a field: a tag of the same key
// (a sensor named like one of the devices' tags) is then not read instead.
func field(s string) string { return ident(s) + "::field" }

// deviceTag is the device tag in a condition: a tag, whatever field may be
// named device.
const deviceTag = `"device"::tag`
