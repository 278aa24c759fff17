package httpclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/tsbench/tsbench/internal/target"
)

// Poster sends one benchmark client's writes: a POST, to one URL, of a body
// the target serialised into its own buffer, over one kept-alive
// connection. It is the write path of the targets whose cost per point
// matters most (InfluxDB, VictoriaMetrics); their other requests keep
// net/http (New).
//
// It is built on fasthttp rather than net/http because of what a request
// costs the client: in the lean-baseline shape (1,000-point bodies) a bare
// writer sending bodies serialised in advance spent 0.15-0.21 CPU-µs per
// point through net/http and 0.06-0.11 through fasthttp (net/http adds a
// reader goroutine per connection, and a request, a response and header
// maps per request).
// The request and response are kept and reused, the body is sent as is
// (not copied), and header and body leave in one write.
//
// A request runs under its context as with net/http: the context's deadline
// is the request's, and a cancelled context (an interrupted run) closes the
// connection, which ends a request blocked on a stalled server at once.
type Poster struct {
	url  string // for messages: the URL without its query
	hc   *fasthttp.HostClient
	req  *fasthttp.Request
	resp *fasthttp.Response

	dials atomic.Int64
	abort func() // p.closeConn, made once

	mu       sync.Mutex
	conn     net.Conn // the connection last opened; closed to abort a request
	inFlight bool     // a request runs: an abort may close its connection
	aborted  bool     // an abort closed it
}

// writeBuffer holds a request's header and body for one write to the
// socket; a longer body is written in two. Buffers are pooled by fasthttp
// and held only while a request is written.
const writeBuffer = 64 << 10

// NewPoster returns a Poster for rawURL ("http://host:port/path?query");
// header lists names and values in turn, set on every request.
func NewPoster(rawURL string, header ...string) (*Poster, error) {
	rest, ok := strings.CutPrefix(rawURL, "http://")
	if !ok {
		return nil, fmt.Errorf("post to %s: only http:// URLs are supported", rawURL)
	}
	addr, _, _ := strings.Cut(rest, "/")
	p := &Poster{url: strings.SplitN(rawURL, "?", 2)[0],
		req: fasthttp.AcquireRequest(), resp: fasthttp.AcquireResponse()}
	p.abort = p.closeConn
	p.hc = &fasthttp.HostClient{
		Addr:                     addr,
		MaxConns:                 1, // one request at a time per benchmark client
		DialTimeout:              p.dial,
		MaxIdleConnDuration:      5 * time.Second,
		WriteBufferSize:          writeBuffer,
		NoDefaultUserAgentHeader: true,
		DisablePathNormalizing:   true,
	}
	p.req.SetRequestURI(rawURL)
	p.req.Header.SetMethod(fasthttp.MethodPost)
	for i := 0; i+1 < len(header); i += 2 {
		p.req.Header.Set(header[i], header[i+1])
	}
	return p, nil
}

func (p *Poster) dial(addr string, timeout time.Duration) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", addr, min(timeout, 10*time.Second))
	if err != nil {
		return nil, err
	}
	p.dials.Add(1)
	p.mu.Lock()
	p.conn = c
	p.mu.Unlock()
	return c, nil
}

// closeConn aborts the request in flight. The context runs it on a
// goroutine of its own, which may be scheduled after the request ended: it
// then does nothing, rather than close the next request's connection.
func (p *Poster) closeConn() {
	p.mu.Lock()
	if p.inFlight && p.conn != nil {
		p.conn.Close()
		p.aborted = true
	}
	p.mu.Unlock()
}

func (p *Poster) setInFlight(on bool) (aborted bool) {
	p.mu.Lock()
	p.inFlight, aborted = on, p.aborted
	p.aborted = false
	p.mu.Unlock()
	return aborted
}

// Post sends body and returns nil on a 2xx answer. Any other answer is an
// error naming the URL, the status and the server's text (trimmed); a
// connection the server closed before answering is target.ErrConnection.
func (p *Poster) Post(ctx context.Context, body []byte) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Hour)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("POST %s: %w", p.url, err)
	}
	p.req.SetBodyRaw(body)
	p.setInFlight(true)
	stop := context.AfterFunc(ctx, p.abort)
	err := p.hc.DoDeadline(p.req, p.resp, deadline)
	stop()
	if p.setInFlight(false) {
		// Cancelled while the request ran: its connection is closed, and
		// if the answer came first, it is back in the pool, closed.
		p.hc.CloseIdleConnections()
		if cerr := ctx.Err(); cerr != nil && err != nil {
			err = cerr
		}
	}
	p.req.SetBodyRaw(nil)
	switch {
	case err != nil:
		switch {
		case errors.Is(err, fasthttp.ErrTimeout):
			err = context.DeadlineExceeded // what net/http says, and not a net.Error here
		case errors.Is(err, fasthttp.ErrConnectionClosed):
			err = fmt.Errorf("%w: %w", target.ErrConnection, err)
		}
		return fmt.Errorf("POST %s: %w", p.url, err)
	case p.resp.StatusCode()/100 != 2:
		return fmt.Errorf("POST %s: %s: %s", p.url, status(p.resp.StatusCode()), trim(p.resp.Body()))
	}
	return nil
}

// Reconnects is the number of connections opened after the first: each
// replaced one the server (or a timeout, or a cancelled request) closed.
func (p *Poster) Reconnects() int64 { return max(0, p.dials.Load()-1) }

// Close closes the idle connection.
func (p *Poster) Close() { p.hc.CloseIdleConnections() }

// status is the status line's code and text, as net/http's Response.Status.
func status(code int) string {
	return strconv.Itoa(code) + " " + fasthttp.StatusMessage(code)
}

func trim(body []byte) string {
	msg := strings.TrimSpace(string(body))
	if len(msg) > 500 {
		msg = msg[:500] + "..."
	}
	return msg
}
