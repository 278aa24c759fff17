package httpclient

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// responseHead is what the Poster needs of an HTTP/1.x response's head.
type responseHead struct {
	status  int
	length  int  // Content-Length; -1 when the head gives none
	chunked bool // Transfer-Encoding ends in chunked
	close   bool // the server closes the connection after this response
	// written is a remote write 2.0 receiver's count of the samples it
	// wrote, float samples and native histogram samples
	// (X-Prometheus-Remote-Write-Samples-Written and -Histograms-Written
	// added); -1 when the head gives neither.
	written int64
}

// noBody reports whether the response has no body whatever its head says
// (RFC 9112 section 6.3: 1xx, 204, 304; the Poster never sends HEAD).
func (h *responseHead) noBody() bool {
	return h.status/100 == 1 || h.status == 204 || h.status == 304
}

// errMalformed is a response the Poster cannot read; the connection is then
// closed, as its framing is lost.
var errMalformed = errors.New("malformed HTTP response")

var headEnd = []byte("\r\n\r\n")

// parseHead parses the response head at the start of b. It returns the
// head's length (blank line included), or 0 if b does not hold all of it
// yet. Only the status and the headers that frame the body are read.
// SamplesWrittenHeader is the header in which a remote write 2.0 receiver
// says how many samples of a request it wrote.
const SamplesWrittenHeader = "X-Prometheus-Remote-Write-Samples-Written"

// HistogramsWrittenHeader is the header in which it says how many native
// histogram samples it wrote: a request's samples are both headers'.
const HistogramsWrittenHeader = "X-Prometheus-Remote-Write-Histograms-Written"

func parseHead(b []byte) (responseHead, int, error) {
	h := responseHead{length: -1, written: -1}
	end := bytes.Index(b, headEnd)
	if end < 0 {
		return h, 0, nil
	}
	lines := b[:end]
	line, rest, _ := bytes.Cut(lines, []byte("\r\n"))
	// "HTTP/1.1 204 No Content": the version, a space, three digits, and a
	// space before the reason phrase (which may be empty).
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' ||
		(len(line) > 12 && line[12] != ' ') {
		return h, 0, fmt.Errorf("%w: status line %q", errMalformed, clip(line))
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil || code < 100 {
		return h, 0, fmt.Errorf("%w: status line %q", errMalformed, clip(line))
	}
	h.status = code
	h.close = line[7] == '0' // HTTP/1.0 closes unless it says keep-alive
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, []byte("\r\n"))
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return h, 0, fmt.Errorf("%w: header line %q", errMalformed, clip(line))
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.Atoi(string(value))
			if err != nil || n < 0 || (h.length >= 0 && n != h.length) {
				return h, 0, fmt.Errorf("%w: Content-Length %q", errMalformed, clip(value))
			}
			h.length = n
		case bytes.EqualFold(name, []byte(SamplesWrittenHeader)), bytes.EqualFold(name, []byte(HistogramsWrittenHeader)):
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil || n < 0 {
				return h, 0, fmt.Errorf("%w: %s %q", errMalformed, name, clip(value))
			}
			h.written = max(h.written, 0) + n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			last := value[bytes.LastIndexByte(value, ',')+1:]
			h.chunked = bytes.EqualFold(bytes.TrimSpace(last), []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			switch {
			case bytes.EqualFold(value, []byte("close")):
				h.close = true
			case bytes.EqualFold(value, []byte("keep-alive")):
				h.close = false
			}
		}
	}
	if h.chunked {
		h.length = -1 // chunked framing wins over a Content-Length (RFC 9112 6.3)
	}
	return h, end + len(headEnd), nil
}

// clip keeps a malformed line short in a message.
func clip(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}
