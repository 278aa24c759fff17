package testenv

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// PostgresTLSPort is where StartPostgresTLS's server listens.
const PostgresTLSPort = 5443

// StartPostgresTLS starts, through scripts/services/postgres.sh, a second
// PostgreSQL that takes TLS connections only, with a certificate for
// 127.0.0.1 signed by a CA the test makes, and stops it when the test
// ends. It returns the CA file. Without PostgreSQL installed, or without
// root (the script runs the server as the postgres user), the test fails
// in CI and is skipped elsewhere.
func StartPostgresTLS(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat("/usr/lib/postgresql/15/bin/postgres"); err != nil || os.Geteuid() != 0 {
		Require(t, "a TLS PostgreSQL needs PostgreSQL 15 and root (scripts/services/postgres.sh install)")
	}
	certs, services := t.TempDir(), t.TempDir()
	ca := WriteCerts(t, certs)
	// The server runs as the postgres user: it must reach its directory.
	for _, d := range []string{services, filepath.Dir(services)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(repoRoot(t), "scripts", "services", "postgres.sh")
	env := append(os.Environ(), "TSBENCH_SERVICES_DIR="+services, "TSBENCH_POSTGRES_PORT="+strconv.Itoa(PostgresTLSPort),
		"TSBENCH_POSTGRES_TLS_DIR="+certs)
	run := func(action string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", script, action)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("postgres.sh %s: %v\n%s", action, err, out)
		}
		return err
	}
	if err := run("start"); err != nil {
		t.Fatalf("start a TLS PostgreSQL on 127.0.0.1:%d", PostgresTLSPort)
	}
	t.Cleanup(func() { run("stop") })
	conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(PostgresTLSPort), 5*time.Second)
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
