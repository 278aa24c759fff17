//go:build !linux

package main

import "net"

// connIO is net.Conn's own calls, where the raw ones are not written.
type connIO struct{ c *net.TCPConn }

func newBareIO(c *net.TCPConn) (bareIO, error) { return connIO{c}, nil }

func (c connIO) write(p []byte) error {
	_, err := c.c.Write(p)
	return err
}

func (c connIO) read(p []byte) (int, error) { return c.c.Read(p) }
