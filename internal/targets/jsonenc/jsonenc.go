// Package jsonenc renders batch values as JSON for the targets that write
// JSON bodies by hand (KairosDB, OpenTSDB): straight from the columnar batch
// into a reused buffer, without a map or an interface per point. It reads
// the data points of their answers back too (points.go).
package jsonenc

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/tsbench/tsbench/internal/ts"
)

// AppendNumber renders value i of a numeric or BOOLEAN column: booleans as 0
// or 1, integers without a decimal point, FLOAT and DOUBLE always with one
// (servers such as KairosDB 1.1 and OpenTSDB read a number without '.' as an
// integer) in plain decimal notation that reads back to the same double.
// ok is false for a TEXT column.
func AppendNumber(dst []byte, c *ts.Column, i int) (out []byte, ok bool, err error) {
	switch c.Type {
	case ts.Boolean:
		if c.Bools[i] {
			return append(dst, '1'), true, nil
		}
		return append(dst, '0'), true, nil
	case ts.Int32:
		return strconv.AppendInt(dst, int64(c.Int32s[i]), 10), true, nil
	case ts.Int64:
		return strconv.AppendInt(dst, c.Int64s[i], 10), true, nil
	case ts.Float:
		out, err = AppendFloat(dst, float64(c.Floats[i]))
		return out, true, err
	case ts.Double:
		out, err = AppendFloat(dst, c.Doubles[i])
		return out, true, err
	}
	return dst, false, nil
}

// AppendFloat renders v in plain decimal notation with a decimal point; NaN
// and infinities have no JSON form.
func AppendFloat(dst []byte, v float64) ([]byte, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dst, fmt.Errorf("value %v cannot be sent as JSON", v)
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', -1, 64)
	if bytes.IndexByte(dst[n:], '.') < 0 {
		dst = append(dst, ".0"...)
	}
	return dst, nil
}

// AppendString renders s as a JSON string.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// Series are what a metric-and-tags target (KairosDB, OpenTSDB) writes and
// queries a bound schema's points under: each sensor's metric name and
// each device's tags, rendered once per schema.
type Series struct {
	Metrics []string // per sensor: the metric name
	Tags    []string // per device position: its tags as a JSON object
}

// NewSeries makes the Series of s: metric names each sensor's metric, and
// tags renders each device's tags as a JSON object.
func NewSeries(s *ts.Schema, metric func(sensor string) string, tags func(s *ts.Schema, d *ts.Device) string) Series {
	x := Series{Metrics: make([]string, len(s.Sensors)), Tags: make([]string, len(s.Devices))}
	for i, sn := range s.Sensors {
		x.Metrics[i] = metric(sn.Name)
	}
	for i := range s.Devices {
		x.Tags[i] = tags(s, &s.Devices[i])
	}
	return x
}
