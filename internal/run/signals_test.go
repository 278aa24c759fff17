package run

import (
	"bytes"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is written by the signal goroutine and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// The first SIGINT stops, the second aborts.
func TestOnInterrupt(t *testing.T) {
	stopped, aborted := make(chan struct{}), make(chan struct{})
	var stderr syncBuffer
	release := onInterrupt(func() { close(stopped) }, func() { close(aborted) }, &stderr)
	defer release()
	for _, want := range []chan struct{}{stopped, aborted} {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-want:
		case <-time.After(5 * time.Second):
			t.Fatal("the signal was not handled")
		}
	}
	stderr.mu.Lock()
	defer stderr.mu.Unlock()
	if !bytes.Contains(stderr.b.Bytes(), []byte("stopping after the operations in flight")) {
		t.Errorf("stderr %q", stderr.b.String())
	}
}
