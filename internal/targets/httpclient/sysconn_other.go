//go:build !linux

package httpclient

import (
	"net"

	"github.com/tsbench/tsbench/internal/arrival"
)

// sysConn is the connection's own Read and Write where the raw system
// calls of sysconn_linux.go are not used.
type sysConn struct{ c *net.TCPConn }

func newSysConn(c *net.TCPConn) (*sysConn, error) { return &sysConn{c: c}, nil }

// writev writes a and then b in full.
func (s *sysConn) writev(a, b []byte) error {
	bufs := net.Buffers{a, b}
	_, err := bufs.WriteTo(s.c)
	return err
}

// read reads into p what the socket has, waiting until it has something.
func (s *sysConn) read(p []byte) (int, error) { return s.c.Read(p) }

// stamp keeps no arrivals: the receive timestamps are Linux's here.
func (s *sysConn) stamp(*arrival.Clock) {}
