package remotewrite

import (
	"encoding/binary"
	"math"

	"github.com/tsbench/tsbench/internal/protoappend"
)

// Histogram is a native histogram sample with integer counts and
// positive buckets only, as remote write's Histogram message carries it
// (the same message in 1.0 and 2.0): exponential buckets of Schema,
// Counts[j] the observations in bucket Offset+j (Prometheus' numbering:
// at schema 0 bucket i holds (2^(i-1), 2^i]), none in the zero bucket.
type Histogram struct {
	Schema int32
	Count  uint64
	Sum    float64
	Offset int32
	Counts []uint64
}

// ZeroThreshold is the zero bucket's width the histograms are sent with:
// client_golang's default, 2^-128.
var ZeroThreshold = math.Ldexp(1, -128)

// Field keys of the Histogram message and its BucketSpan.
const (
	keyV1Histograms   = 4<<3 | wireBytes   // 1.0 TimeSeries.histograms
	keyV2Histograms   = 3<<3 | wireBytes   // 2.0 TimeSeries.histograms
	keyHistCountInt   = 1<<3 | wireVarint  // Histogram.count_int
	keyHistSum        = 3<<3 | wireFixed64 // Histogram.sum
	keyHistSchema     = 4<<3 | wireVarint  // Histogram.schema (sint32)
	keyHistZeroThresh = 5<<3 | wireFixed64 // Histogram.zero_threshold
	keyHistZeroCount  = 6<<3 | wireVarint  // Histogram.zero_count_int
	keyHistPosSpans   = 11<<3 | wireBytes  // Histogram.positive_spans
	keyHistPosDeltas  = 12<<3 | wireBytes  // Histogram.positive_deltas (packed sint64)
	keyHistTimestamp  = 15<<3 | wireVarint // Histogram.timestamp
	keySpanOffset     = 1<<3 | wireVarint  // BucketSpan.offset (sint32)
	keySpanLength     = 2<<3 | wireVarint  // BucketSpan.length
)

// zigzag is protobuf's sint encoding.
func zigzag(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }

// appendHistogram appends the Histogram message's fields (not its key and
// length) of h at t: one span of every bucket, each count a delta from
// the one before, as integer histograms are sent.
func appendHistogram(dst []byte, h *Histogram, t int64) []byte {
	dst = append(dst, keyHistCountInt)
	dst = binary.AppendUvarint(dst, h.Count)
	dst = protoappend.AppendFixed64(dst, keyHistSum, math.Float64bits(h.Sum))
	dst = append(dst, keyHistSchema)
	dst = binary.AppendUvarint(dst, zigzag(int64(h.Schema)))
	dst = protoappend.AppendFixed64(dst, keyHistZeroThresh, math.Float64bits(ZeroThreshold))
	dst = append(dst, keyHistZeroCount, 0)
	if len(h.Counts) > 0 {
		offset, length := zigzag(int64(h.Offset)), uint64(len(h.Counts))
		dst = append(dst, keyHistPosSpans,
			byte(2+protoappend.VarintLen(offset)+protoappend.VarintLen(length)), keySpanOffset)
		dst = binary.AppendUvarint(dst, offset)
		dst = append(dst, keySpanLength)
		dst = binary.AppendUvarint(dst, length)
		n, prev := 0, int64(0)
		for _, c := range h.Counts {
			n += protoappend.VarintLen(zigzag(int64(c) - prev))
			prev = int64(c)
		}
		dst = append(dst, keyHistPosDeltas)
		dst = binary.AppendUvarint(dst, uint64(n))
		prev = 0
		for _, c := range h.Counts {
			dst = binary.AppendUvarint(dst, zigzag(int64(c)-prev))
			prev = int64(c)
		}
	}
	dst = append(dst, keyHistTimestamp)
	return binary.AppendUvarint(dst, uint64(t))
}
