package httpclient

import (
	"bytes"
	"compress/gzip"
	"fmt"
)

// Gzip compresses request bodies (Content-Encoding gzip, or a gzip body as
// KairosDB takes one) into a buffer it reuses, through one gzip writer it
// resets: a target that sends every batch gzipped allocates neither per
// request. The zero value is ready; like the rest of a target's connection
// state it is guarded by the target's lock.
type Gzip struct {
	buf bytes.Buffer
	w   *gzip.Writer
}

// Compress returns body gzipped, valid until the next call.
func (z *Gzip) Compress(body []byte) ([]byte, error) {
	z.buf.Reset()
	if z.w == nil {
		z.w = gzip.NewWriter(&z.buf)
	} else {
		z.w.Reset(&z.buf)
	}
	if _, err := z.w.Write(body); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if err := z.w.Close(); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return z.buf.Bytes(), nil
}
