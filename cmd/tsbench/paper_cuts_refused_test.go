package main

// Paper cuts a new user met (issue 53): a refused connection says what to
// do about it.

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

// closedPort is a port of host that nothing listens on: one just
// listened on and closed.
func closedPort(t *testing.T, host string) string {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", host, err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return strconv.Itoa(port)
}

func TestRefusedConnectionSaysWhatToDo(t *testing.T) {
	inParallel(t)
	dir := t.TempDir()
	env := []string{"TSBENCH_DATA_DIR=" + dir}
	port := closedPort(t, "127.0.0.1")
	r := tsbench(t, env, "run", "--target", "postgres", "--set", "PORT="+port, "--duration", "1s", "--quiet", "--resources=false")
	want := "start it with: sudo scripts/services/postgres.sh install && sudo scripts/services/postgres.sh start"
	if r.code != 1 || !strings.Contains(r.stderr, "connection refused") || !strings.Contains(r.stderr, want) ||
		!strings.Contains(r.stderr, "127.0.0.1:"+port) {
		t.Errorf("postgres on 127.0.0.1:%s: exit %d, stderr:\n%s\nwant 1 and %q", port, r.code, r.stderr, want)
	}

	// Another host (a loopback address other than 127.0.0.1, so that the
	// test dials nothing beyond this machine): where the server should be,
	// and which keys say where it is.
	port = closedPort(t, "127.0.0.2")
	r = tsbench(t, env, "run", "--target", "mysql", "--set", "HOST=127.0.0.2", "--set", "PORT="+port, "--duration", "1s",
		"--quiet", "--resources=false")
	want = "the mysql server is not reachable at 127.0.0.2:" + port
	if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "HOST and PORT") ||
		!strings.Contains(r.stderr, "--target-url") || strings.Contains(r.stderr, "scripts/services") {
		t.Errorf("mysql on 127.0.0.2:%s: exit %d, stderr:\n%s\nwant 1 and %q", port, r.code, r.stderr, want)
	}
}
