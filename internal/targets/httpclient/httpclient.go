// Package httpclient builds the HTTP client of the targets that talk to
// their server over HTTP (InfluxDB, VictoriaMetrics, QuestDB, ClickHouse,
// OpenTSDB, KairosDB, the Prometheus stores), and Exchange, one request
// with its status checked.
package httpclient

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
)

// New returns a client for one benchmark client's requests: connections are
// kept alive (a handshake per request would be measured, not the server),
// never go through a proxy, and keep Go's TCP_NODELAY — whose absence in
// IoT-benchmark's InfluxDB client stalls every request by ~40 ms. Bodies are
// not compressed unless a target asks for it itself. A connection the server
// closed is replaced on the next request; Reconnects counts those.
func New() *http.Client {
	t := &countingTransport{}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	t.base = &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			// under a client's arrival clock, its reads stamped (arrival.Dial)
			c, err := arrival.Dial(dialer.DialContext)(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			t.dials.Add(1)
			return pooledConn{c}, nil
		},
		MaxIdleConnsPerHost: 4,
		DisableCompression:  true,
	}
	return &http.Client{Transport: t}
}

// pooledConn is a connection whose ReadFrom copies through a pooled
// buffer. net/http writes a request body with io.Copy into the connection,
// through a LimitedReader (so the body's own WriteTo is not used), and
// *net.TCPConn's ReadFrom, with no file to splice from, copies through a
// fresh 32 KB buffer: an allocation the size of the body per request, most
// of what a write to an HTTP target allocated.
type pooledConn struct{ net.Conn }

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (c pooledConn) ReadFrom(r io.Reader) (int64, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	return io.CopyBuffer(writerOnly{c.Conn}, r, *buf)
}

// writerOnly hides the connection's own ReadFrom from io.CopyBuffer.
type writerOnly struct{ io.Writer }

// countingTransport is an http.Transport that counts the connections it
// opened.
type countingTransport struct {
	base  *http.Transport
	dials atomic.Int64
	auth  string // the Authorization header's value, set on requests without one (Endpoint)
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.auth != "" && r.Header.Get("Authorization") == "" {
		r = r.Clone(r.Context()) // a RoundTripper must not change the caller's request
		r.Header.Set("Authorization", t.auth)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil && t.base.TLSClientConfig != nil {
		err = tlsError(err)
	}
	return resp, err
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// transport.
func (t *countingTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// Reconnects is the number of connections c opened after its first: one
// benchmark client sends one request at a time, so each further connection
// replaced one the server (or a timeout) closed.
func Reconnects(c *http.Client) int64 {
	if t, ok := c.Transport.(*countingTransport); ok {
		return max(0, t.dials.Load()-1)
	}
	return 0
}

// Do sends one request with an optional body and returns the answer's body
// (see Exchange): with a *StatusError for a status other than 2xx.
func Do(ctx context.Context, c *http.Client, method, url string, body []byte, header map[string]string) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	h := make(http.Header, len(header))
	for k, v := range header {
		h.Set(k, v)
	}
	data, _, err := Exchange(ctx, c, method, url, rd, h, nil)
	return data, err
}
