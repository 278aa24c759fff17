//go:build linux

package pgwire

import (
	"container/list"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/targets"
	"golang.org/x/sys/unix"
)

// Loop serves the measured executions of the user's own statements
// (targets.Statement.CountOnly) for many clients from the one goroutine
// that calls it, as pgbench serves its connections from one thread: each
// client's connection is a socket written and read with non-blocking system
// calls and waited on through an epoll of the loop's own, outside Go's
// network poller. A client goroutine that blocks on its answer is parked
// and woken by the runtime for every query, which wakes its other threads
// too: on a query of a millisecond that cost three times pgbench's CPU
// (docs/measuring.md). The engine drives a Loop's clients as state
// machines (engine.AsyncWorker).
//
// Each text is prepared once per session, as Counted does, at most Limit
// of them. A Loop is not safe for concurrent use.
type Loop struct {
	// Limit bounds the texts prepared on a session; zero is DefaultLimit.
	Limit int

	connect func(context.Context) (*pgconn.PgConn, error)
	timeout time.Duration // a connection's opening, a statement's preparing
	epfd    int
	conns   []*loopConn
	events  []unix.EpollEvent
	types   *pgtype.Map
	reopens int64

	// ready holds the answers read right after their executions were sent
	// (Send), which the next Wait reports; stash, made once, appends to it.
	ready []loopAnswer
	stash func(int, time.Time, int64, error)
	// polled is when Wait last asked epoll, which it does at least every
	// chainPoll even while answers keep arriving in Send.
	polled time.Time
	// yield decides whether Send gives up the core and reads again when
	// an answer was not there at once.
	yield yieldGate
	// stamped and unstamped count the answers whose end is the kernel's
	// receive timestamp, and those whose end is when the loop read them.
	stamped, unstamped int64
}

// loopAnswer is an execution's end, kept for Wait to report.
type loopAnswer struct {
	i    int
	at   time.Time
	rows int64
	err  error
}

// loopConn is one client's connection and its execution in flight.
type loopConn struct {
	idx  int    // the client's number: its epoll events carry it
	fd   int    // -1 while closed
	outs bool   // epoll reports the socket writable too: out is not all sent
	out  []byte // messages to send, from out[sent:]
	sent int
	in   []byte // read and not yet taken, from in[r:]
	r    int
	// oob takes the kernel's receive timestamp of what each read returns
	// (SO_TIMESTAMPNS; nil where the socket gives none, as a Unix socket's
	// stream does); arrived is the last read's, zero when it had none.
	oob     []byte
	arrived time.Time

	busy bool  // an execution waits for its ReadyForQuery
	rows int64 // its rows so far
	err  error // its error, if the server sent one

	stmts   map[string]*list.Element
	recent  list.List // of *loopStmt, the most recently run first
	named   int
	params  [][]byte
	encoded [][]byte
}

// loopStmt is a text prepared on a session.
type loopStmt struct {
	text, name string
	oids       []uint32
	formats    []int16
}

// OpenLoop opens clients connections with connect, each served by the
// returned Loop. timeout bounds each opening and each preparation.
func OpenLoop(ctx context.Context, clients int, timeout time.Duration, connect func(context.Context) (*pgconn.PgConn, error)) (*Loop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll: %w", err)
	}
	l := &Loop{connect: connect, timeout: timeout, epfd: epfd, types: pgtype.NewMap(),
		events: make([]unix.EpollEvent, clients), ready: make([]loopAnswer, 0, clients)}
	l.stash = func(i int, at time.Time, rows int64, err error) {
		l.ready = append(l.ready, loopAnswer{i: i, at: at, rows: rows, err: err})
	}
	for i := range clients {
		l.conns = append(l.conns, &loopConn{idx: i, fd: -1, in: make([]byte, 0, 64<<10)})
	}
	for i, c := range l.conns {
		if err := l.open(ctx, i, c); err != nil {
			l.Close()
			return nil, err
		}
	}
	l.reopens = 0
	return l, nil
}

// Reopens counts the connections opened again after one was lost.
func (l *Loop) Reopens() int64 { return l.reopens }

