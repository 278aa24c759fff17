package metrics

import (
	"encoding/base64"
	"testing"
)

// FuzzDecode reads histograms as stored summaries and imported runs carry
// them (base64 of HdrHistogram's compressed format), from any bytes: an
// error or a histogram whose percentiles can be read, never a panic.
func FuzzDecode(f *testing.F) {
	h := NewHistogram()
	for _, v := range []int64{1, 10, 1000, 250_000} {
		h.RecordValue(v)
	}
	good, _ := base64.StdEncoding.DecodeString(encode(h))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add([]byte("HISTFAAAACB4nJNpmSzMwMDAxAABzFCaEUzOmNZg/wEitgDy"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(base64.StdEncoding.EncodeToString(data))
		if err != nil {
			return
		}
		n := d.TotalCount()
		Percentiles(d, max(n, 1), 0, d.Min()*1000, d.Max()*1000)
	})
}
