// Package pgwire keeps one client's PostgreSQL-wire connection (pgx) usable
// across what a benchmark meets: a server that restarts, drops connections,
// or a deadline that makes pgx close the connection mid-statement. The
// targets that speak the protocol (postgres, timescaledb, questdb) hold a
// Conn instead of a *pgx.Conn.
package pgwire

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets"
)

// Conn is a connection that is re-opened on demand. It is not safe for
// concurrent use (pgx connections are not); its users serialise access.
type Conn struct {
	cfg        *pgx.ConnConfig
	pg         *pgx.Conn
	reconnects atomic.Int64
}

// Connect opens a connection with cfg.
func Connect(ctx context.Context, cfg *pgx.ConnConfig) (*Conn, error) {
	pg, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &Conn{cfg: cfg, pg: pg}, nil
}

// Get returns the connection, re-opened first when it was closed, so that
// a client recovers on its next operation once the server is back. A
// failed re-open wraps targets.ErrConnection: a server that answers but
// refuses logins (starting up, in recovery) still left the operation
// without a connection. It wraps targets.ErrNotSent too: the operation
// never reached the server.
func (c *Conn) Get(ctx context.Context) (*pgx.Conn, error) {
	if !c.pg.IsClosed() {
		return c.pg, nil
	}
	pg, err := pgx.ConnectConfig(ctx, c.cfg)
	if err != nil {
		return nil, fmt.Errorf("reconnect: %w (%w): %w", targets.ErrConnection, targets.ErrNotSent, err)
	}
	c.pg = pg
	c.reconnects.Add(1)
	return pg, nil
}

// Failed marks err, which a statement on the connection returned, as a
// connection failure when the connection did not survive it (pgx closes a
// connection whose socket broke): the server went away, it did not refuse
// the statement.
func (c *Conn) Failed(err error) error {
	if err == nil || !c.pg.IsClosed() || errors.Is(err, targets.ErrConnection) {
		return err
	}
	return fmt.Errorf("%w: %w", targets.ErrConnection, err)
}

// Reconnects counts the re-openings (targets.Reconnector); safe to call from
// any goroutine.
func (c *Conn) Reconnects() int64 { return c.reconnects.Load() }

// Close ends the connection.
func (c *Conn) Close(ctx context.Context) error { return c.pg.Close(ctx) }