// Close closes every connection.
func (l *Loop) Close() error {
	for _, c := range l.conns {
		l.drop(c)
	}
	return unix.Close(l.epfd)
}

// open connects client i with pgconn, which authenticates, then takes the
// socket from it: a duplicate of its descriptor, the original closed so
// that Go's poller no longer watches it.
func (l *Loop) open(ctx context.Context, i int, c *loopConn) error {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	pg, err := l.connect(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w (%w): %w", targets.ErrConnection, targets.ErrNotSent, err)
	}
	hc, err := pg.Hijack()
	if err != nil {
		pg.Close(ctx)
		return fmt.Errorf("connect: %w", err)
	}
	fd, err := takeSocket(hc.Conn)
	if err != nil {
		return err
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(i)}
	if err := unix.EpollCtl(l.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		unix.Close(fd)
		return fmt.Errorf("epoll: %w", err)
	}
	c.fd, c.outs, c.in, c.r, c.out, c.sent = fd, false, c.in[:0], 0, c.out[:0], 0
	c.stamp()
	c.stmts, c.named = map[string]*list.Element{}, 0
	c.recent.Init()
	l.reopens++
	return nil
}

// takeSocket returns a non-blocking duplicate of conn's descriptor and
// closes conn (a close, not a shutdown: the session lives on the copy).
func takeSocket(conn net.Conn) (int, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		conn.Close()
		return -1, fmt.Errorf("CLIENT_IO=epoll needs a plain TCP or Unix socket, not %T (TLS is not served by the loop)", conn)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		conn.Close()
		return -1, err
	}
	fd := -1
	var dupErr error
	if err := raw.Control(func(s uintptr) { fd, dupErr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		dupErr = err
	}
	conn.Close()
	if dupErr != nil {
		return -1, fmt.Errorf("take socket: %w", dupErr)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("take socket: %w", err)
	}
	return fd, nil
}

// drop closes c's connection; its session and prepared texts are gone.
func (l *Loop) drop(c *loopConn) {
	if c.fd < 0 {
		return
	}
	_ = unix.EpollCtl(l.epfd, unix.EPOLL_CTL_DEL, c.fd, nil)
	unix.Close(c.fd)
	c.fd, c.busy = -1, false
}

// Abort gives up client i's execution in flight (past its deadline): its
// connection is closed, as pgconn closes one whose context ended, and
// opened again on the client's next Send.
func (l *Loop) Abort(i int) {
	l.drop(l.conns[i])
	l.ready = slices.DeleteFunc(l.ready, func(a loopAnswer) bool { return a.i == i })
}

// Send begins client i's execution of st: it prepares st's text on first
// use (a round trip of its own, the other clients' answers left waiting in
// their sockets), then sends Bind, Execute and Sync. Wait reports its end.
func (l *Loop) Send(ctx context.Context, i int, st *targets.Statement) error {
	c := l.conns[i]
	if c.busy {
		return fmt.Errorf("client %d: an execution is already in flight", i)
	}
	if c.fd < 0 {
		if err := l.open(ctx, i, c); err != nil {
			return fmt.Errorf("reconnect: %w", err)
		}
	}
	p, err := l.prepare(c, st.Text)
	if err != nil {
		return fmt.Errorf("own query: prepare: %w", l.failed(c, err))
	}
	if err := l.encode(c, p, st.Args); err != nil {
		return fmt.Errorf("own query: %w", err)
	}
	c.out = c.out[:0]
	c.out, _ = (&pgproto3.Bind{PreparedStatement: p.name, ParameterFormatCodes: p.formats, Parameters: c.params}).Encode(c.out)
	c.out, _ = (&pgproto3.Execute{}).Encode(c.out)
	c.out, _ = (&pgproto3.Sync{}).Encode(c.out)
	c.sent, c.busy, c.rows, c.err = 0, true, 0, nil
	if err := l.flush(c); err != nil {
		return fmt.Errorf("own query: %w", l.failed(c, err))
	}
	if c.sent == len(c.out) {
		// On a core shared with the server, the write wakes the backend,
		// which often answers before the write returns: reading now, as
		// pgbench does, saves the epoll call (a read lost when it has not).
		l.receive(i, c, time.Time{}, l.stash)
		if c.busy && c.fd >= 0 && l.yield.worth() {
			schedYield()
			l.receive(i, c, time.Time{}, l.stash)
			l.yield.paid(!c.busy)
		}
	}
	return nil
}

