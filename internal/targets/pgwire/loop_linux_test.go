package pgwire

import (
	"container/list"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"golang.org/x/sys/unix"
)

// Wait reports the answers Send read at once before asking epoll, and asks
// it only once chainPoll has passed since it last did: a client whose
// answers keep coming at once does not keep the others' waiting longer.
// Client 1's answer waits in its socket (one end of a socket pair) while
// client 0's was read at once.
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
			l, peer := loopWithAnswer(t)
			defer l.Close()
			defer unix.Close(peer)
			l.ready = append(l.ready, loopAnswer{i: 0, at: time.Now(), rows: 3})
			l.polled = time.Now().Add(-c.polledAgo)
			var got []int
			err := l.Wait(time.Now().Add(time.Second), func(i int, at time.Time, rows int64, err error) {
				if err != nil || at.IsZero() || rows != []int64{3, 1}[i] {
					t.Errorf("client %d: %d rows at %v, %v", i, rows, at, err)
				}
				got = append(got, i)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.wantClients) || got[0] != 0 || (len(got) == 2 && got[1] != 1) {
				t.Errorf("reported clients %v, want %v", got, c.wantClients)
			}
		})
	}
}

// loopWithAnswer is a Loop of two clients: client 0 with nothing on its
// connection, client 1 busy, its whole answer (a row, then ReadyForQuery)
// waiting in its socket. It returns the sockets' other end.
func loopWithAnswer(t *testing.T) (*Loop, int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	l := &Loop{epfd: epfd, events: make([]unix.EpollEvent, 2)}
	for i := range 2 {
		l.conns = append(l.conns, &loopConn{idx: i, fd: -1, stmts: map[string]*list.Element{}})
	}
	c := l.conns[1]
	c.fd, c.busy = fds[0], true
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, c.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: 1}); err != nil {
		t.Fatal(err)
	}
	var answer []byte
	answer, _ = (&pgproto3.DataRow{Values: [][]byte{[]byte("1")}}).Encode(answer)
	answer, _ = (&pgproto3.ReadyForQuery{TxStatus: 'I'}).Encode(answer)
	if _, err := unix.Write(fds[1], answer); err != nil {
		t.Fatal(err)
	}
	return l, fds[1]
}
