package httpclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/metrics"
)

// answering is a loopback HTTP/1.1 endpoint for the client's mechanics (not a
// database): it reads each request whole, without allocating (so that the
// client's allocations can be counted), and lets serve decide what to do
// with the connection. It returns the URL and a channel of the FNV-1a hashes
// of the bodies read.
func answering(t *testing.T, serve func(c net.Conn) bool) (string, <-chan uint64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	hashes := make(chan uint64, 100)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReaderSize(c, 64<<10)
				body := make([]byte, 0, 64<<10)
				h := fnv.New64a()
				for {
					n, ok := readHeader(r)
					if !ok {
						return
					}
					body = body[:n]
					if _, err := io.ReadFull(r, body); err != nil {
						return
					}
					h.Reset()
					h.Write(body)
					hashes <- h.Sum64()
					if !serve(c) {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/write?db=x", hashes
}

// readHeader reads a request's header and returns its Content-Length.
func readHeader(r *bufio.Reader) (int, bool) {
	n := 0
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return 0, false
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			return n, true
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
			n, err = strconv.Atoi(string(bytes.TrimSpace(v)))
			if err != nil {
				return 0, false
			}
		}
	}
}

func hashOf(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

func reply(status int, text string) func(net.Conn) bool {
	answer := []byte("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\nContent-Length: " +
		strconv.Itoa(len(text)) + "\r\n\r\n" + text)
	return func(c net.Conn) bool {
		_, err := c.Write(answer)
		return err == nil
	}
}

func withTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Bodies arrive whole and in order over one connection, with the header
// set; an accepted write allocates nothing.
func TestPosterSendsBodies(t *testing.T) {
	u, hashes := answering(t, reply(http.StatusNoContent, ""))
	p, err := NewPoster(u, "Content-Type", "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	body := bytes.Repeat([]byte("m,device=d_0 s_0=1.25,s_1=-3 1640966400000\n"), 500) // 22 KB: one write
	ctx := withTimeout(t, 10*time.Second)
	for i := range 20 {
		body[0] = byte('a' + i)
		if err := p.Post(ctx, body); err != nil {
			t.Fatal(err)
		}
		if got := <-hashes; got != hashOf(body) {
			t.Fatalf("request %d: the server got other bytes than the %d sent", i, len(body))
		}
	}
	allocs := testing.AllocsPerRun(50, func() {
		if err := p.Post(ctx, body); err != nil {
			t.Fatal(err)
		}
		<-hashes
	})
	// The abort's registration with the context is made once.
	t.Logf("%.1f allocations per write", allocs)
	if allocs > 0 {
		t.Errorf("%.1f allocations per write", allocs)
	}
	if n := p.Reconnects(); n != 0 {
		t.Errorf("%d reconnects on a connection never closed", n)
	}
}

// Every way a write fails is classified as net/http's errors were: the
// server's refusal (with its text), a timeout, a broken connection.
func TestPosterFailures(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String() + "/write"
	closed.Close()
	hangUp := func(net.Conn) bool { return false }
	stall := func(net.Conn) bool { time.Sleep(3 * time.Second); return false }
	cases := []struct {
		name  string
		url   string
		serve func(net.Conn) bool
		cause string
		text  string
	}{
		{"rejected", "", reply(http.StatusBadRequest, `{"error":"field type conflict"}`), metrics.CauseServer, `400 Bad Request: {"error":"field type conflict"}`},
		{"refused", refused, nil, metrics.CauseConnection, "connect"},
		{"hung up", "", hangUp, metrics.CauseConnection, "closed"},
		{"stalled", "", stall, metrics.CauseTimeout, "deadline exceeded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := c.url
			if c.serve != nil {
				u, _ = answering(t, c.serve)
			}
			p, err := NewPoster(u)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			start := time.Now()
			err = p.Post(withTimeout(t, 300*time.Millisecond), []byte("m s=1 1\n"))
			if err == nil {
				t.Fatal("the write succeeded")
			}
			// By the context's deadline, not the connection's backstop
			// (deadlineSlack later).
			if took := time.Since(start); took > 300*time.Millisecond+deadlineSlack*3/4 {
				t.Errorf("the write failed after %v, past its context's deadline", took)
			}
			if got := metrics.Cause(err); got != c.cause {
				t.Errorf("cause %q, want %q: %v", got, c.cause, err)
			}
			if !strings.Contains(err.Error(), c.text) || strings.Contains(err.Error(), "db=x") {
				t.Errorf("error %q: want %q in it, and no query", err, c.text)
			}
		})
	}
}

// stallingPoster is a Poster to a server that answers each request at once,
// except that for each value sent on stalls it holds one request for 5 s
// and hangs up.
func stallingPoster(t *testing.T, stalls chan bool) *Poster {
	u, _ := answering(t, func(c net.Conn) bool {
		select {
		case <-stalls:
			time.Sleep(5 * time.Second)
			return false
		default:
			return reply(http.StatusNoContent, "")(c)
		}
	})
	p, err := NewPoster(u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// Cancelling the context (an interrupted run) ends a request the server
// never answers at once, and the next request gets a new connection.
func TestPosterCancelAborts(t *testing.T) {
	stalls := make(chan bool, 2)
	stalls <- true
	p := stallingPoster(t, stalls)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	err := p.Post(ctx, []byte("m s=1 1\n"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write: %v, want context.Canceled", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the cancelled write returned after %v", took)
	}
	if err := p.Post(withTimeout(t, 5*time.Second), []byte("m s=1 2\n")); err != nil {
		t.Fatalf("the write after a cancelled one: %v", err)
	}
	if n := p.Reconnects(); n != 1 {
		t.Errorf("%d reconnects, want 1 (the aborted connection replaced)", n)
	}
}

// rearmed is a context cancelled and opened again with a new Done channel,
// as a runner client's operation context is after a deadline passed: one
// context value, several cancellations.
type rearmed struct {
	context.Context // Deadline and Value
	mu              sync.Mutex
	done            chan struct{}
	err             error
}

func (c *rearmed) Done() <-chan struct{} { c.mu.Lock(); defer c.mu.Unlock(); return c.done }
func (c *rearmed) Err() error            { c.mu.Lock(); defer c.mu.Unlock(); return c.err }

func (c *rearmed) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = context.Canceled
	close(c.done)
}

func (c *rearmed) rearm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done, c.err = make(chan struct{}), nil
}

// The registration kept from request to request follows a context that
// was cancelled and re-armed: a second cancellation still aborts the
// request it catches, and a write after each goes through.
func TestPosterCancelAfterRearm(t *testing.T) {
	stalls := make(chan bool, 2)
	p := stallingPoster(t, stalls)
	ctx := &rearmed{Context: withTimeout(t, time.Minute), done: make(chan struct{})}
	for round := range 2 {
		if err := p.Post(ctx, []byte("m s=1 1\n")); err != nil {
			t.Fatalf("round %d: the write before the stall: %v", round, err)
		}
		stalls <- true
		time.AfterFunc(100*time.Millisecond, ctx.cancel)
		start := time.Now()
		if err := p.Post(ctx, []byte("m s=1 2\n")); !errors.Is(err, context.Canceled) {
			t.Fatalf("round %d: cancelled write: %v, want context.Canceled", round, err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Fatalf("round %d: the cancelled write returned after %v", round, took)
		}
		ctx.rearm()
	}
	if err := p.Post(ctx, []byte("m s=1 3\n")); err != nil {
		t.Fatalf("the write after the last cancellation: %v", err)
	}
	if n := p.Reconnects(); n != 2 {
		t.Errorf("%d reconnects, want 2 (each aborted connection replaced)", n)
	}
}
