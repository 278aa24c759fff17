//go:build !linux

package arrival

import "net"

// Wrap returns conn: only Linux gives receive timestamps here.
func Wrap(conn net.Conn, c *Clock) net.Conn { return conn }
