package monitor

import (
	"maps"
	"net"
	"slices"
	"testing"
)

// The socket diagnostics find the same listening sockets as /proc/net's
// tables, over IPv4 and IPv6, and none on a port a socket only connects from.
func TestDiagListening(t *testing.T) {
	ln4, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln4.Close()
	ln6, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln6.Close()
	client, err := net.Dial("tcp4", ln4.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for _, ln := range []net.Listener{ln4, ln6} {
		port := ln.Addr().(*net.TCPAddr).Port
		got, ok := diagListening(port)
		if !ok {
			t.Fatal("the kernel's socket diagnostics did not answer")
		}
		want := procListening(port)
		if len(got) != 1 || !maps.Equal(got, want) {
			t.Errorf("port %d: sock_diag %v, /proc/net %v: want the one listener in both", port, slices.Collect(maps.Keys(got)), slices.Collect(maps.Keys(want)))
		}
	}
	from := client.LocalAddr().(*net.TCPAddr).Port
	if got, _ := diagListening(from); len(got) != 0 {
		t.Errorf("port %d only connects: sock_diag lists %v", from, got)
	}
}
