package httpclient

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// Each body compressed, the writer and buffer reused between them, reads
// back whole: the first, a larger one after it, an empty one.
func TestGzipRoundTrip(t *testing.T) {
	var z Gzip
	for _, body := range [][]byte{
		[]byte("cpu,host=a usage=1 1000\n"),
		bytes.Repeat([]byte("mem,host=b free=123456789 2000\n"), 1000),
		{},
	} {
		gz, err := z.Compress(body)
		if err != nil {
			t.Fatal(err)
		}
		r, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, body) {
			t.Fatalf("%d bytes read back, want the %d compressed", len(got), len(body))
		}
	}
}
