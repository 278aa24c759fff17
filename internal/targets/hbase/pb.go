package hbase

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// pb builds a protocol-buffers message field by field. The target speaks
// only the handful of HBase messages it needs, so it writes them by hand
// (field numbers from HBase's .proto files) instead of generating code.
type pb []byte

func (b pb) tag(field, wire int) pb { return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire)) }

// uint appends a varint field (uint32, uint64, bool and enum fields).
func (b pb) uint(field int, v uint64) pb { return binary.AppendUvarint(b.tag(field, 0), v) }

// bytes appends a length-delimited field (bytes, string, message).
func (b pb) bytes(field int, v []byte) pb {
	b = binary.AppendUvarint(b.tag(field, 2), uint64(len(v)))
	return append(b, v...)
}

func (b pb) str(field int, s string) pb { return b.bytes(field, []byte(s)) }

func (b pb) bool(field int, v bool) pb {
	if v {
		return b.uint(field, 1)
	}
	return b.uint(field, 0)
}

// pbField is one decoded field: num and, by wire type, an integer or bytes.
type pbField struct {
	num  int
	u    uint64
	data []byte
}

var errPB = errors.New("hbase: malformed protobuf message")

// eachField calls fn for every field of a serialized message.
func eachField(msg []byte, fn func(f pbField) error) error {
	for len(msg) > 0 {
		key, n := binary.Uvarint(msg)
		if n <= 0 {
			return errPB
		}
		msg = msg[n:]
		f := pbField{num: int(key >> 3)}
		switch key & 7 {
		case 0:
			f.u, n = binary.Uvarint(msg)
			if n <= 0 {
				return errPB
			}
			msg = msg[n:]
		case 1:
			if len(msg) < 8 {
				return errPB
			}
			f.u, msg = binary.LittleEndian.Uint64(msg), msg[8:]
		case 2:
			l, n := binary.Uvarint(msg)
			if n <= 0 || uint64(len(msg)-n) < l {
				return errPB
			}
			f.data, msg = msg[n:n+int(l)], msg[n+int(l):]
		case 5:
			if len(msg) < 4 {
				return errPB
			}
			f.u, msg = uint64(binary.LittleEndian.Uint32(msg)), msg[4:]
		default:
			return fmt.Errorf("%w: wire type %d", errPB, key&7)
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// delimited splits a varint-length-prefixed message off the front of buf.
func delimited(buf []byte) (msg, rest []byte, err error) {
	l, n := binary.Uvarint(buf)
	if n <= 0 || uint64(len(buf)-n) < l {
		return nil, nil, errPB
	}
	return buf[n : n+int(l)], buf[n+int(l):], nil
}
