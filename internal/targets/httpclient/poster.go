package httpclient

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httputil"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/targets"
)

// Poster sends one benchmark client's writes: a POST, to one URL, of a body
// the target serialised into its own buffer, over one kept-alive HTTP/1.1
// connection. It is the write path of the targets whose cost per point
// matters most (InfluxDB, VictoriaMetrics); their other requests keep
// net/http (New).
//
// It speaks HTTP/1.1 itself, the little of it a write needs, because of what
// a request costs the client. In the lean-baseline shape (1,000-point
// bodies, 10 clients, the server on the same two cores) a bare writer
// sending bodies serialised in advance spent, per point, 0.15-0.21 CPU-µs
// through net/http, 0.07-0.10 through fasthttp, and 0.03-0.04 writing the
// same request with raw system calls (sysConn) and reading the answer into
// a reused buffer. The request's head is built once; head and body leave in
// one writev, the body as is; the answer's head is parsed for its status
// and framing only. Nothing is allocated per request: the abort's
// registration with the context is kept while the context stays (watch).
//
// A request runs under its context as with net/http: the context's deadline
// is the request's, and a cancelled context (an interrupted run) closes the
// connection, which ends a request blocked on a stalled server at once.
// Nothing is retried: a POST the server may have applied is not sent twice.
type Poster struct {
	url  string // for messages: the URL without its query
	addr string
	head []byte // request line and headers, ending in "Content-Length: "
	req  []byte // head, the body's length and the blank line: reused
	resp []byte // the answer: reused, grown for a long one

	conn      *net.TCPConn
	sys       *sysConn    // the plain connection's reads and writes
	tls       *tls.Conn   // over conn, for https (sys is then nil)
	tlsConfig *tls.Config // nil: plain http
	used      time.Time   // when the connection last finished a request
	deadline  time.Time   // the connection's deadline, as last set (zero: none)
	dials     atomic.Int64
	abort     func() // p.closeConn, made once

	// The abort's registration with the context, kept from request to
	// request while the context stays the same (a runner client's
	// operation context, re-armed for each): registering costs two
	// allocations and a lock. done is the context's Done channel when it
	// was made; a context that was cancelled and re-armed has a new one,
	// and its old registration has run.
	stop func() bool
	done <-chan struct{}

	mu      sync.Mutex
	ctx     context.Context // the request in flight's (nil between requests): an abort may close its connection
	aborted bool            // an abort closed it
}

const (
	// maxIdle is how long an idle connection is trusted: older ones are
	// replaced before a write rather than risk one the server is closing.
	maxIdle = 5 * time.Second
	// maxResponse bounds an answer held in memory (error texts are
	// trimmed to 500 bytes anyway).
	maxResponse = 1 << 20
	dialTimeout = 10 * time.Second
	// deadlineSlack is how far past a request's deadline the connection's
	// may lie (exchange).
	deadlineSlack = time.Second
)

// NewPoster returns a Poster for rawURL ("http://host:port/path?query", or
// https:// verified against the system's authorities); header lists names
// and values in turn, set on every request. Endpoint.Poster gives one with
// the TLS settings of the TLS keys.
func NewPoster(rawURL string, header ...string) (*Poster, error) {
	return newPoster(rawURL, nil, header...)
}

// newPoster is NewPoster with cfg for an https URL (nil: the defaults).
func newPoster(rawURL string, cfg *tls.Config, header ...string) (*Poster, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("post to %s: only http:// and https://host:port/path URLs are supported", rawURL)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	p := &Poster{url: strings.SplitN(rawURL, "?", 2)[0], addr: addr, resp: make([]byte, 4096)}
	if u.Scheme == "https" {
		if cfg == nil {
			cfg = &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
		}
		p.tlsConfig = cfg
	}
	p.abort = p.closeConn
	p.head = fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\n", u.RequestURI(), u.Host)
	for i := 0; i+1 < len(header); i += 2 {
		p.head = fmt.Appendf(p.head, "%s: %s\r\n", header[i], header[i+1])
	}
	p.head = append(p.head, "Content-Length: "...)
	return p, nil
}

// closeConn aborts the request in flight. The context runs it on a
// goroutine of its own, which may be scheduled after the request ended, or
// once the next has begun under the same context re-armed: it then does
// nothing (no request, or its context is not cancelled), rather than close
// a connection a live request uses.
func (p *Poster) closeConn() {
	p.mu.Lock()
	if p.ctx != nil && p.conn != nil && p.ctx.Err() != nil {
		p.conn.Close()
		p.aborted = true
	}
	p.mu.Unlock()
}

