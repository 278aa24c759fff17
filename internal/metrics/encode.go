package metrics

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"math"
	"sync"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// HdrHistogram's V2 encoding cookies (V2EncodingCookieBase and
// V2CompressedEncodingCookieBase with the word size bits, as every
// HdrHistogram implementation writes them).
const (
	v2Cookie           = hdrhistogram.V2EncodingCookieBase | 0x10
	v2CompressedCookie = hdrhistogram.V2CompressedEncodingCookieBase | 0x10
)

// encoder writes a histogram in HdrHistogram's V2 compressed encoding, the
// same bytes hdrhistogram-go's Encode writes, with its zlib writer and
// buffers kept from call to call. Encode makes a new zlib writer each time
// (about a megabyte of compressor state), and the collector encodes every
// operation kind's histogram every second: that was most of what a
// thousand-client run allocated, and the swing of its memory.
type encoder struct {
	payload []byte
	z       bytes.Buffer
	zw      *zlib.Writer
	framed  []byte
	text    []byte
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

// encodeV2 returns the V2 compressed encoding of h, base64-encoded, as
// hdrhistogram-go's Encode(V2CompressedEncodingCookieBase) does.
func (e *encoder) encodeV2(h *hdrhistogram.Histogram) []byte {
	snap := h.Export()
	counts := snap.Counts
	last := len(counts) - 1 // Encode stops at the bucket of the largest value
	for last > 0 && counts[last] == 0 {
		last--
	}
	e.payload = e.payload[:0]
	e.payload = binary.BigEndian.AppendUint32(e.payload, uint32(v2Cookie))
	e.payload = binary.BigEndian.AppendUint32(e.payload, 0) // the counts' length, below
	e.payload = binary.BigEndian.AppendUint32(e.payload, 0) // normalizing index offset
	e.payload = binary.BigEndian.AppendUint32(e.payload, uint32(int32(snap.SignificantFigures)))
	e.payload = binary.BigEndian.AppendUint64(e.payload, uint64(snap.LowestTrackableValue))
	e.payload = binary.BigEndian.AppendUint64(e.payload, uint64(snap.HighestTrackableValue))
	ratio := snap.IntegerToDoubleConversionRatio
	if ratio == 0 {
		ratio = 1
	}
	e.payload = binary.BigEndian.AppendUint64(e.payload, math.Float64bits(ratio))
	header := len(e.payload)
	for i := 0; i <= last; {
		c := counts[i]
		i++
		if c == 0 {
			zeros := int64(1)
			for i <= last && counts[i] == 0 {
				zeros++
				i++
			}
			if zeros > 1 {
				c = -zeros // a run of empty buckets
			}
		}
		e.payload = appendZigZag(e.payload, c)
	}
	binary.BigEndian.PutUint32(e.payload[4:], uint32(len(e.payload)-header))

	e.z.Reset()
	if e.zw == nil {
		e.zw, _ = zlib.NewWriterLevel(&e.z, zlib.BestCompression) // a valid level: no error
	} else {
		e.zw.Reset(&e.z)
	}
	e.zw.Write(e.payload) // into a bytes.Buffer: cannot fail
	e.zw.Close()

	e.framed = e.framed[:0]
	e.framed = binary.BigEndian.AppendUint32(e.framed, uint32(v2CompressedCookie))
	e.framed = binary.BigEndian.AppendUint32(e.framed, uint32(e.z.Len()))
	e.framed = append(e.framed, e.z.Bytes()...)
	e.text = base64.StdEncoding.AppendEncode(e.text[:0], e.framed)
	return e.text
}

// appendZigZag appends v in HdrHistogram's ZigZag LEB128-64b9B form: seven
// bits a byte, the ninth byte whole.
func appendZigZag(dst []byte, v int64) []byte {
	u := uint64((v << 1) ^ (v >> 63))
	for i := 0; i < 8; i++ {
		if u>>7 == 0 {
			return append(dst, byte(u))
		}
		dst = append(dst, byte(u&0x7f|0x80))
		u >>= 7
	}
	return append(dst, byte(u))
}
