package run

// SIGINT and SIGTERM make a two-step stop: the first lets the operations in
// flight finish, the second aborts them.

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// onInterrupt makes the first SIGINT/SIGTERM call stop and the second call
// abort; release stops listening.
func onInterrupt(stop, abort func(), stderr io.Writer) (release func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-done:
				return
			case sig := <-ch:
				n++
				if n == 1 {
					fmt.Fprintf(stderr, "\ntsbench: %v: stopping after the operations in flight (again to abort them)\n", sig)
					stop()
				} else {
					abort()
				}
			}
		}
	}()
	var once sync.Once // release may be called again by a deferred call
	return func() { once.Do(func() { signal.Stop(ch); close(done) }) }
}
