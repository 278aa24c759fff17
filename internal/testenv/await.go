package testenv

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// awaitLimit bounds the wait for a server still being built: more than
// the slowest cold builds on a busy 2-core machine (Prometheus, Thanos
// and Mimir one after another, half an hour of CPU with InfluxDB 1.13's
// beside them).
const awaitLimit = 30 * time.Minute

// ServicesDir is where scripts/services keep their state: pid files, data,
// and the marks of servers still being built.
func ServicesDir() string {
	if d := os.Getenv("TSBENCH_SERVICES_DIR"); d != "" {
		return d
	}
	return "/tmp/tsbench-services"
}

// AwaitService waits while the service name is still being built.
// scripts/ci/late-services.sh builds the servers that take longest to
// compile (Prometheus, Thanos, Mimir, InfluxDB 1.13) in the background and
// marks each pending ($TSBENCH_SERVICES_DIR/NAME.pending) until its build
// has ended and the server started; a test run while they build (CI's,
// or a developer's go test beside that script) waits here rather than
// failing for want of a server that is on its way. Without a mark this
// returns at once.
func AwaitService(t testing.TB, name string) {
	t.Helper()
	marker := filepath.Join(ServicesDir(), name+".pending")
	start := time.Now()
	for pending(marker) {
		if time.Since(start) > awaitLimit {
			t.Fatalf("%s is still being built after %s (%s)", name, awaitLimit, marker)
		}
		time.Sleep(2 * time.Second)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Logf("waited %s for %s, built and started beside the tests", waited.Round(time.Second), name)
	}
}

func pending(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}
