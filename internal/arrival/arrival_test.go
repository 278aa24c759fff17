package arrival

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

// connected dials a listener on loopback through Dial under a context
// carrying c, and returns the dialed end and the accepted one.
func connected(t *testing.T, c *Clock) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		s, _ := ln.Accept()
		accepted <- s
	}()
	ctx, cancel := context.WithTimeout(WithClock(context.Background(), c), 5*time.Second)
	defer cancel()
	client, err = Dial(nil)(ctx, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// An answer left unread for 2 ms ends at its arrival, and the 2 ms are
// the client's wait: the operation's end is the kernel's receive time of
// the answer's last bytes, not the read.
func TestAnAnswerEndsAtItsArrival(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("receive timestamps are Linux's here")
	}
	c := &Clock{}
	client, server := connected(t, c)
	if _, ok := client.(*stampedConn); !ok {
		t.Fatalf("a TCP connection on loopback dialed under a Clock is %T, not stamped", client)
	}
	buf := make([]byte, 64)
	// The kernel turns stamping on from a deferred work item a moment after
	// the first socket asks (net_enable_timestamp), later on a loaded
	// machine: exchanges until then come unstamped, so wait up to 3 s.
	for deadline := time.Now().Add(3 * time.Second); !c.Stamped() && time.Now().Before(deadline); {
		server.Write([]byte("warm"))
		if _, err := io.ReadFull(client, buf[:4]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	if !c.Stamped() {
		t.Fatal("no read carried a receive timestamp")
	}
	before := c.Last()
	sent := time.Now()
	if _, err := server.Write([]byte("answer")); err != nil {
		t.Fatal(err)
	}
	wrote := time.Now()
	time.Sleep(2 * time.Millisecond) // the answer waits, unread
	if _, err := io.ReadFull(client, buf[:6]); err != nil || string(buf[:6]) != "answer" {
		t.Fatalf("read %q, %v", buf[:6], err)
	}
	returned := time.Now()
	done, read := c.End(before, sent, returned)
	if done.Before(sent) || done.After(wrote.Add(time.Millisecond)) {
		t.Errorf("ended %v after the send, the answer written %v after it: not at its arrival", done.Sub(sent), wrote.Sub(sent))
	}
	if wait := read.Sub(done); wait < 2*time.Millisecond || wait > returned.Sub(sent) {
		t.Errorf("client wait %v, want the 2 ms the answer lay unread (at most the %v of the whole)", wait, returned.Sub(sent))
	}
	// An operation whose reads saw no new arrival ends when it returned.
	if d, r := c.End(c.Last(), time.Now(), time.Now()); !r.IsZero() || d.IsZero() {
		t.Errorf("no new arrival: ended %v, read %v; want the return, no client wait", d, r)
	}
}

// A connection dialed without a Clock is the dialer's
// own; end of file and deadlines behave as a plain connection's.
func TestWrapKeepsTheConnectionsBehaviour(t *testing.T) {
	plain, err := Dial(nil)(context.Background(), "tcp", listenOnce(t))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, ok := plain.(*stampedConn); ok {
		t.Error("a connection dialed without a Clock was wrapped")
	}
	client, server := connected(t, &Clock{})
	client.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := client.Read(make([]byte, 8)); err == nil || !isTimeout(err) {
		t.Errorf("read past its deadline: %v, want a timeout", err)
	}
	client.SetReadDeadline(time.Time{})
	server.Write([]byte("bye"))
	server.Close()
	got, err := io.ReadAll(client)
	if err != nil || string(got) != "bye" {
		t.Errorf("read to the end: %q, %v; want \"bye\" and end of file", got, err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func listenOnce(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		c, err := ln.Accept()
		if err == nil {
			t.Cleanup(func() { c.Close() })
		}
		ln.Close()
	}()
	return ln.Addr().String()
}

func TestClockEnd(t *testing.T) {
	base := time.Unix(1000, 0)
	c := &Clock{}
	c.last.Store(base.Add(5 * time.Millisecond).UnixNano())
	for _, tt := range []struct {
		name       string
		before     int64
		sent, ret  time.Time
		wantDone   time.Time
		wantWaited bool
	}{
		{"arrived within the operation", 0, base, base.Add(9 * time.Millisecond), base.Add(5 * time.Millisecond), true},
		{"the same arrival as before it", base.Add(5 * time.Millisecond).UnixNano(), base, base.Add(9 * time.Millisecond), base.Add(9 * time.Millisecond), false},
		{"arrived before the send", 0, base.Add(6 * time.Millisecond), base.Add(9 * time.Millisecond), base.Add(9 * time.Millisecond), false},
		{"arrived after the return", 0, base, base.Add(4 * time.Millisecond), base.Add(4 * time.Millisecond), false},
	} {
		done, read := c.End(tt.before, tt.sent, tt.ret)
		if !done.Equal(tt.wantDone) || read.IsZero() == tt.wantWaited {
			t.Errorf("%s: done %v read %v, want done %v (a client wait: %v)", tt.name, done, read, tt.wantDone, tt.wantWaited)
		}
	}
}
