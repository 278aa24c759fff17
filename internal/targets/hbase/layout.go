package hbase

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// bucketMs is the time span of one row: one hour of milliseconds, aligned
// to the epoch.
const bucketMs = 3_600_000

// family is the one column family of every table.
const family = "d"

// bucketOf returns the start of the bucket holding t (floor division, so
// times before the epoch land in the right bucket too).
func bucketOf(t int64) int64 {
	b := t / bucketMs * bucketMs
	if b > t {
		b -= bucketMs
	}
	return b
}

// rowKey appends the row key of a device's bucket to dst: the device name,
// 0x00, and the bucket start as 8 big-endian bytes with the sign bit flipped,
// so that rows sort by device, then by time.
func rowKey(dst []byte, device string, bucket int64) []byte {
	dst = append(dst, device...)
	dst = append(dst, 0)
	return binary.BigEndian.AppendUint64(dst, uint64(bucket)^1<<63)
}

// deviceRange is the row range [start, stop) holding every row of device.
func deviceRange(device string) (start, stop []byte) {
	return append([]byte(device), 0), append([]byte(device), 1)
}

// timeRows is the row range [start, stop) of the buckets that overlap the
// times [from, to) of device (to > from).
func timeRows(device string, from, to int64) (start, stop []byte) {
	return rowKey(nil, device, bucketOf(from)), rowKey(nil, device, bucketOf(to-1)+bucketMs)
}

// parseRowKey splits a row key into device name and bucket start.
func parseRowKey(row []byte) (device string, bucket int64, err error) {
	if len(row) < 9 || row[len(row)-9] != 0 {
		return "", 0, fmt.Errorf("hbase: row key %q is not device+0x00+bucket", row)
	}
	return string(row[:len(row)-9]), int64(binary.BigEndian.Uint64(row[len(row)-8:]) ^ 1<<63), nil
}

// qualifier appends the column qualifier of a point: the sensor index (2
// bytes) and the time offset within the bucket (4 bytes), both big-endian,
// so that a row's cells sort by sensor, then by time.
func qualifier(dst []byte, sensor int, offset int64) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(sensor))
	return binary.BigEndian.AppendUint32(dst, uint32(offset))
}

// parseQualifier splits a qualifier into sensor index and time offset.
func parseQualifier(q []byte) (sensor int, offset int64, err error) {
	if len(q) != 6 {
		return 0, 0, fmt.Errorf("hbase: qualifier %x is not sensor+offset", q)
	}
	return int(binary.BigEndian.Uint16(q)), int64(binary.BigEndian.Uint32(q[2:])), nil
}

// encodeValue appends value i of column c in its type's natural width:
// BOOLEAN one byte, INT32 and FLOAT 4 bytes, INT64 and DOUBLE 8 bytes (two's
// complement integers and IEEE 754 bits, big-endian), TEXT its UTF-8 bytes.
func encodeValue(dst []byte, c *ts.Column, i int) []byte {
	switch c.Type {
	case ts.Boolean:
		if c.Bools[i] {
			return append(dst, 1)
		}
		return append(dst, 0)
	case ts.Int32:
		return binary.BigEndian.AppendUint32(dst, uint32(c.Int32s[i]))
	case ts.Int64:
		return binary.BigEndian.AppendUint64(dst, uint64(c.Int64s[i]))
	case ts.Float:
		return binary.BigEndian.AppendUint32(dst, math.Float32bits(c.Floats[i]))
	case ts.Double:
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(c.Doubles[i]))
	}
	return append(dst, c.Texts[i]...)
}

// decodeValue reads a stored value of type typ as ts.Column.Number does:
// numbers as they are, booleans as 0 or 1, text as (0, false).
func decodeValue(typ ts.DataType, b []byte) (v float64, numeric bool, err error) {
	if typ == ts.Text {
		return 0, false, nil
	}
	if want := typ.Width(); len(b) != want {
		return 0, false, fmt.Errorf("hbase: %s value of %d bytes, want %d", typ, len(b), want)
	}
	switch typ {
	case ts.Boolean:
		return float64(b[0]), true, nil
	case ts.Int32:
		return float64(int32(binary.BigEndian.Uint32(b))), true, nil
	case ts.Int64:
		return float64(int64(binary.BigEndian.Uint64(b))), true, nil
	case ts.Float:
		return float64(math.Float32frombits(binary.BigEndian.Uint32(b))), true, nil
	}
	return math.Float64frombits(binary.BigEndian.Uint64(b)), true, nil
}

// tableFor names the table of a database: "tsbench_" and DB_NAME with every
// character HBase does not allow in a table name replaced by '_'.
func tableFor(db string) string {
	return "tsbench_" + strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			return r
		}
		return '_'
	}, db)
}