// begin records ctx as the context of the request about to run, which
// closeConn aborts once ctx is cancelled.
func (p *Poster) begin(ctx context.Context) {
	p.mu.Lock()
	p.ctx, p.aborted = ctx, false
	p.mu.Unlock()
}

// end records that no request is in flight (closeConn then does nothing)
// and reports whether closeConn aborted the one that ran.
func (p *Poster) end() (aborted bool) {
	p.mu.Lock()
	p.ctx, aborted, p.aborted = nil, p.aborted, false
	p.mu.Unlock()
	return aborted
}

// watch makes sure a cancellation of ctx aborts the request about to run:
// the registration made for an earlier request stands while ctx has the
// same Done channel (a context that never ends needs none).
func (p *Poster) watch(ctx context.Context) {
	done := ctx.Done()
	if done == p.done {
		return
	}
	p.unwatch()
	if done != nil {
		p.stop, p.done = context.AfterFunc(ctx, p.abort), done
	}
}

func (p *Poster) unwatch() {
	if p.stop != nil {
		p.stop()
	}
	p.stop, p.done = nil, nil
}

// Post sends body and returns nil on a 2xx answer. Any other answer is an
// error naming the URL, the status and the server's text (trimmed); a
// connection the server closed before answering is targets.ErrConnection.
func (p *Poster) Post(ctx context.Context, body []byte) error {
	_, err := p.PostAnswered(ctx, body)
	return err
}

// Answer is what a success said: the samples a remote write 2.0 receiver
// wrote (SamplesWrittenHeader; -1 when it does not say), and its body,
// valid until the Poster's next request.
type Answer struct {
	Written int64
	Body    []byte
}

// PostAnswered is Post that also returns what the success said.
func (p *Poster) PostAnswered(ctx context.Context, body []byte) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Answer{Written: -1}, fmt.Errorf("POST %s: %w", p.url, err)
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Hour)
	}
	p.begin(ctx)
	p.watch(ctx)
	h, text, err := p.exchange(ctx, deadline, body)
	aborted := p.end() // cancelled while the request ran: its connection is closed
	if aborted && err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if aborted || err != nil {
		p.drop()
	}
	switch {
	case err != nil:
		if errors.Is(err, os.ErrDeadlineExceeded) {
			err = context.DeadlineExceeded // what net/http says, and not a net.Error here
		}
		return Answer{Written: -1}, fmt.Errorf("POST %s: %w", p.url, err)
	case h.status/100 != 2:
		return Answer{Written: h.written}, fmt.Errorf("POST %s: %w", p.url, &StatusError{Code: h.status, Text: trimAnswer(text)})
	}
	return Answer{Written: h.written, Body: text}, nil
}

// exchange sends one request and reads its answer: its head and body.
func (p *Poster) exchange(ctx context.Context, deadline time.Time, body []byte) (responseHead, []byte, error) {
	if p.conn != nil && time.Since(p.used) > maxIdle {
		p.drop()
	}
	if p.conn == nil {
		if err := p.dial(ctx, deadline); err != nil {
			return responseHead{}, nil, err
		}
	}
	if deadline.After(p.deadline) || p.deadline.Sub(deadline) > deadlineSlack {
		// The connection's deadline is a backstop: a context that ends,
		// by its deadline or a cancel, closes the connection through the
		// abort. So it may run up to deadlineSlack past the request's,
		// and is moved about once per slack rather than for each request
		// (whose deadline moves with the clock), which takes the
		// runtime's timer locks twice.
		d := deadline.Add(deadlineSlack)
		if err := p.conn.SetDeadline(d); err != nil {
			return responseHead{}, nil, err
		}
		p.deadline = d
	}
	p.req = strconv.AppendInt(append(p.req[:0], p.head...), int64(len(body)), 10)
	p.req = append(p.req, "\r\n\r\n"...)
	if err := p.write(body); err != nil {
		return responseHead{}, nil, err
	}
	h, text, err := p.readResponse()
	if err != nil {
		return responseHead{}, nil, err
	}
	if h.close {
		p.drop()
	} else {
		p.used = time.Now()
	}
	return h, text, nil
}

func (p *Poster) dial(ctx context.Context, deadline time.Time) error {
	d := net.Dialer{Deadline: deadline, Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		return err
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		c.Close()
		return fmt.Errorf("dial %s: not a TCP connection", p.addr)
	}
	var sys *sysConn
	var tc2 *tls.Conn
	if p.tlsConfig != nil {
		// The handshake runs under the request's context and deadline; a
		// server that answers it in plaintext is ErrNoTLS (tlsError), and
		// nothing is retried without TLS.
		tc2 = tls.Client(arrival.Wrap(tc, arrival.FromContext(ctx)), p.tlsConfig)
		hctx, cancel := context.WithDeadline(ctx, deadline)
		err = handshake(hctx, tc2)
		cancel()
		if err != nil {
			c.Close()
			return err
		}
	} else {
		if sys, err = newSysConn(tc); err != nil {
			c.Close()
			return err
		}
		sys.stamp(arrival.FromContext(ctx)) // under a client's arrival clock
	}
	p.dials.Add(1)
	p.mu.Lock()
	p.conn, p.sys, p.tls, p.deadline = tc, sys, tc2, time.Time{}
	p.mu.Unlock()
	return nil
}

