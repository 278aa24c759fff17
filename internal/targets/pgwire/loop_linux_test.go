package pgwire

import (
	"container/list"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"golang.org/x/sys/unix"
)

// Wait reports the answers Send read at once before asking epoll, and asks
// it only once chainPoll has passed since it last did: a client whose
// answers keep coming at once does not keep the others' waiting longer.
// Client 1's answer waits in its socket while client 0's was read at once.
func TestWaitChainPoll(t *testing.T) {
	for _, c := range []struct {
		name        string
		polledAgo   time.Duration
		wantClients []int
	}{
		{"polled just now", 0, []int{0}},
		{"polled longer ago than chainPoll", 2 * chainPoll, []int{0, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, peers := socketLoop(t, 2)
			l.conns[1].busy = true
			answer(t, peers[1])
			l.ready = append(l.ready, loopAnswer{i: 0, at: time.Now(), rows: 1})
			l.polled = time.Now().Add(-c.polledAgo)
			var got []int
			err := l.Wait(time.Now().Add(time.Second), func(i int, at time.Time, rows int64, err error) {
				if err != nil || at.IsZero() || rows != 1 {
					t.Errorf("client %d: %d rows at %v, %v", i, rows, at, err)
				}
				got = append(got, i)
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.wantClients) {
				t.Errorf("reported clients %v, want %v", got, c.wantClients)
			}
		})
	}
}

// socketLoop is a Loop of n clients, each connected to one end of a socket
// pair; it returns the other ends.
func socketLoop(t *testing.T, n int) (*Loop, []int) {
	t.Helper()
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	l := &Loop{epfd: epfd, events: make([]unix.EpollEvent, n)}
	l.stash = func(i int, at time.Time, rows int64, err error) {
		l.ready = append(l.ready, loopAnswer{i: i, at: at, rows: rows, err: err})
	}
	t.Cleanup(func() { l.Close() })
	var peers []int
	for i := range n {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(fds[1]) })
		c := &loopConn{idx: i, fd: fds[0], stmts: map[string]*list.Element{}}
		if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, c.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(i)}); err != nil {
			t.Fatal(err)
		}
		l.conns = append(l.conns, c)
		peers = append(peers, fds[1])
	}
	return l, peers
}

// answer writes an execution's whole answer, a row and ReadyForQuery, to fd.
func answer(t *testing.T, fd int) {
	t.Helper()
	var b []byte
	b, _ = (&pgproto3.DataRow{Values: [][]byte{[]byte("1")}}).Encode(b)
	b, _ = (&pgproto3.ReadyForQuery{TxStatus: 'I'}).Encode(b)
	if _, err := unix.Write(fd, b); err != nil {
		t.Fatal(err)
	}
}
