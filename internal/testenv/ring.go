package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ThanosRing is a Thanos Receive ring of three nodes (replication factor
// 3), each with its Query, started by scripts/services/thanos-cluster.sh
// in a services directory of the test's own, on loopback addresses of its
// own: a test may kill or cut off a node without touching anyone else's
// server.
type ThanosRing struct {
	Hosts  []string // the nodes' addresses, node 1 first
	env    []string
	script string
}

// ThanosWritePort and ThanosQueryPort are every node's remote write and
// PromQL ports (the script's).
const (
	ThanosWritePort = 10908
	ThanosQueryPort = 10904
)

// StartThanosRing starts a ring on hosts (three loopback addresses no
// other test uses) and stops it when the test ends. Without Thanos built
// (scripts/services/thanos.sh install) the test fails in CI and is
// skipped elsewhere.
func StartThanosRing(t testing.TB, hosts ...string) *ThanosRing {
	t.Helper()
	r := &ThanosRing{Hosts: hosts, script: filepath.Join(repoRoot(t), "scripts", "services", "thanos-cluster.sh")}
	r.env = []string{"TSBENCH_SERVICES_DIR=" + t.TempDir(), "TSBENCH_THANOS_CLUSTER_HOSTS='" + strings.Join(hosts, " ") + "'"}
	start := time.Now()
	if out, err := r.run("start", 3*time.Minute); err != nil {
		r.run("stop", time.Minute) //nolint:errcheck // a half-started ring must not outlive the test
		if strings.Contains(string(out), "not installed") {
			Require(t, "a Thanos ring needs Thanos built (scripts/services/thanos.sh install)")
		}
		t.Fatalf("thanos-cluster.sh start: %v\n%s", err, out)
	}
	t.Logf("a Thanos ring answers on %s after %s", strings.Join(hosts, ", "), time.Since(start).Round(time.Second))
	t.Cleanup(func() {
		if out, err := r.run("stop", time.Minute); err != nil {
			t.Logf("thanos-cluster.sh stop: %v\n%s", err, out)
		}
	})
	return r
}

// Command is the shell command that runs the script's action on this
// ring ("partition 2", "heal 2"): what --crash-command names.
func (r *ThanosRing) Command(action string) string {
	return strings.Join(r.env, " ") + " bash " + r.script + " " + action
}

func (r *ThanosRing) run(action string, limit time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", r.Command(action))
	cmd.Env = os.Environ()
	return cmd.CombinedOutput()
}

// RequireOwnNamespace requires a network namespace with the loopback
// interface alone (scripts/netns-run, as CI runs the tests): a partition
// changes the namespace's routing rules, which must not be the machine's.
func RequireOwnNamespace(t testing.TB) {
	t.Helper()
	if out, _ := exec.Command("ip", "-o", "link", "show").Output(); strings.Count(string(out), "\n") != 1 {
		Require(t, "a partition changes routing rules: run in a network namespace of its own (scripts/netns-run)")
	}
}
