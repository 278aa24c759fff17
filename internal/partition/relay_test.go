package partition

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// echoServer answers each line with the same line, until the test ends.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }() //nolint:errcheck // ends with the connection
		}
	}()
	return ln.Addr().String()
}

func dial(t *testing.T, r *Relay) (net.Conn, *bufio.Reader) {
	t.Helper()
	host, port := r.Addr()
	c, err := net.DialTimeout("tcp", fmt.Sprintf("%s:%d", host, port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

// roundTrip sends line and returns the echo and how long it took.
func roundTrip(t *testing.T, c net.Conn, br *bufio.Reader, line string) (string, time.Duration) {
	t.Helper()
	start := time.Now()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintln(c, line); err != nil {
		t.Fatal(err)
	}
	got, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(got), time.Since(start)
}

// Through the relay a connection reaches the server; while it is cut,
// nothing passes on an open connection nor on one made during the cut,
// and both go on once the cut ends; Close ends the connections.
func TestRelayCut(t *testing.T) {
	r, err := Start(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, br := dial(t, r)
	if got, _ := roundTrip(t, c, br, "before"); got != "before" {
		t.Fatalf("echo %q", got)
	}
	const cut = 400 * time.Millisecond
	go r.Cut(context.Background(), cut)
	time.Sleep(50 * time.Millisecond) // inside the cut
	late, lateBR := dial(t, r)        // accepted by the kernel, not relayed yet
	got, took := roundTrip(t, c, br, "during")
	if got != "during" || took < cut-100*time.Millisecond {
		t.Errorf("echo %q after %v, in a cut of %v", got, took, cut)
	}
	if got, took := roundTrip(t, late, lateBR, "new"); got != "new" || took > time.Second {
		t.Errorf("a connection made during the cut: %q after %v", got, took)
	}
	if got, took := roundTrip(t, c, br, "after"); got != "after" || took > 200*time.Millisecond {
		t.Errorf("after the cut: %q in %v", got, took)
	}
	r.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := br.ReadByte(); err == nil {
		t.Error("a connection still open after Close")
	}
}

// A cut ends with its context, before its time.
func TestRelayCutEndsWithContext(t *testing.T) {
	r, err := Start(echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r.Cut(ctx, time.Minute)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a cut of a minute under a 100 ms context took %v", took)
	}
	c, br := dial(t, r)
	if got, _ := roundTrip(t, c, br, "x"); got != "x" {
		t.Fatalf("echo %q after the cut", got)
	}
}