// failed closes c when err broke its connection, and says so in the error.
func (l *Loop) failed(c *loopConn, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return err
	}
	l.drop(c)
	return fmt.Errorf("%w: %w", targets.ErrConnection, err)
}

// flush writes what c.out holds past c.sent; what the socket does not take
// now is written when epoll says it can be.
func (l *Loop) flush(c *loopConn) error {
	for c.sent < len(c.out) {
		n, errno := rawWrite(c.fd, c.out[c.sent:])
		if errno == unix.EAGAIN {
			return l.watch(c, true)
		}
		if errno != 0 {
			return fmt.Errorf("write: %w", errno)
		}
		c.sent += n
	}
	return l.watch(c, false)
}

// watch makes epoll report c's socket writable too, or no longer.
func (l *Loop) watch(c *loopConn, out bool) error {
	if c.outs == out {
		return nil
	}
	events := uint32(unix.EPOLLIN | unix.EPOLLRDHUP)
	if out {
		events |= unix.EPOLLOUT
	}
	c.outs = out
	return unix.EpollCtl(l.epfd, unix.EPOLL_CTL_MOD, c.fd, &unix.EpollEvent{Events: events, Fd: int32(c.idx)})
}

// Wait waits until at least one execution in flight has ended, or until
// until, and reports each that has through done: its client, when its
// answer arrived (the kernel's receive timestamp where the socket gives
// one, else when it was read), its row count and its error. Answers Send
// read at once come first, and epoll is then asked without waiting, or
// not at all within chainPoll of its last asking.
// The wait is a raw system call that keeps the goroutine's processor, so
// the runtime neither parks the goroutine nor wakes another thread; a
// signal (the runtime's preemption) ends it early, which is harmless.
func (l *Loop) Wait(until time.Time, done func(i int, at time.Time, rows int64, err error)) error {
	wait := time.Until(until)
	if len(l.ready) > 0 {
		for _, a := range l.ready {
			done(a.i, a.at, a.rows, a.err)
		}
		l.ready = l.ready[:0]
		if time.Since(l.polled) < chainPoll {
			return nil
		}
		wait = 0
	}
	n, err := epollWait(l.epfd, l.events, wait)
	if err != nil {
		return fmt.Errorf("epoll: %w", err)
	}
	at := time.Now()
	l.polled = at
	for _, ev := range l.events[:n] {
		i := int(ev.Fd)
		c := l.conns[i]
		if c.fd < 0 {
			continue
		}
		if ev.Events&unix.EPOLLOUT != 0 {
			if err := l.flush(c); err != nil {
				l.end(i, c, at, l.failed(c, err), done)
				continue
			}
		}
		if ev.Events&(unix.EPOLLIN|unix.EPOLLERR|unix.EPOLLHUP|unix.EPOLLRDHUP) != 0 {
			l.receive(i, c, at, done)
		}
	}
	return nil
}

// chainPoll is how long Wait may go without asking epoll while Send keeps
// finding its answers at once. pgbench never asks while they do, and a
// client whose answers keep coming starves its thread's others for as
// long. Since an answer's latency ends at its arrival (the kernel's
// receive timestamp, read in Wait), the others' answers no longer count
// the chain in their latency: its wait is their client wait, shown apart.
// What the bound still trades is the next sends' promptness against the
// loop's system calls, and a bound that follows the answers' round trip
// lost on both: on plus-one (round trips of about 20 µs) half a round trip
// (at least 50 µs) gave 0.99 pgbench's rate at 1.13 its CPU, sixteen
// round trips 0.93 at 1.09, and 800 µs 1.08 and 1.09 at 0.92 and 0.89
// (docs/measuring.md, "Where a latency ends").
const chainPoll = 800 * time.Microsecond

