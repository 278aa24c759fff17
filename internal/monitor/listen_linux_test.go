package monitor

import (
	"maps"
	"net"
	"slices"
	"strconv"
	"testing"
)

// The socket diagnostics find the same listening sockets as /proc/net's
// tables, over IPv4 and IPv6, and none on a port a socket only connects from.
func TestDiagListening(t *testing.T) {
	ln4 := listen(t, "tcp4", "127.0.0.1:0")
	ln6 := listen(t, "tcp6", "[::1]:0")
	client, err := net.Dial("tcp4", ln4.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for _, ln := range []net.Listener{ln4, ln6} {
		a := listenAddr{port: ln.Addr().(*net.TCPAddr).Port}
		got, ok := diagListening(a)
		if !ok {
			t.Fatal("the kernel's socket diagnostics did not answer")
		}
		want := procListening(a)
		if len(got) != 1 || !maps.Equal(got, want) {
			t.Errorf("port %d: sock_diag %v, /proc/net %v: want the one listener in both", a.port, slices.Collect(maps.Keys(got)), slices.Collect(maps.Keys(want)))
		}
	}
	from := listenAddr{port: client.LocalAddr().(*net.TCPAddr).Port}
	if got, _ := diagListening(from); len(got) != 0 {
		t.Errorf("port %d only connects: sock_diag lists %v", from.port, got)
	}
}

// A cluster's nodes on loopback addresses of their own share a port: the
// socket sought at one node's address is that node's, and a socket bound
// to every address serves each of them; both ways of listing agree.
func TestListeningAtAnAddress(t *testing.T) {
	node2 := listen(t, "tcp4", "127.0.0.2:0")
	port := node2.Addr().(*net.TCPAddr).Port
	listen(t, "tcp4", net.JoinHostPort("127.0.0.3", strconv.Itoa(port)))
	any6 := listen(t, "tcp6", "[::]:0")
	anyPort := any6.Addr().(*net.TCPAddr).Port
	for _, c := range []struct {
		host   string
		port   int
		inodes int
	}{
		{"127.0.0.2", port, 1},
		{"127.0.0.3", port, 1},
		{"127.0.0.4", port, 0},
		{"", port, 2},
		{"localhost", port, 2}, // not an address: any
		{"127.0.0.5", anyPort, 1},
		{"::1", anyPort, 1},
	} {
		a := listenAddr{ip: net.ParseIP(c.host), port: c.port}
		got, ok := diagListening(a)
		want := procListening(a)
		if !ok || len(got) != c.inodes || !maps.Equal(got, want) {
			t.Errorf("%s port %d: sock_diag %v (answered %v), /proc/net %v: want %d", c.host, c.port,
				slices.Collect(maps.Keys(got)), ok, slices.Collect(maps.Keys(want)), c.inodes)
		}
	}
	if a, b := procListening(listenAddr{ip: net.ParseIP("127.0.0.2"), port: port}),
		procListening(listenAddr{ip: net.ParseIP("127.0.0.3"), port: port}); maps.Equal(a, b) {
		t.Errorf("the two nodes' sockets are the same: %v", a)
	}
}

func listen(t *testing.T, network, addr string) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}
