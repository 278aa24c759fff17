// Package partition puts a TCP relay between a run's clients and its
// database server, so that the run can cut them apart for a while
// (CRASH_PARTITION): a network partition between the clients and a server
// that keeps running. While cut, the relay forwards nothing either way
// and leaves new connections unanswered, as a network that drops every
// packet leaves them: requests wait or time out, and one the server had
// before the cut may be committed while its answer is held back. When the
// cut ends, what was held flows on, as retransmitted packets would.
package partition

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// dialTimeout bounds the relay's connection to the server.
const dialTimeout = 10 * time.Second

// Relay forwards the connections made to its own port to the server.
type Relay struct {
	ln       net.Listener
	upstream string // the server's host:port

	mu    sync.Mutex
	flows chan struct{} // closed while traffic flows; a new, open one while cut
	conns map[net.Conn]struct{}

	done chan struct{} // closed by Close
	wg   sync.WaitGroup
}

// Start listens on a free port of 127.0.0.1 and relays each connection to
// upstream (host:port).
func Start(upstream string) (*Relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("partition: relay: %w", err)
	}
	flows := make(chan struct{})
	close(flows)
	r := &Relay{ln: ln, upstream: upstream, flows: flows, conns: map[net.Conn]struct{}{}, done: make(chan struct{})}
	r.wg.Add(1)
	go r.accept()
	return r, nil
}

// Addr is where the clients connect instead of the server.
func (r *Relay) Addr() (host string, port int) {
	a := r.ln.Addr().(*net.TCPAddr)
	return a.IP.String(), a.Port
}

// Upstream is the server's address.
func (r *Relay) Upstream() string { return r.upstream }

// Cut stops every byte both ways for d (less when ctx ends first), then
// lets the traffic flow again.
func (r *Relay) Cut(ctx context.Context, d time.Duration) {
	cut := make(chan struct{})
	r.mu.Lock()
	r.flows = cut
	r.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-r.done:
	}
	close(cut)
}

// Close stops relaying and closes every connection.
func (r *Relay) Close() {
	select {
	case <-r.done:
		return
	default:
	}
	close(r.done)
	r.ln.Close()
	r.mu.Lock()
	for c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
}

// flowing waits while the relay is cut; false once it is closed.
func (r *Relay) flowing() bool {
	r.mu.Lock()
	flows := r.flows
	r.mu.Unlock()
	select {
	case <-flows:
		return true
	case <-r.done:
		return false
	}
}

func (r *Relay) accept() {
	defer r.wg.Done()
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return // closed
		}
		if !r.track(c) {
			return
		}
		r.wg.Add(1)
		go r.serve(c)
	}
}

// track keeps c to be closed by Close; false when the relay is closed.
func (r *Relay) track(c net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.done:
		c.Close()
		return false
	default:
	}
	r.conns[c] = struct{}{}
	return true
}

func (r *Relay) untrack(cs ...net.Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range cs {
		delete(r.conns, c)
		c.Close()
	}
}

// serve relays one client connection: connected to the server once the
// traffic flows, both ways until either side ends.
func (r *Relay) serve(client net.Conn) {
	defer r.wg.Done()
	if !r.flowing() {
		r.untrack(client)
		return
	}
	server, err := net.DialTimeout("tcp", r.upstream, dialTimeout)
	if err != nil || !r.track(server) {
		r.untrack(client) // the client sees its connection closed, as a refused one
		return
	}
	var both sync.WaitGroup
	both.Add(2)
	go func() { defer both.Done(); r.pipe(server, client) }()
	go func() { defer both.Done(); r.pipe(client, server) }()
	both.Wait()
	r.untrack(client, server)
}

// pipe copies src to dst, holding each read while the relay is cut; when
// either ends, both are closed, so that the other direction ends too.
func (r *Relay) pipe(dst, src net.Conn) {
	defer func() { dst.Close(); src.Close() }()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !r.flowing() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
