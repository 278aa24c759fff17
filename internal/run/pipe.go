package run

import (
	"errors"
	"io"
	"os/signal"
	"sync"
	"syscall"
)

// pipeGuard stands between the commands and a standard output that may be
// a pipe whose reader stops early (tsbench run | head -n 2). Go would kill
// the process with SIGPIPE on the first write after that, in the middle of
// keeping a run; with SIGPIPE ignored the write fails with EPIPE instead,
// and the guard turns that into a graceful stop of the run in progress
// (kept as interrupted), then drops what is written after it.
type pipeGuard struct {
	w       io.Writer
	mu      sync.Mutex
	broken  bool
	onBreak func()
}

func GuardPipe(w io.Writer) *pipeGuard {
	signal.Ignore(syscall.SIGPIPE)
	return &pipeGuard{w: w}
}

func (g *pipeGuard) Write(b []byte) (int, error) {
	g.mu.Lock()
	if g.broken {
		g.mu.Unlock()
		return len(b), nil
	}
	g.mu.Unlock()
	n, err := g.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		g.mu.Lock()
		g.broken = true
		stop := g.onBreak
		g.mu.Unlock()
		if stop != nil {
			stop()
		}
		return len(b), nil
	}
	return n, err
}

// whileRunning makes a broken pipe stop the run in progress through stop
// (at once if the pipe broke already) until the returned func is called.
func whileRunning(w io.Writer, stop func()) (done func()) {
	g, ok := w.(*pipeGuard)
	if !ok {
		return func() {}
	}
	g.mu.Lock()
	g.onBreak = stop
	broken := g.broken
	g.mu.Unlock()
	if broken {
		stop()
	}
	return func() {
		g.mu.Lock()
		g.onBreak = nil
		g.mu.Unlock()
	}
}
