package tsbs

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteExact writes every row of g in TSBS's format (influx or
// timescaledb), byte for byte what tsbs_generate_data writes for the same
// flags, and returns the rows written.
func WriteExact(w io.Writer, format string, g *Exact) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var line func(*ExactRow)
	switch format {
	case "timescaledb":
		bw.WriteString(strings.Join(exactHeaderLines(g.Header()), "\n") + "\n\n")
		line = func(r *ExactRow) { writeTimescaleRow(bw, r) }
	case "influx":
		var fields []string
		line = func(r *ExactRow) { fields = writeInfluxRow(bw, r, fields[:0]) }
	default:
		return 0, fmt.Errorf("tsbs: data file format %q: allowed: %s", format, strings.Join(DataFormats, ", "))
	}
	var n int64
	for {
		r, ok := g.Next()
		if !ok {
			break
		}
		line(&r)
		n++
	}
	return n, bw.Flush()
}

// exactHeaderLines are the header of TSBS's timescaledb format: the tag
// keys with their Go types, then each table with its fields.
func exactHeaderLines(h ExactHeader) []string {
	tags := "tags"
	for i, k := range h.TagKeys {
		tags += "," + k + " " + h.TagTypes[i]
	}
	lines := []string{tags}
	for _, tb := range h.Tables {
		lines = append(lines, strings.Join(append([]string{tb.Name}, tb.Fields...), ","))
	}
	return lines
}

// writeTimescaleRow writes a row as two lines: its tags, then its table,
// time in nanoseconds and every field, a cleared one empty.
func writeTimescaleRow(w *bufio.Writer, r *ExactRow) {
	w.WriteString("tags")
	for _, p := range r.Tags {
		w.WriteString("," + p.Key + "=" + p.Value.Text())
	}
	w.WriteString("\n" + r.Table + "," + strconv.FormatInt(r.Time.UnixNano(), 10))
	for _, p := range r.Fields {
		w.WriteString("," + p.Value.Text())
	}
	w.WriteByte('\n')
}

// writeInfluxRow writes a row as line protocol the way TSBS's influx
// serializer does: string tags in the key, float32 tags (iot's capacities)
// first among the fields, integers with an i, cleared values left out.
// fields is scratch space, returned for reuse.
func writeInfluxRow(w *bufio.Writer, r *ExactRow, fields []string) []string {
	w.WriteString(r.Table)
	for _, p := range r.Tags {
		switch p.Value.Kind {
		case ExactString:
			w.WriteString("," + p.Key + "=" + p.Value.Str)
		case ExactFloat32:
			fields = append(fields, p.Key+"="+p.Value.Text())
		}
	}
	for _, p := range r.Fields {
		switch p.Value.Kind {
		case ExactInt:
			fields = append(fields, p.Key+"="+p.Value.Text()+"i")
		case ExactFloat:
			fields = append(fields, p.Key+"="+p.Value.Text())
		}
	}
	w.WriteString(" " + strings.Join(fields, ",") + " " + strconv.FormatInt(r.Time.UnixNano(), 10) + "\n")
	return fields
}
