package hbase

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// RemoteError is an exception the HBase server answered a call with.
type RemoteError struct {
	Class string // Java class name, e.g. org.apache.hadoop.hbase.TableNotFoundException
	Stack string
}

func (e *RemoteError) Error() string {
	msg, _, _ := strings.Cut(e.Stack, "\n")
	return e.Class + ": " + msg
}

// decode fills e from an exception message: HBase's ExceptionResponse and
// GenericExceptionMessage both carry the class name as field 1 and the
// stack trace or message as field 2.
func (e *RemoteError) decode(msg []byte) error {
	return eachField(msg, func(f pbField) error {
		switch f.num {
		case 1:
			e.Class = string(f.data)
		case 2:
			e.Stack = string(f.data)
		}
		return nil
	})
}

// isRemote reports whether err is a server exception whose class name ends
// with one of names.
func isRemote(err error, names ...string) bool {
	var re *RemoteError
	if !errors.As(err, &re) {
		return false
	}
	for _, n := range names {
		if strings.HasSuffix(re.Class, n) {
			return true
		}
	}
	return false
}

// retriable says the call may succeed when retried after a region lookup.
func retriable(err error) bool {
	return isRemote(err, "NotServingRegionException", "RegionMovedException", "RegionOpeningException",
		"RegionTooBusyException", "PleaseHoldException", "ServerNotRunningYetException",
		"RetryImmediatelyException", "CallQueueTooBigException", "RegionServerStoppedException")
}

// callTimeout bounds a call (and a dial, and a ZooKeeper read) whose
// context has no deadline of its own.
const callTimeout = 2 * time.Minute

// withDeadline returns ctx, with a deadline callTimeout away when it has
// none.
func withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, callTimeout)
}

type reply struct {
	msg []byte
	err error
}

// rpcConn is one connection to an HBase server speaking its native RPC
// protocol (a "HBas" preamble, a ConnectionHeader, then length-framed calls
// each made of a RequestHeader and a request message). Calls are pipelined:
// many goroutines may wait on one connection, answers are matched by call id.
type rpcConn struct {
	addr string
	nc   net.Conn

	wmu sync.Mutex // serialises writes

	mu      sync.Mutex
	nextID  uint32
	pending map[uint32]chan reply
	err     error // set once the connection broke
}

// dialRPC connects to addr and announces service (ClientService or
// MasterService) with simple authentication as user.
func dialRPC(ctx context.Context, addr, service, user string) (*rpcConn, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	hdr := pb{}.bytes(1, pb{}.str(1, user)).str(2, service)
	buf := append([]byte("HBas\x00\x50"), 0, 0, 0, 0) // version 0, SIMPLE auth
	binary.BigEndian.PutUint32(buf[6:], uint32(len(hdr)))
	if dl, ok := ctx.Deadline(); ok {
		nc.SetWriteDeadline(dl)
	}
	if _, err := nc.Write(append(buf, hdr...)); err != nil {
		nc.Close()
		return nil, err
	}
	nc.SetWriteDeadline(time.Time{})
	c := &rpcConn{addr: addr, nc: nc, pending: map[uint32]chan reply{}}
	go c.readLoop()
	return c, nil
}

// broken reports whether the connection can no longer be used.
func (c *rpcConn) broken() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err != nil
}

// call sends one request and waits for its answer or ctx's end.
func (c *rpcConn) call(ctx context.Context, method string, req pb) ([]byte, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	defer c.forget(id)

	hdr := pb{}.uint(1, uint64(id)).str(3, method).bool(4, true)
	if dl, ok := ctx.Deadline(); ok {
		if ms := time.Until(dl).Milliseconds(); ms > 0 {
			hdr = hdr.uint(7, uint64(ms))
		}
	}
	if err := c.write(ctx, hdr, req); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *rpcConn) forget(id uint32) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// write frames header and request: total length, then both delimited.
func (c *rpcConn) write(ctx context.Context, hdr, req pb) error {
	frame := make([]byte, 4, 4+2*binary.MaxVarintLen32+len(hdr)+len(req))
	frame = binary.AppendUvarint(frame, uint64(len(hdr)))
	frame = append(frame, hdr...)
	frame = binary.AppendUvarint(frame, uint64(len(req)))
	frame = append(frame, req...)
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	c.wmu.Lock()
	defer c.wmu.Unlock()
	dl, _ := ctx.Deadline()
	c.nc.SetWriteDeadline(dl)
	if _, err := c.nc.Write(frame); err != nil {
		c.fail(err)
		return err
	}
	return nil
}

// readLoop dispatches answers to waiting calls until the connection breaks.
func (c *rpcConn) readLoop() {
	r := bufio.NewReaderSize(c.nc, 64<<10)
	var size [4]byte
	for {
		if _, err := io.ReadFull(r, size[:]); err != nil {
			c.fail(err)
			return
		}
		frame := make([]byte, binary.BigEndian.Uint32(size[:]))
		if _, err := io.ReadFull(r, frame); err != nil {
			c.fail(err)
			return
		}
		id, rep, err := parseReply(frame)
		if err != nil {
			c.fail(err)
			return
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id) // answered: fail must not answer it again
		c.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
}

// parseReply decodes a ResponseHeader and the response message after it.
func parseReply(frame []byte) (uint32, reply, error) {
	hdr, rest, err := delimited(frame)
	if err != nil {
		return 0, reply{}, err
	}
	var id uint32
	var exc *RemoteError
	err = eachField(hdr, func(f pbField) error {
		switch f.num {
		case 1:
			id = uint32(f.u)
		case 2:
			exc = &RemoteError{}
			return exc.decode(f.data)
		case 3:
			return errors.New("hbase: server sent a cell block, which was not asked for")
		}
		return nil
	})
	if err != nil || exc != nil {
		return id, reply{err: exc}, err
	}
	msg, _, err := delimited(rest)
	if len(rest) == 0 {
		msg, err = nil, nil // empty response message
	}
	return id, reply{msg: msg}, err
}

// fail breaks the connection and fails every waiting call.
func (c *rpcConn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = fmt.Errorf("hbase: connection to %s: %w", c.addr, err)
	c.nc.Close()
	for id, ch := range c.pending {
		ch <- reply{err: c.err}
		delete(c.pending, id)
	}
}

func (c *rpcConn) close() { c.fail(net.ErrClosed) }