// receive reads what c's socket holds and takes its complete messages.
// A read right after the send (at zero) takes no receive timestamp: what
// it finds has just arrived, and recvmsg's timestamp costs more than it
// would tell (on plus-one, about a tenth of the rate).
func (l *Loop) receive(i int, c *loopConn, at time.Time, done func(int, time.Time, int64, error)) {
	got, err := c.fill(!at.IsZero())
	stamped := got && !c.arrived.IsZero()
	switch {
	case stamped:
		// The answer's end is when its last bytes reached the socket, not
		// when the loop got round to reading them: the wait in between
		// is the tool's (the engine records it as client wait).
		at = c.arrived
	case at.IsZero() && (got || err != nil || c.r < len(c.in)):
		at = time.Now() // read right after the send: the answer's end is now
	}
	if err != nil {
		if c.busy {
			l.end(i, c, at, l.failed(c, err), done)
		} else {
			l.drop(c) // an idle connection the server closed: opened again on the next Send
		}
		return
	}
	for {
		typ, body, ok := c.next()
		if !ok {
			return
		}
		if !c.busy && typ == 'E' {
			l.drop(c) // a session's end (FATAL) between executions
			return
		}
		if err := c.take(typ, body); err != nil {
			l.end(i, c, at, l.failed(c, err), done)
			return
		}
		if typ == 'Z' && c.busy {
			c.busy = false
			if stamped {
				l.stamped++
			} else {
				l.unstamped++
			}
			done(i, at, c.rows, c.err)
		}
	}
}

// end reports client i's execution ended by err (its connection is gone).
func (l *Loop) end(i int, c *loopConn, at time.Time, err error, done func(int, time.Time, int64, error)) {
	if c.busy {
		c.busy = false
		done(i, at, c.rows, fmt.Errorf("own query: %w", err))
	}
}

// take applies one message of an execution's answer.
func (c *loopConn) take(typ byte, body []byte) error {
	switch typ {
	case 'D':
		c.rows++
	case 'E':
		if c.err == nil {
			c.err = pgError(body)
		}
	case '2', 'C', 'Z', 'N', 'S', 'A', 'I', 'n', 's':
	default:
		return fmt.Errorf("unexpected message %q in an execution's answer", typ)
	}
	return nil
}

// fill reads what the socket holds into c.in. It reports whether it read
// anything (false: the socket had nothing yet, EAGAIN), and an error when
// the server closed the connection or the socket failed.
func (c *loopConn) fill(stamp bool) (bool, error) {
	if c.r > 0 && c.r == len(c.in) {
		c.in, c.r = c.in[:0], 0
	}
	if cap(c.in)-len(c.in) < 8<<10 {
		if c.r > 0 {
			c.in = c.in[:copy(c.in, c.in[c.r:])]
			c.r = 0
		}
		if cap(c.in)-len(c.in) < 8<<10 {
			c.in = append(make([]byte, 0, max(2*cap(c.in), 16<<10)), c.in...)
		}
	}
	var n int
	var errno unix.Errno
	if stamp && c.oob != nil {
		n, c.arrived, errno = arrival.ReadStamped(c.fd, c.in[len(c.in):cap(c.in)], c.oob)
	} else {
		n, errno = rawRead(c.fd, c.in[len(c.in):cap(c.in)])
		c.arrived = time.Time{}
	}
	switch {
	case errno == unix.EAGAIN:
		return false, nil
	case errno != 0:
		return false, fmt.Errorf("read: %w", errno)
	case n == 0:
		return false, fmt.Errorf("read: %w", errServerClosed)
	}
	c.in = c.in[:len(c.in)+n]
	return true, nil
}

var errServerClosed = errors.New("the server closed the connection: EOF")

// next returns the next complete message in c.in.
func (c *loopConn) next() (byte, []byte, bool) {
	rest := c.in[c.r:]
	if len(rest) < 5 {
		return 0, nil, false
	}
	size := int(binary.BigEndian.Uint32(rest[1:5]))
	if len(rest) < 1+size {
		return 0, nil, false
	}
	c.r += 1 + size
	return rest[0], rest[5 : 1+size], true
}

