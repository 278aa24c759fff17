package testenv

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Ports of the TLS-only servers the TLS tests start, beside the plain ones
// of scripts/services (Cassandra's 9042/7000/7199, IoTDB's
// 6667/10710-10760).
const (
	PostgresTLSPort  = 5443
	MariaDBTLSPort   = 3317
	CassandraTLSPort = 9142
	IoTDBTLSPort     = 6767
)

// StartPostgresTLS starts a PostgreSQL that takes TLS connections only (see
// StartTLSServer) and returns its CA file.
func StartPostgresTLS(t testing.TB) string {
	t.Helper()
	return StartTLSServer(t, "postgres", PostgresTLSPort, "/usr/lib/postgresql/15/bin/postgres")
}

// StartMariaDBTLS starts a MariaDB that takes TLS connections only (see
// StartTLSServer) and returns its CA file.
func StartMariaDBTLS(t testing.TB) string {
	t.Helper()
	return StartTLSServer(t, "mariadb", MariaDBTLSPort, "/usr/sbin/mariadbd")
}

// StartTLSServer starts, through scripts/services/SERVICE.sh, a second
// server of the service on port that takes TLS connections only, with a
// certificate for 127.0.0.1 signed by a CA the test makes
// (TSBENCH_<SERVICE>_TLS_DIR), and stops it when the test ends. It returns
// the CA file. Without the server's binary, or without root (the scripts
// run servers as their own users), the test fails in CI and is skipped
// elsewhere.
func StartTLSServer(t testing.TB, service string, port int, binary string) string {
	t.Helper()
	if _, err := os.Stat(binary); err != nil || os.Geteuid() != 0 {
		Require(t, "a TLS "+service+" needs "+binary+" and root (scripts/services/"+service+".sh install)")
	}
	// The server runs as its own user: it must reach its directory.
	services := t.TempDir()
	for _, d := range []string{services, filepath.Dir(services)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ca := startScriptTLS(t, service, port, services, 2*time.Minute)
	conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	return ca
}

// startScriptTLS runs scripts/services/SERVICE.sh start for a second
// server of the service on port (TSBENCH_<SERVICE>_PORT) that takes TLS only,
// with a certificate the test makes (TSBENCH_<SERVICE>_TLS_DIR), in the
// services directory given (TSBENCH_SERVICES_DIR) and with env besides;
// the start may take startLimit. The server is stopped when the test ends,
// or at once when its start failed (a half-started JVM would hold its
// ports). It returns the CA file.
func startScriptTLS(t testing.TB, service string, port int, services string, startLimit time.Duration, env ...string) string {
	t.Helper()
	holdPort(t, port)
	certs := t.TempDir()
	ca := WriteCerts(t, certs)
	script := filepath.Join(repoRoot(t), "scripts", "services", service+".sh")
	prefix := "TSBENCH_" + strings.ToUpper(service)
	env = append(append(os.Environ(), "TSBENCH_SERVICES_DIR="+services, prefix+"_PORT="+strconv.Itoa(port),
		prefix+"_TLS_DIR="+certs), env...)
	run := func(action string, limit time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", script, action)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("%s.sh %s: %v\n%s", service, action, err, out)
		}
		return err
	}
	const stopLimit = 2 * time.Minute
	start := time.Now()
	if err := run("start", startLimit); err != nil {
		run("stop", stopLimit)
		t.Fatalf("start a TLS %s on 127.0.0.1:%d", service, port)
	}
	t.Logf("a TLS-only %s answers on 127.0.0.1:%d after %s", service, port, time.Since(start).Round(time.Second))
	t.Cleanup(func() { run("stop", stopLimit) })
	return ca
}

// holdPort keeps port to the test until it ends: the TLS servers listen
// on fixed ports, and test binaries of several packages (go test runs
// them at once) start them. Registered before the server's stop, the
// release runs after it.
func holdPort(t testing.TB, port int) {
	t.Helper()
	name := filepath.Join(os.TempDir(), "tsbench-test-port-"+strconv.Itoa(port)+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	start := time.Now()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("testenv: lock %s: %v", name, err)
	}
	if waited := time.Since(start); waited > time.Second {
		t.Logf("waited %s for port %d, which another test's server held", waited.Round(time.Second), port)
	}
	t.Cleanup(func() { f.Close() }) // closing releases the lock
}

// repoRoot is the checkout's top directory, found from this file.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the checkout from the test binary")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}
