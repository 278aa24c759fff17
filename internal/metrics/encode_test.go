package metrics

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// The encoder writes exactly hdrhistogram-go's bytes (and so what Java's
// HdrHistogram and every stored summary read), for empty-ish, narrow, wide
// and heavy histograms, reusing its buffers between calls.
func TestEncoderWritesHdrHistogramsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var e encoder
	for i := 0; i < 60; i++ {
		h := NewHistogram()
		n := []int{1, 2, 10, 1000, 100_000}[i%5]
		for j := 0; j < n; j++ {
			switch i % 3 {
			case 0:
				h.RecordValue(1 + rng.Int64N(100)) // narrow
			case 1:
				h.RecordValue(1 + int64(rng.ExpFloat64()*50_000)) // wide
			default:
				h.RecordValues(1+rng.Int64N(highestMicros-1), 1+rng.Int64N(1<<40)) // huge counts: 9-byte LEB128
			}
		}
		want, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.encodeV2(h); !bytes.Equal(got, want) {
			t.Fatalf("histogram %d (%d values): the encoder's bytes differ from hdrhistogram-go's", i, h.TotalCount())
		}
	}
}

func TestZigZagForms(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, 1 << 20, -(1 << 40), 1<<62 - 1, -(1 << 62), 1<<63 - 1, -1 << 63} {
		got := appendZigZag(nil, v)
		// Decode as HdrHistogram's readers do.
		var u uint64
		for k, b := range got {
			if k == 8 {
				u |= uint64(b) << 56
				break
			}
			u |= uint64(b&0x7f) << (7 * k)
			if b&0x80 == 0 {
				break
			}
		}
		if back := int64(u>>1) ^ -int64(u&1); back != v || len(got) > 9 {
			t.Fatalf("%d encodes to %x (%d bytes), decodes to %d", v, got, len(got), back)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	h := NewHistogram()
	for i := int64(1); i < 100_000; i += 7 {
		h.RecordValue(i)
	}
	b.Run("hdrhistogram-go", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		}
	})
	b.Run("encoder", func(b *testing.B) {
		b.ReportAllocs()
		var e encoder
		for i := 0; i < b.N; i++ {
			e.encodeV2(h)
		}
	})
}
