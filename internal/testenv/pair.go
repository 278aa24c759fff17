package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// PostgresPair is a PostgreSQL primary with a streaming standby, started
// by scripts/services/postgres-pair.sh in a services directory of the
// test's own, on free ports: a test may kill its primary and promote its
// standby without touching anyone else's server.
type PostgresPair struct {
	Primary, Standby         int
	PrimaryHost, StandbyHost string   // their addresses: 127.0.0.1, or loopback addresses of their own
	env                      []string // the script's settings: directory, addresses, ports, mode
	script                   string
}

// StartPostgresPair starts a pair whose standby is synchronous (a commit
// returns once the standby has it) or asynchronous, and stops it when the
// test ends. hosts, when given, are the primary's and the standby's
// addresses (loopback addresses of their own, which a partition can cut
// off); else both listen on 127.0.0.1. Without Debian's PostgreSQL 15 or
// without root (the script runs the servers as the postgres user) the
// test fails in CI and is skipped elsewhere.
func StartPostgresPair(t testing.TB, synchronous bool, hosts ...string) *PostgresPair {
	t.Helper()
	const binary = "/usr/lib/postgresql/15/bin/postgres"
	if _, err := os.Stat(binary); err != nil || os.Geteuid() != 0 {
		Require(t, "a postgres pair needs "+binary+" and root (scripts/services/postgres.sh install)")
	}
	services := t.TempDir()
	for _, d := range []string{services, filepath.Dir(services)} {
		if err := os.Chmod(d, 0o755); err != nil { // the servers' user must enter it
			t.Fatal(err)
		}
	}
	mode := map[bool]string{true: "on", false: "off"}[synchronous]
	p := &PostgresPair{Primary: FreePort(t), Standby: FreePort(t), PrimaryHost: "127.0.0.1", StandbyHost: "127.0.0.1",
		script: filepath.Join(repoRoot(t), "scripts", "services", "postgres-pair.sh")}
	if len(hosts) == 2 {
		p.PrimaryHost, p.StandbyHost = hosts[0], hosts[1]
	}
	p.env = []string{"TSBENCH_SERVICES_DIR=" + services, "TSBENCH_POSTGRES_PAIR_PORT=" + strconv.Itoa(p.Primary),
		"TSBENCH_POSTGRES_PAIR_STANDBY_PORT=" + strconv.Itoa(p.Standby), "TSBENCH_POSTGRES_PAIR_SYNC=" + mode,
		"TSBENCH_POSTGRES_PAIR_HOST=" + p.PrimaryHost, "TSBENCH_POSTGRES_PAIR_STANDBY_HOST=" + p.StandbyHost}
	start := time.Now()
	if out, err := p.run("start", 2*time.Minute); err != nil {
		p.run("stop", time.Minute) //nolint:errcheck // a half-started pair must not outlive the test
		t.Fatalf("postgres-pair.sh start: %v\n%s", err, out)
	}
	t.Logf("a postgres pair (synchronous_commit with the standby: %s) answers on %d and %d after %s",
		mode, p.Primary, p.Standby, time.Since(start).Round(time.Second))
	t.Cleanup(func() {
		if out, err := p.run("stop", time.Minute); err != nil {
			t.Logf("postgres-pair.sh stop: %v\n%s", err, out)
		}
	})
	return p
}

// Command is the shell command that runs the script's action on this
// pair: what --crash-restart names to promote the standby.
func (p *PostgresPair) Command(action string) string {
	return strings.Join(p.env, " ") + " bash " + p.script + " " + action
}

// URL is the pair as one database: each connection goes to the node
// that takes writes.
func (p *PostgresPair) URL() string {
	return "postgres://postgres@" + p.PrimaryHost + ":" + strconv.Itoa(p.Primary) + "," + p.StandbyHost + ":" +
		strconv.Itoa(p.Standby) + "/test?target_session_attrs=read-write"
}

func (p *PostgresPair) run(action string, limit time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", p.script, action)
	cmd.Env = append(os.Environ(), p.env...)
	return cmd.CombinedOutput()
}
