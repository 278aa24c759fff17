package httpclient

import (
	"context"
	"fmt"
	"net/http"

	"github.com/tsbench/tsbench/internal/targets"
)

// Conn is the connection of an HTTP target that sends its own requests:
// its server's base URL and the client that reaches it. Embedded in the
// target, it is the target's Close and Reconnects.
type Conn struct {
	Base   string // scheme://host:port
	Client *http.Client
}

// OpenConn makes the Conn that the target options o name (the server on
// defaultPort unless they name another port), with basic authentication
// from USERNAME and PASSWORD (UserAuth). Its errors start with
// "<target>: ".
func OpenConn(target string, o targets.Options, defaultPort int) (Conn, error) {
	e, err := NewEndpoint(o, defaultPort)
	if err != nil {
		return Conn{}, fmt.Errorf("%s: %w", target, err)
	}
	e.Authorization = UserAuth(o)
	return Conn{Base: e.Base, Client: e.Client()}, nil
}

// Do sends a request for path (below Base) as the package's Do does.
func (c *Conn) Do(ctx context.Context, method, path string, body []byte, header map[string]string) ([]byte, error) {
	return Do(ctx, c.Client, method, c.Base+path, body, header)
}

// Close releases idle connections.
func (c *Conn) Close() error {
	c.Client.CloseIdleConnections()
	return nil
}

// Reconnects counts the HTTP connections re-opened (targets.Reconnector).
func (c *Conn) Reconnects() int64 { return Reconnects(c.Client) }

// Clients are an HTTP target's two ways to its server: the client its
// queries take and the Poster its writes take. Embedded in the target,
// they are the target's Close and Reconnects.
type Clients struct {
	Client *http.Client
	Poster *Poster
}

// Close releases idle connections.
func (c *Clients) Close() error {
	c.Client.CloseIdleConnections()
	c.Poster.Close()
	return nil
}

// Reconnects counts the HTTP connections re-opened (targets.Reconnector).
func (c *Clients) Reconnects() int64 { return Reconnects(c.Client) + c.Poster.Reconnects() }
