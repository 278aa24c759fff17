// Package arrival ends a round trip's latency where its answer arrived:
// the kernel's receive timestamp of the answer's last bytes (SO_TIMESTAMPNS
// on Linux), not the moment the client got round to reading it. A Clock
// keeps the last arrival of what one client's connections read; a
// connection dialed under a context that carries a Clock (Dial) stamps
// every read into it, and the engine ends an operation at the last
// arrival its reads saw, recording the time the answer then waited for the
// client apart (its client wait).
package arrival

import (
	"context"
	"net"
	"sync/atomic"
	"time"
)

// Clock is one client's last arrival: the kernel's receive time of the
// last bytes its stamped connections read.
type Clock struct {
	last      atomic.Int64 // unix nanoseconds; 0 before any stamped read
	stamped   atomic.Int64 // reads that carried a timestamp
	unstamped atomic.Int64 // reads on a stamped connection that carried none
}

// Last is the last arrival's time in unix nanoseconds, 0 before any.
func (c *Clock) Last() int64 { return c.last.Load() }

// Note keeps a read's arrival, for a connection that reads its socket
// itself (ReadStamped); t is zero when the read carried none.
func (c *Clock) Note(t time.Time) {
	if t.IsZero() {
		c.unstamped.Add(1)
		return
	}
	c.last.Store(t.UnixNano())
	c.stamped.Add(1)
}

// Stamped reports whether any read of c's connections carried a kernel
// receive timestamp.
func (c *Clock) Stamped() bool { return c.stamped.Load() > 0 }

// End is where an operation sent at sent and returned at returned ended:
// at the last arrival its reads saw, when one came after before (the
// clock's Last as it began) and within the operation, else at returned.
// read is the moment the client had the answer (returned) when the two
// differ, zero otherwise.
func (c *Clock) End(before int64, sent, returned time.Time) (done, read time.Time) {
	a := c.last.Load()
	if a == 0 || a == before || a < sent.UnixNano() || a > returned.UnixNano() {
		return returned, time.Time{}
	}
	return time.Unix(0, a), returned
}

// StampedClock says, as a run's summary does (latency_clock), what ended the
// latencies of clients whose reads carried kernel receive timestamps.
const StampedClock = "each answer's arrival: the kernel's receive timestamp of its last bytes (SO_TIMESTAMPNS)"

// ClockOf is what ended the latencies of clients with these clocks:
// StampedClock where any read carried a timestamp, "" (their return) otherwise.
func ClockOf(clocks []*Clock) string {
	for _, c := range clocks {
		if c != nil && c.Stamped() {
			return StampedClock
		}
	}
	return ""
}

type clockKey struct{}

// WithClock returns ctx carrying c: a connection Dial opens under it
// stamps its reads into c.
func WithClock(ctx context.Context, c *Clock) context.Context {
	if c == nil {
		return ctx
	}
	return context.WithValue(ctx, clockKey{}, c)
}

// FromContext is the Clock ctx carries, nil if none.
func FromContext(ctx context.Context) *Clock {
	c, _ := ctx.Value(clockKey{}).(*Clock)
	return c
}

// DialFunc is the dial of net.Dialer.DialContext, pgx's DialFunc,
// net/http's Transport.DialContext and the MySQL driver's dialer.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Dial wraps dial (nil: a net.Dialer's) so that a connection opened under
// a context carrying a Clock stamps its reads into it, where the socket
// gives receive timestamps; other connections are dial's own.
func Dial(dial DialFunc) DialFunc {
	if dial == nil {
		d := &net.Dialer{KeepAlive: 5 * time.Minute}
		dial = d.DialContext
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if c := FromContext(ctx); c != nil {
			return Wrap(conn, c), nil
		}
		return conn, nil
	}
}
