//go:build !linux

package pgwire

import (
	"context"
	"net"
)

// BlockingDial is net.Dialer's dial where blocking sockets are not made
// (see blocking_linux.go).
func BlockingDial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}