func pgError(body []byte) error {
	var m pgproto3.ErrorResponse
	if err := m.Decode(body); err != nil {
		return fmt.Errorf("decode the server's error: %w", err)
	}
	return &pgconn.PgError{Severity: m.Severity, SeverityUnlocalized: m.SeverityUnlocalized, Code: m.Code,
		Message: m.Message, Detail: m.Detail, Hint: m.Hint, Position: m.Position, Where: m.Where,
		SchemaName: m.SchemaName, TableName: m.TableName, ColumnName: m.ColumnName,
		DataTypeName: m.DataTypeName, ConstraintName: m.ConstraintName, Routine: m.Routine}
}

// prepare returns text prepared on c's session, preparing it on first use,
// the least recently run text closed first when Limit are.
func (l *Loop) prepare(c *loopConn, text string) (*loopStmt, error) {
	if e, ok := c.stmts[text]; ok {
		c.recent.MoveToFront(e)
		return e.Value.(*loopStmt), nil
	}
	limit := l.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	c.out = c.out[:0]
	// The least recently run texts make room, closed in the same exchange.
	var evicted []*list.Element
	for e := c.recent.Back(); e != nil && c.recent.Len()-len(evicted) >= limit; e = e.Prev() {
		evicted = append(evicted, e)
		c.out, _ = (&pgproto3.Close{ObjectType: 'S', Name: e.Value.(*loopStmt).name}).Encode(c.out)
	}
	p := &loopStmt{text: text, name: "tsbench_loop_" + strconv.Itoa(c.named)}
	c.out, _ = (&pgproto3.Parse{Name: p.name, Query: text}).Encode(c.out)
	c.out, _ = (&pgproto3.Describe{ObjectType: 'S', Name: p.name}).Encode(c.out)
	c.out, _ = (&pgproto3.Sync{}).Encode(c.out)
	var failed error
	err := l.exchange(c, func(typ byte, body []byte) error {
		switch typ {
		case 't':
			var d pgproto3.ParameterDescription
			if err := d.Decode(body); err != nil {
				return err
			}
			p.oids = d.ParameterOIDs
		case 'E':
			if failed == nil {
				failed = pgError(body)
			}
		case '1', '3', 'T', 'n', 'Z', 'N', 'S', 'A':
		default:
			return fmt.Errorf("unexpected message %q in a Parse's answer", typ)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, e := range evicted {
		delete(c.stmts, e.Value.(*loopStmt).text)
		c.recent.Remove(e)
	}
	c.named++
	if failed != nil {
		return nil, failed
	}
	p.formats = make([]int16, len(p.oids))
	for i, oid := range p.oids {
		p.formats[i] = l.types.FormatCodeForOID(oid)
	}
	c.stmts[text] = c.recent.PushFront(p)
	return p, nil
}

// exchange sends c.out and takes the answer's messages up to its
// ReadyForQuery, waiting on c's socket alone, within the Loop's timeout.
func (l *Loop) exchange(c *loopConn, take func(typ byte, body []byte) error) error {
	deadline := time.Now().Add(l.timeout)
	c.sent = 0
	for c.sent < len(c.out) {
		n, errno := rawWrite(c.fd, c.out[c.sent:])
		if errno == unix.EAGAIN {
			if err := pollFd(c.fd, unix.POLLOUT, deadline); err != nil {
				return err
			}
			continue
		}
		if errno != 0 {
			return fmt.Errorf("write: %w", errno)
		}
		c.sent += n
	}
	for {
		typ, body, ok := c.next()
		if !ok {
			if err := pollFd(c.fd, unix.POLLIN, deadline); err != nil {
				return err
			}
			if _, err := c.fill(false); err != nil {
				return err
			}
			continue
		}
		if err := take(typ, body); err != nil {
			return err
		}
		if typ == 'Z' {
			return nil
		}
	}
}

// pollFd waits until fd is ready for events or the deadline passes.
func pollFd(fd int, events int16, deadline time.Time) error {
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return fmt.Errorf("no answer within the deadline: %w", context.DeadlineExceeded)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: events}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if err == unix.EINTR || n == 0 {
			continue
		}
		return err
	}
}

// encode writes args as p's parameters into c's kept buffers.
func (l *Loop) encode(c *loopConn, p *loopStmt, args []any) error {
	if len(args) != len(p.oids) {
		return fmt.Errorf("%d parameters bound, the statement has %d placeholders", len(args), len(p.oids))
	}
	for len(c.encoded) < len(args) {
		c.encoded = append(c.encoded, make([]byte, 0, 32)) // never nil: nil is NULL
	}
	c.params = c.params[:0]
	for i, a := range args {
		buf, err := l.types.Encode(p.oids[i], p.formats[i], a, c.encoded[i][:0])
		if err != nil {
			return fmt.Errorf("parameter $%d (%v): %w", i+1, a, err)
		}
		if buf != nil {
			c.encoded[i] = buf[:0]
		}
		c.params = append(c.params, buf)
	}
	return nil
}

// rawRead and rawWrite are recv and send on a non-blocking socket without
// telling the scheduler: they never block. The socket calls, as libpq's,
// rather than read and write, which pass through the file layer's checks.
// Their error is the call's errno, 0 for none.
func rawRead(fd int, p []byte) (int, unix.Errno) {
	n, _, e := unix.RawSyscall6(unix.SYS_RECVFROM, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)), 0, 0, 0)
	return int(n), e
}

