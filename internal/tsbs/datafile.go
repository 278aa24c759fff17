package tsbs

// tsbench's TSBS data written in TSBS's own data-file formats
// (tsbs_generate_data --format influx | timescaledb), so that the identical
// rows can be loaded by TSBS's loaders and replayed by tsbench (--data),
// each checked against the other. The layouts are TSBS's public file
// formats; the code is tsbench's own.

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/ts"
)

// DataFormats are the formats WriteData writes.
var DataFormats = []string{"influx", "timescaledb"}

// WriteData writes rows [0, rows) of every device of g's schema, time by time
// and host by host as TSBS orders its files, in format, under measurement
// (TSBS's table: cpu, readings). Every sensor is a field of that one
// measurement.
func WriteData(w io.Writer, format, measurement string, g *gen.Generator, rows int64) error {
	s := g.Schema()
	bw := bufio.NewWriterSize(w, 1<<16)
	var line func(d *ts.Device, k int64)
	switch format {
	case "influx":
		var fields strings.Builder
		line = func(d *ts.Device, k int64) {
			fields.Reset()
			for i, sn := range s.Sensors {
				if g.Missing(d.Index, i, k) {
					continue // a missing value: the field left out
				}
				if fields.Len() > 0 {
					fields.WriteByte(',')
				}
				fields.WriteString(escapeName(sn.Name) + "=" + value(g, d, i, k))
			}
			if fields.Len() == 0 {
				return // every value missing: no line, as in TSBS's files
			}
			bw.WriteString(measurement)
			for _, t := range d.Tags {
				bw.WriteString("," + escapeName(t.Key) + "=" + escapeName(t.Value))
			}
			fmt.Fprintf(bw, " %s %d\n", fields.String(), g.Time(k)*1_000_000)
		}
	case "timescaledb":
		// The header: the tag names and types, each table's fields, a
		// blank line.
		if len(s.Devices) > 0 {
			bw.WriteString("tags")
			for _, t := range s.Devices[0].Tags {
				bw.WriteString("," + t.Key + " string")
			}
			bw.WriteString("\n" + measurement)
			for _, sn := range s.Sensors {
				bw.WriteString("," + sn.Name)
			}
			bw.WriteString("\n\n")
		}
		line = func(d *ts.Device, k int64) {
			bw.WriteString("tags")
			for _, t := range d.Tags {
				bw.WriteString("," + t.Key + "=" + t.Value)
			}
			fmt.Fprintf(bw, "\n%s,%d", measurement, g.Time(k)*1_000_000)
			for i := range s.Sensors {
				bw.WriteString(",")
				if !g.Missing(d.Index, i, k) {
					bw.WriteString(value(g, d, i, k)) // empty: missing, as TSBS writes it
				}
			}
			bw.WriteString("\n")
		}
	default:
		return fmt.Errorf("tsbs: data file format %q: allowed: %s", format, strings.Join(DataFormats, ", "))
	}
	for k := int64(0); k < rows; k++ {
		for i := range s.Devices {
			line(&s.Devices[i], k)
		}
	}
	return bw.Flush()
}

// value is row k's value of sensor i as TSBS writes a float: the shortest
// text that reads back as the same number.
func value(g *gen.Generator, d *ts.Device, i int, k int64) string {
	v, _ := g.Number(d.Index, i, k)
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// escapeName escapes what line protocol reserves in a key, tag or field name.
func escapeName(s string) string { return lineproto.Escape(s, ", =") }
