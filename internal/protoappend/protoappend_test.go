package protoappend

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// The lengths are those of what is appended, and the fields read back with
// protowire's decoder, at each varint length's bounds.
func TestFieldsReadBack(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 16383, 16384, 1 << 21} {
		s := strings.Repeat("x", n)
		b := AppendBytes(nil, 3<<3|Bytes, s)
		if len(b) != BytesLen(n) {
			t.Errorf("%d bytes: field of %d, BytesLen %d", n, len(b), BytesLen(n))
		}
		num, typ, k := protowire.ConsumeTag(b)
		v, m := protowire.ConsumeBytes(b[k:])
		if num != 3 || typ != protowire.BytesType || m < 0 || string(v) != s {
			t.Errorf("%d bytes: read back field %d, type %d, %d bytes", n, num, typ, len(v))
		}
		if got, want := VarintLen(uint64(n)), len(binary.AppendUvarint(nil, uint64(n))); got != want {
			t.Errorf("VarintLen(%d) = %d, want %d", n, got, want)
		}
	}
	if got, want := VarintLen(math.MaxUint64), binary.MaxVarintLen64; got != want {
		t.Errorf("VarintLen(max) = %d, want %d", got, want)
	}
	b := AppendFixed64(nil, 4<<3|Fixed64, math.Float64bits(1.5))
	num, typ, k := protowire.ConsumeTag(b)
	v, m := protowire.ConsumeFixed64(b[k:])
	if num != 4 || typ != protowire.Fixed64Type || m != 8 || math.Float64frombits(v) != 1.5 {
		t.Errorf("fixed64 read back as field %d, type %d, %v", num, typ, math.Float64frombits(v))
	}
}
