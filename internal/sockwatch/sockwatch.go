// Package sockwatch makes a context's end interrupt a connection's socket,
// registered once for as long as the same context and socket are used.
package sockwatch

import (
	"context"
	"net"
	"sync"
	"time"
)

// Watch makes a context's end interrupt a connection's socket, as pgconn's
// context watch does on every execution (its default handler sets the
// socket's deadline to now), but registered once for as long as the same
// context and socket are used: the benchmark engine hands a client one
// reusable context for all its operations, and registering on it for each
// execution cost eight allocations and about a microsecond. The caller
// then runs its statements under a context that never ends
// (context.WithoutCancel, context.Background), which pgconn and
// database/sql do not watch. The zero value is ready.
//
// A fire that finds the context renewed (its operation ended before the
// cancellation reached here, the next one is running) registers again
// instead of interrupting the next operation.
type Watch struct {
	mu      sync.Mutex
	ctx     context.Context // the context watched; nil: none
	sock    net.Conn
	stop    func() bool
	tripped bool // the socket's deadline was set to interrupt it
}

// longAgo is a deadline that has passed: it fails any read or write.
var longAgo = time.Unix(1, 0)

// Arm watches ctx for an execution on sock: a deadline an earlier
// cancellation left on the socket is cleared, and ctx is registered unless
// it already is. It returns ctx's error when ctx has ended.
func (w *Watch) Arm(ctx context.Context, sock net.Conn) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ctx.Done() == nil {
		return nil // never ends
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tripped {
		w.tripped = false
		if err := sock.SetDeadline(time.Time{}); err != nil {
			return err
		}
	}
	if w.ctx != ctx || w.sock != sock {
		w.releaseLocked()
		w.ctx, w.sock = ctx, sock
		w.registerLocked()
	}
	return nil
}

func (w *Watch) registerLocked() {
	ctx, sock := w.ctx, w.sock
	w.stop = context.AfterFunc(ctx, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch {
		case w.ctx != ctx || w.sock != sock:
			// released: another context or socket is watched now
		case ctx.Err() == nil:
			w.registerLocked() // a reused context, renewed: watch on
		default:
			_ = sock.SetDeadline(longAgo)
			w.tripped, w.ctx = true, nil
		}
	})
}

func (w *Watch) releaseLocked() {
	if w.stop != nil {
		w.stop()
	}
	w.ctx, w.sock, w.stop = nil, nil, nil
}