// write sends the request's head (p.req) and body: in one writev on a
// plain connection; over TLS, as one Write of the two joined in p.req (a
// copy into a reused buffer, which the encryption copies anyway), so that
// head and body leave in the same records rather than a short one first.
func (p *Poster) write(body []byte) error {
	if p.tls == nil {
		return p.sys.writev(p.req, body)
	}
	p.req = append(p.req, body...)
	_, err := p.tls.Write(p.req)
	return err
}

// read reads into b what the connection has, waiting until it has
// something.
func (p *Poster) read(b []byte) (int, error) {
	if p.tls == nil {
		return p.sys.read(b)
	}
	return p.tls.Read(b)
}

// drop closes the connection; the next request opens another.
func (p *Poster) drop() {
	p.mu.Lock()
	if p.conn != nil {
		// The TCP connection itself, over TLS too: no close_notify, which
		// could wait on a write, and a request's framing already says
		// where its answer ends.
		p.conn.Close()
	}
	p.conn, p.sys, p.tls = nil, nil, nil
	p.mu.Unlock()
}

// readResponse reads one answer into p.resp and returns its head and its
// body. A final answer must follow any 1xx ones.
func (p *Poster) readResponse() (responseHead, []byte, error) {
	have := 0
	for {
		h, n, err := parseHead(p.resp[:have])
		if err != nil {
			return h, nil, err
		}
		if n == 0 {
			if have, err = p.fill(have); err != nil {
				return h, nil, err
			}
			continue
		}
		if h.status/100 == 1 { // an interim answer: the final one follows
			have = copy(p.resp, p.resp[n:have])
			continue
		}
		body, err := p.readBody(&h, n, have)
		return h, body, err
	}
}

// fill reads more of the answer after the have bytes already in p.resp.
func (p *Poster) fill(have int) (int, error) {
	if have == len(p.resp) {
		if len(p.resp) >= maxResponse {
			return have, fmt.Errorf("%w: answer longer than %d bytes", errMalformed, maxResponse)
		}
		p.resp = append(p.resp, make([]byte, len(p.resp))...)
	}
	n, err := p.read(p.resp[have:])
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("%w: the server closed the connection", targets.ErrConnection)
		if have > 0 {
			err = fmt.Errorf("%w: the server closed the connection mid-answer", targets.ErrConnection)
		}
	}
	return have + n, err
}

// readBody reads the body that follows the head's n bytes, of which have
// are in p.resp.
func (p *Poster) readBody(h *responseHead, n, have int) ([]byte, error) {
	switch {
	case h.noBody():
		if have > n {
			return nil, fmt.Errorf("%w: bytes after a %d answer", errMalformed, h.status)
		}
		return nil, nil
	case h.chunked:
		h.close = true // framing read by net/http's decoder, which reads ahead
		body, err := io.ReadAll(io.LimitReader(httputil.NewChunkedReader(io.MultiReader(
			bytes.NewReader(p.resp[n:have]), readerFunc(p.read))), maxResponse))
		return body, err
	case h.length < 0: // the body runs to the connection's end
		h.close = true
		for {
			var err error
			if have, err = p.fill(have); err != nil {
				if errors.Is(err, targets.ErrConnection) {
					return p.resp[n:have], nil
				}
				return nil, err
			}
		}
	}
	end := n + h.length
	if end > maxResponse {
		return nil, fmt.Errorf("%w: answer longer than %d bytes", errMalformed, maxResponse)
	}
	for have < end {
		var err error
		if have, err = p.fill(have); err != nil {
			return nil, err
		}
	}
	if have > end {
		return nil, fmt.Errorf("%w: bytes after the answer", errMalformed)
	}
	return p.resp[n:end], nil
}

// readerFunc is a read function as an io.Reader.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// Reconnects is the number of connections opened after the first: each
// replaced one the server (or a timeout, or a cancelled request) closed.
func (p *Poster) Reconnects() int64 { return max(0, p.dials.Load()-1) }

// Close closes the connection.
func (p *Poster) Close() {
	p.unwatch()
	p.drop()
}
