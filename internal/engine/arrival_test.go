package engine

import (
	"context"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
)

// echoWorker sends a byte and reads its echo ops times over a connection
// it dials, in its first operation, through arrival.Dial under the
// operation's context; it leaves each echo unread for linger first, as a
// client busy elsewhere would.
type echoWorker struct {
	addr   string
	ops    int
	linger time.Duration
	conn   net.Conn
	done   int
}

func (w *echoWorker) Step(_ context.Context, h *Handle, warm bool) bool {
	if w.done == w.ops {
		return false
	}
	w.done++
	ok, _ := h.Do(Op{Kind: 0}, warm, func(ctx context.Context) (int64, error) {
		if w.conn == nil {
			c, err := arrival.Dial(nil)(ctx, "tcp", w.addr)
			if err != nil {
				return 0, err
			}
			w.conn = c
		}
		if _, err := w.conn.Write([]byte{1}); err != nil {
			return 0, err
		}
		time.Sleep(w.linger)
		_, err := io.ReadFull(w.conn, make([]byte, 1))
		return 1, err
	})
	return ok
}

// echoServer echoes every byte on its connections until the test ends.
func echoServer(t *testing.T) string {
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
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

// A goroutine client's operation ends at its answer's arrival where its
// connection stamps reads (Handle.Arrivals): an echo left unread for 2 ms
// is in no latency and in the client wait.
func TestAGoroutinesAnswerEndsAtItsArrival(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("receive timestamps are Linux's here")
	}
	const linger = 2 * time.Millisecond
	e := New(Config{Names: []string{"ECHO"}, Workers: 1}, Hooks{})
	handles := e.Handles(1)
	clock := &arrival.Clock{}
	handles[0].Arrivals = clock
	w := &echoWorker{addr: echoServer(t), ops: 40, linger: linger}
	defer func() {
		if w.conn != nil {
			w.conn.Close()
		}
	}()
	op := e.Run(context.Background(), []Worker{w}, handles).Operations[0]
	if op.OKOperations != 40 || !clock.Stamped() {
		t.Fatalf("%d operations, stamped %v; want 40, stamped", op.OKOperations, clock.Stamped())
	}
	if op.LatencyMS.P50 >= 1 {
		t.Errorf("latency p50 %.3f ms: the %v the echo lay unread is in it", op.LatencyMS.P50, linger)
	}
	if w := op.ClientWaitMS; w == nil || w.P50 < 2 {
		t.Errorf("client wait %+v, want a p50 of the 2 ms the echo lay unread", w)
	}
}
