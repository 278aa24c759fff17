package sockwatch

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// loopback returns both ends of a TCP connection on 127.0.0.1.
func loopback(t *testing.T) (client, server net.Conn) {
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
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// One registration serves every execution under the same context: arming
// again allocates nothing. Its end interrupts a read blocked on the socket;
// the next context's arm clears the deadline it left, and reads work again.
func TestSocketWatch(t *testing.T) {
	client, server := loopback(t)
	var w Watch
	ctx, cancel := context.WithCancel(context.Background())
	if err := w.Arm(ctx, client); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = w.Arm(ctx, client) }); allocs != 0 {
		t.Errorf("arming the watched context again: %v allocations, want 0", allocs)
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if _, err := readByte(client); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read under a canceled context: %v, want the deadline's error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the cancellation interrupted the read after %v", d)
	}
	if err := w.Arm(ctx, client); !errors.Is(err, context.Canceled) {
		t.Fatalf("arming an ended context: %v, want context.Canceled", err)
	}

	next, stop := context.WithCancel(context.Background())
	defer stop()
	if err := w.Arm(next, client); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	// No deadline of the test's own: the arm must have cleared the past one.
	buf := make([]byte, 1)
	if _, err := client.Read(buf); err != nil || buf[0] != 'x' {
		t.Fatalf("read under the next context: %q, %v", buf, err)
	}
}

// readByte reads one byte from c, within 20 s should a watch fail to
// interrupt it.
func readByte(c net.Conn) (byte, error) {
	if err := c.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		return 0, err
	}
	buf := make([]byte, 1)
	_, err := c.Read(buf)
	return buf[0], err
}

// Another socket (a reconnect) or context releases the last registration:
// ending the old context leaves the socket alone.
func TestSocketWatchReleases(t *testing.T) {
	client, server := loopback(t)
	var w Watch
	old, cancelOld := context.WithCancel(context.Background())
	if err := w.Arm(old, client); err != nil {
		t.Fatal(err)
	}
	current, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := w.Arm(current, client); err != nil {
		t.Fatal(err)
	}
	cancelOld()
	time.Sleep(50 * time.Millisecond) // an old registration, had it stayed, would fire now
	if _, err := server.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	if b, err := readByte(client); err != nil || b != 'y' {
		t.Fatalf("read after the released context ended: %q, %v", b, err)
	}
}
