package httpclient

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestParseHead(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want responseHead
		done bool // the head is complete
		err  bool
	}{
		{"no content", "HTTP/1.1 204 No Content\r\nX-Influxdb-Version: 1.8.10\r\nDate: x\r\n\r\n",
			responseHead{status: 204, length: -1, written: -1}, true, false},
		{"length", "HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n{\"error\":1}\n",
			responseHead{status: 400, length: 12, written: -1}, true, false},
		{"chunked wins", "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 3\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n",
			responseHead{status: 500, length: -1, chunked: true, written: -1}, true, false},
		{"close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
			responseHead{status: 200, length: 0, close: true, written: -1}, true, false},
		{"1.0 closes", "HTTP/1.0 200 OK\r\n\r\n", responseHead{status: 200, length: -1, close: true, written: -1}, true, false},
		{"1.0 kept alive", "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\n\r\n", responseHead{status: 200, length: -1, written: -1}, true, false},
		{"no reason", "HTTP/1.1 204\r\n\r\n", responseHead{status: 204, length: -1, written: -1}, true, false},
		{"incomplete", "HTTP/1.1 204 No Content\r\nDate: x\r\n", responseHead{length: -1, written: -1}, false, false},
		{"empty", "", responseHead{length: -1, written: -1}, false, false},
		{"not http", "SSH-2.0-OpenSSH\r\n\r\n", responseHead{}, false, true},
		{"bad code", "HTTP/1.1 2x4 No\r\n\r\n", responseHead{}, false, true},
		{"code too low", "HTTP/1.1 099 No\r\n\r\n", responseHead{}, false, true},
		{"four digits", "HTTP/1.1 2040 No\r\n\r\n", responseHead{}, false, true},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", responseHead{}, false, true},
		{"two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", responseHead{}, false, true},
		{"samples written", "HTTP/1.1 204 No Content\r\nx-prometheus-remote-write-samples-written: 4100\r\n\r\n",
			responseHead{status: 204, length: -1, written: 4100}, true, false},
		{"samples and histograms written", "HTTP/1.1 204 No Content\r\nX-Prometheus-Remote-Write-Samples-Written: 4000\r\n" +
			"X-Prometheus-Remote-Write-Histograms-Written: 100\r\n\r\n", responseHead{status: 204, length: -1, written: 4100}, true, false},
		{"histograms only", "HTTP/1.1 204 No Content\r\nX-Prometheus-Remote-Write-Histograms-Written: 7\r\n\r\n",
			responseHead{status: 204, length: -1, written: 7}, true, false},
		{"bad samples written", "HTTP/1.1 204 No Content\r\nX-Prometheus-Remote-Write-Samples-Written: many\r\n\r\n",
			responseHead{}, false, true},
		{"no colon", "HTTP/1.1 200 OK\r\nbroken\r\n\r\n", responseHead{}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, n, err := parseHead([]byte(c.in))
			if (err != nil) != c.err {
				t.Fatalf("error %v, want error: %v", err, c.err)
			}
			if c.err {
				if !errors.Is(err, errMalformed) {
					t.Errorf("error %v is not errMalformed", err)
				}
				return
			}
			want := 0
			if c.done {
				want = strings.Index(c.in, "\r\n\r\n") + 4
			}
			if n != want || h != c.want {
				t.Errorf("parseHead = %+v, %d; want %+v, %d", h, n, c.want, want)
			}
		})
	}
}

// Whatever the bytes, parseHead returns a head within them or an error,
// and never panics.
func FuzzParseHead(f *testing.F) {
	f.Add([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello"))
	f.Add([]byte("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, n, err := parseHead(b)
		switch {
		case err != nil:
			if !errors.Is(err, errMalformed) {
				t.Fatalf("error %v is not errMalformed", err)
			}
		case n > 0:
			if n > len(b) || !bytes.HasSuffix(b[:n], headEnd) {
				t.Fatalf("head of %d bytes in %d: %q", n, len(b), b)
			}
			if h.status < 100 || h.status > 999 || (h.chunked && h.length != -1) || h.length < -1 {
				t.Fatalf("head %+v from %q", h, b)
			}
		}
	})
}

// The answers a server may frame otherwise than with a Content-Length: a
// chunked error text, an interim 100 before the final answer, a body that
// runs to the connection's end, a Connection: close. Each is read whole,
// and the connection is kept only when the server keeps it.
func TestPosterReadsFraming(t *testing.T) {
	cases := []struct {
		name       string
		answer     string
		hangUp     bool   // the server closes the connection after answering
		err        string // "" for success
		reconnects int64  // over three writes
	}{
		{"chunked error", "HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"6\r\nengine\r\n9\r\n is down\n\r\n0\r\n\r\n", false, "500 Internal Server Error: engine is down", 2},
		{"interim first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", false, "", 0},
		{"to the end", "HTTP/1.1 503 Service Unavailable\r\n\r\nshutting down", true, "503 Service Unavailable: shutting down", 2},
		{"close", "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n", true, "", 2},
		{"garbage", "HTTP/1.1 204 No Content\r\n\r\nextra", false, "malformed HTTP response", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, hashes := answering(t, func(conn net.Conn) bool {
				_, err := conn.Write([]byte(c.answer))
				return err == nil && !c.hangUp
			})
			p, err := NewPoster(u)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for i := range 3 {
				err := p.Post(ctx, []byte("m s=1 1\n"))
				<-hashes
				switch {
				case c.err == "" && err != nil:
					t.Fatalf("write %d: %v", i, err)
				case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
					t.Fatalf("write %d: error %v, want %q in it", i, err, c.err)
				}
			}
			if n := p.Reconnects(); n != c.reconnects {
				t.Errorf("%d reconnects over three writes, want %d", n, c.reconnects)
			}
		})
	}
}
