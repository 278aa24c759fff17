package pgwire

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// BlockingDial connects as net.Dialer does, then hands the socket over to
// blocking reads and writes made by the calling goroutine's thread
// (blockingConn). Go's network poller waits for a socket with epoll and
// wakes the goroutine through the scheduler: for a query of 50 µs that is
// a failed read, an epoll wait and a futex wake-up more per round trip
// than a blocking read, a quarter of the client's CPU (docs/measuring.md,
// "What tsbench adds to a round trip"). A thread blocked in a read costs
// the scheduler nothing while other goroutines have processors to run on.
func BlockingDial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c, nil
	}
	if err := tc.SetNoDelay(true); err != nil {
		return nil, err
	}
	// File duplicates the socket in blocking mode; the dialed one closes.
	f, err := tc.File()
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(int(f.Fd()), false); err != nil {
		f.Close()
		return nil, err
	}
	return &blockingConn{f: f, fd: int(f.Fd()), local: c.LocalAddr(), remote: c.RemoteAddr()}, nil
}

// blockingConn is a TCP connection read and written with blocking system
// calls. A deadline cannot interrupt a blocked call; a deadline already
// past (how pgx interrupts a statement whose context ended) shuts the
// socket down instead, which ends the call and the connection, as pgx
// would close it anyway. A future deadline is not kept: every operation
// runs under a context that pgx turns into such an interruption.
type blockingConn struct {
	f             *os.File // keeps fd open
	fd            int
	local, remote net.Addr
	shut          atomic.Bool
}

func (c *blockingConn) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, c.opError("read", err)
		case n == 0 && len(p) > 0:
			if c.shut.Load() {
				return 0, c.opError("read", os.ErrDeadlineExceeded)
			}
			return 0, io.EOF
		}
		return n, nil
	}
}

func (c *blockingConn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := syscall.Write(c.fd, p[written:])
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return written, c.opError("write", err)
		}
		written += n
	}
	return written, nil
}

// opError is err as the net package reports one, a deadline's as a
// timeout.
func (c *blockingConn) opError(op string, err error) error {
	if c.shut.Load() {
		err = os.ErrDeadlineExceeded
	}
	return &net.OpError{Op: op, Net: "tcp", Source: c.local, Addr: c.remote, Err: err}
}

func (c *blockingConn) Close() error         { return c.f.Close() }
func (c *blockingConn) LocalAddr() net.Addr  { return c.local }
func (c *blockingConn) RemoteAddr() net.Addr { return c.remote }

func (c *blockingConn) SetDeadline(t time.Time) error      { return c.deadline(t) }
func (c *blockingConn) SetReadDeadline(t time.Time) error  { return c.deadline(t) }
func (c *blockingConn) SetWriteDeadline(t time.Time) error { return c.deadline(t) }

func (c *blockingConn) deadline(t time.Time) error {
	if t.IsZero() || t.After(time.Now()) {
		return nil
	}
	c.shut.Store(true)
	return syscall.Shutdown(c.fd, syscall.SHUT_RDWR)
}
