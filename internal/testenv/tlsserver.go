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
	"testing"
	"time"
)

// Ports of the TLS-only servers the TLS tests start, beside the plain ones
// of scripts/services.
const (
	PostgresTLSPort = 5443
	MariaDBTLSPort  = 3317
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
	certs, services := t.TempDir(), t.TempDir()
	ca := WriteCerts(t, certs)
	// The server runs as its own user: it must reach its directory.
	for _, d := range []string{services, filepath.Dir(services)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(repoRoot(t), "scripts", "services", service+".sh")
	prefix := "TSBENCH_" + strings.ToUpper(service)
	env := append(os.Environ(), "TSBENCH_SERVICES_DIR="+services, prefix+"_PORT="+strconv.Itoa(port), prefix+"_TLS_DIR="+certs)
	run := func(action string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", script, action)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("%s.sh %s: %v\n%s", service, action, err, out)
		}
		return err
	}
	if err := run("start"); err != nil {
		t.Fatalf("start a TLS %s on 127.0.0.1:%d", service, port)
	}
	t.Cleanup(func() { run("stop") })
	conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	return ca
}

// repoRoot is the checkout's top directory, found from this file.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the checkout from the test binary")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}
