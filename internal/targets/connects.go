package targets

import (
	"context"
	"database/sql/driver"
	"sync/atomic"
)

// CountingConnector is a database/sql connector that counts the connections
// it opens, for targets whose pool (database/sql) re-opens a connection the
// server dropped without telling: one connection per benchmark client, so
// every open after the first is a reconnect (Reconnector).
type CountingConnector struct {
	driver.Connector
	opened atomic.Int64
}

// Connect opens a connection and counts it.
func (c *CountingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err == nil {
		c.opened.Add(1)
	}
	return conn, err
}

// Reconnects is the connections opened after the first.
func (c *CountingConnector) Reconnects() int64 { return max(0, c.opened.Load()-1) }