// stamp has c's reads take the kernel's receive timestamps, where its
// socket gives them.
func (c *loopConn) stamp() {
	c.oob, c.arrived = nil, time.Time{}
	if arrival.StampReceives(c.fd) {
		c.oob = make([]byte, arrival.OOBSize)
	}
}

// Clock says what ended the loop's measurements: the kernel's receive
// timestamps of the answers it waited for, and its reads of those it read
// at once after their send (Send), which had just arrived; or its reads
// alone, on sockets that give no timestamps.
func (l *Loop) Clock() string {
	switch {
	case l.stamped == 0:
		return "when the loop read each answer (these sockets give no kernel receive timestamps)"
	case l.unstamped == 0:
		return "each answer's arrival: the kernel's receive timestamp of its last bytes (SO_TIMESTAMPNS)"
	}
	return "each answer's arrival: the kernel's receive timestamp of its last bytes (SO_TIMESTAMPNS), " +
		"or the loop's read of an answer it read at once after its send"
}

// schedYield gives up the core to another thread ready to run on it, if
// any, as a raw system call: the runtime is not told, as for the reads.
func schedYield() {
	unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
}

func rawWrite(fd int, p []byte) (int, unix.Errno) {
	n, _, e := unix.RawSyscall6(unix.SYS_SENDTO, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)), 0, 0, 0)
	return int(n), e
}

// epollWait waits at most d (at least nothing) for events. It holds the
// goroutine's processor while it waits, so d is capped: a collection that
// must stop every goroutine preempts it with a signal, which ends the wait.
func epollWait(epfd int, events []unix.EpollEvent, d time.Duration) (int, error) {
	d = min(max(d, 0), maxWait)
	ts := unix.NsecToTimespec(d.Nanoseconds())
	n, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT2, uintptr(epfd), uintptr(unsafe.Pointer(unsafe.SliceData(events))),
		uintptr(len(events)), uintptr(unsafe.Pointer(&ts)), 0, 0)
	switch e {
	case 0:
		return int(n), nil
	case unix.EINTR:
		return 0, nil
	case unix.ENOSYS: // before Linux 5.11: milliseconds, rounded up
		ms := (d + time.Millisecond - 1) / time.Millisecond
		n, _, e = unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(unsafe.SliceData(events))),
			uintptr(len(events)), uintptr(ms), 0, 0)
		if e == unix.EINTR {
			return 0, nil
		}
		if e != 0 {
			return 0, e
		}
		return int(n), nil
	}
	return 0, e
}

// maxWait caps one wait, so that a loop with nothing in flight still sees
// the run's end, and a collection waits no longer than this for it.
const maxWait = 20 * time.Millisecond
