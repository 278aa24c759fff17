package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sendBare posts every client's bodies like send, but as whole HTTP/1.1
// requests built before the clock starts, written to a bare TCP connection
// and answered by reading the status line, the headers and the body they
// announce: no HTTP library, the least a client can do per request. On
// Linux it makes its system calls raw, inside the runtime poller (bareIO),
// as tsbench's own writer does. Its CPU is the floor for the exchange
// alone on the machine (the kernel's loopback path, which it charges to
// the sender, and Go's network poller): what a client's generation,
// serialisation and measurement come on top of.
func sendBare(ctx context.Context, url string, bodies [][][]byte) (float64, error) {
	addr, path, _ := strings.Cut(strings.TrimPrefix(url, "http://"), "/")
	requests := make([][][]byte, len(bodies))
	for c, mine := range bodies {
		for _, body := range mine {
			head := "POST /" + path + " HTTP/1.1\r\nHost: " + addr + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
			requests[c] = append(requests[c], append([]byte(head), body...))
		}
	}
	conns := make([]bareIO, len(requests))
	for c := range conns {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return 0, err
		}
		defer conn.Close()
		defer context.AfterFunc(ctx, func() { conn.Close() })()
		if conns[c], err = newBareIO(conn.(*net.TCPConn)); err != nil {
			return 0, err
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(requests))
	start := time.Now()
	for c, mine := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := exchangeAll(conns[c], mine); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	close(errs)
	if err := <-errs; err != nil {
		return 0, fmt.Errorf("bare socket: %w", err)
	}
	return secs, ctx.Err()
}

// bareIO writes a whole request and reads what the socket has.
type bareIO interface {
	write(p []byte) error
	read(p []byte) (int, error)
}

// exchangeAll writes each request and reads its answer, one at a time.
func exchangeAll(conn bareIO, requests [][]byte) error {
	buf := make([]byte, 0, 4096)
	for _, req := range requests {
		if err := conn.write(req); err != nil {
			return err
		}
		var err error
		if buf, err = readAnswer(conn, buf[:0]); err != nil {
			return err
		}
	}
	return nil
}

// readAnswer reads one response into buf and checks its status is 2xx.
func readAnswer(conn bareIO, buf []byte) ([]byte, error) {
	end, size := -1, 0
	for end < 0 || len(buf) < end+size {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := conn.read(buf[len(buf):cap(buf)])
		if err != nil {
			return buf, err
		}
		buf = buf[:len(buf)+n]
		if end < 0 {
			if i := bytes.Index(buf, []byte("\r\n\r\n")); i >= 0 {
				end = i + 4
				if size, err = contentLength(buf[:end]); err != nil {
					return buf, err
				}
			}
		}
	}
	if len(buf) < 12 || !bytes.HasPrefix(buf, []byte("HTTP/1.1 2")) {
		return buf, fmt.Errorf("answer %q", buf)
	}
	return buf, nil
}

// contentLength is the body size a response's head announces (0 without
// one); a chunked body is refused, as the writers never get one. It
// allocates nothing, so that the floor's cost is the exchange's alone.
func contentLength(head []byte) (int, error) {
	for len(head) > 0 {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte("\r\n"))
		name, value, ok := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case !ok:
		case bytes.EqualFold(name, []byte("Content-Length")):
			return strconv.Atoi(string(value))
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return 0, fmt.Errorf("answer with a %s body", value)
		}
	}
	return 0, nil
}
