//go:build linux

package pgwire

import (
	"container/list"
	"context"
	"net"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/engine"
	"golang.org/x/sys/unix"
)

// tcpLoop is a Loop of one client connected over TCP on loopback, whose
// reads take the kernel's receive timestamps; it returns the other end.
func tcpLoop(t *testing.T) (*Loop, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server := <-accepted
	fd, err := takeSocket(client)
	if err != nil {
		t.Fatal(err)
	}
	peer, err := takeSocket(server)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(peer) })
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	l := &Loop{epfd: epfd, events: make([]unix.EpollEvent, 1)}
	l.stash = func(i int, at time.Time, rows int64, err error) {
		l.ready = append(l.ready, loopAnswer{i: i, at: at, rows: rows, err: err})
	}
	t.Cleanup(func() { l.Close() })
	c := &loopConn{idx: 0, fd: fd, stmts: map[string]*list.Element{}, in: make([]byte, 0, 64<<10)}
	c.stamp()
	if c.oob == nil {
		t.Fatal("a TCP socket on loopback takes no receive timestamps")
	}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: 0}); err != nil {
		t.Fatal(err)
	}
	l.conns = []*loopConn{c}
	// The kernel turns the stamping on a moment after the first socket
	// asks: answers until then come unstamped.
	for range 200 {
		c.busy, c.rows = true, 0
		answer(t, peer)
		if err := l.Wait(time.Now().Add(time.Second), func(int, time.Time, int64, error) {}); err != nil {
			t.Fatal(err)
		}
		if l.stamped > 0 {
			l.stamped, l.unstamped = 0, 0
			return l, peer
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no answer came stamped")
	return nil, 0
}

// An answer left unread for 2 ms ends at its arrival, not at its reading:
// the loop reports the kernel's receive timestamp.
func TestAnswerEndsAtItsArrival(t *testing.T) {
	l, peer := tcpLoop(t)
	l.conns[0].busy, l.conns[0].rows = true, 0
	answer(t, peer)
	arrived := time.Now()
	time.Sleep(2 * time.Millisecond)
	var at time.Time
	if err := l.Wait(time.Now().Add(time.Second), func(_ int, a time.Time, rows int64, err error) {
		if err != nil || rows != 1 {
			t.Errorf("%d rows, %v", rows, err)
		}
		at = a
	}); err != nil {
		t.Fatal(err)
	}
	read := time.Now()
	if at.IsZero() || at.Sub(arrived).Abs() > time.Millisecond || read.Sub(at) < 2*time.Millisecond {
		t.Errorf("answer ended %v after it was written and %v before it was read, want about 0 and at least 2 ms",
			at.Sub(arrived), read.Sub(at))
	}
	if l.stamped != 1 || l.unstamped != 0 || l.Clock() != "each answer's arrival: the kernel's receive timestamp of its last bytes (SO_TIMESTAMPNS)" {
		t.Errorf("stamped %d, unstamped %d: %s", l.stamped, l.unstamped, l.Clock())
	}
}

// slowReader is an engine.AsyncWorker over a one-client Loop whose answers
// the server (the test) sends at once and which the worker reads 2 ms
// late, as an event loop busy with other clients does.
type slowReader struct {
	l     *Loop
	peer  int
	t     *testing.T
	left  int
	delay time.Duration
}

func (w *slowReader) Begin(i int, warm bool) (engine.Op, bool, error) {
	if w.left == 0 {
		return engine.Op{}, false, nil
	}
	w.left--
	w.l.conns[i].busy, w.l.conns[i].rows = true, 0
	answer(w.t, w.peer)
	return engine.Op{}, true, nil
}

func (w *slowReader) Wait(until time.Time, done func(int, time.Time, int64, error)) error {
	time.Sleep(w.delay)
	return w.l.Wait(until, done)
}

func (w *slowReader) Abort(int) {}

// Through the engine: the 2 ms each answer waited in its socket is not in
// the latency, and is recorded as the operation's client wait.
func TestClientWaitIsRecordedApart(t *testing.T) {
	l, peer := tcpLoop(t)
	const delay = 2 * time.Millisecond
	w := &slowReader{l: l, peer: peer, t: t, left: 20, delay: delay}
	e := engine.New(engine.Config{Names: []string{"QUERY"}, Workers: 1}, engine.Hooks{})
	res := e.RunAsync(context.Background(), []engine.AsyncGroup{{Worker: w, Handles: e.Handles(1)}})
	op := res.Operations[0]
	wait := op.ClientWaitMS
	if op.OKOperations != 20 || wait == nil {
		t.Fatalf("%d operations, client wait %v", op.OKOperations, wait)
	}
	ms := float64(delay) / float64(time.Millisecond)
	if wait.P50 < ms || op.LatencyMS.P50 >= ms/2 {
		t.Errorf("latency p50 %.3f ms, client wait p50 %.3f ms: want the %v the answers waited in the wait, not the latency",
			op.LatencyMS.P50, wait.P50, delay)
	}
}
