package main

// Helpers that several of the end-to-end test files share.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/analytics/spark"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// writeInputFile writes an input file (a configuration, a password file)
// readable only by its owner, as one holding a password should be, and
// returns its path.
func writeInputFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startKilledAtEnd starts cmd; the test's end kills it unless it has been
// waited for, so that no tsbench outlives a failed test.
func startKilledAtEnd(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
}

// targetServers are the targets' test servers as scripts/services starts
// them: by target, the script's name and the address it listens at.
var targetServers = map[string]struct{ service, addr string }{
	"influxdb":        {"influxdb", "127.0.0.1:8086"},
	"victoriametrics": {"victoriametrics", "127.0.0.1:8428"},
	"questdb":         {"questdb", "127.0.0.1:8812"},
	"iotdb":           {"iotdb", "127.0.0.1:6667"},
	"postgres":        {"postgres", "127.0.0.1:5433"},
	"mysql":           {"mariadb", "127.0.0.1:3307"},
	"clickhouse":      {"clickhouse", "127.0.0.1:8124"},
	"timescaledb":     {"timescaledb", "127.0.0.1:5434"},
	"cassandra":       {"cassandra", "127.0.0.1:9042"},
	"hbase":           {"hbase", "127.0.0.1:2181"},
	"opentsdb":        {"opentsdb", "127.0.0.1:4242"},
	"kairosdb":        {"kairosdb", "127.0.0.1:8080"},
	"prometheus":      {"prometheus", "127.0.0.1:9090"},
	"mimir":           {"mimir", "127.0.0.1:9029"},
	"thanos":          {"thanos", "127.0.0.1:10908"},
}

// requireBuiltIn requires target in this build: duckdb is linked in only
// with the build tag duckdb, which CI gives (.ci/inside's GOFLAGS); without
// it the test is skipped, and failed in CI.
func requireBuiltIn(t *testing.T, target string) {
	t.Helper()
	if _, err := targets.Lookup(target); err != nil {
		testenv.Require(t, target+" is not in this build: go test -tags "+target+" ./cmd/tsbench, as CI runs it")
	}
}

// requireTargetServer requires target's test server (targettest.RequireServer:
// the test is skipped without it, failed in CI). The embedded SQLite needs
// none.
func requireTargetServer(t *testing.T, target string) {
	t.Helper()
	if target == "sqlite" {
		return
	}
	srv, ok := targetServers[target]
	if !ok {
		t.Fatalf("no test server known for target %s", target)
	}
	targettest.RequireServer(t, srv.service, srv.addr)
}

// formatFile is an input file of a replay test: its name, its --format
// and how to write it.
type formatFile struct {
	name, format string
	write        func(path string)
}

// eachFormatFile writes each file into dir and checks it in a subtest named
// after it.
func eachFormatFile(t *testing.T, dir string, files []formatFile, check func(t *testing.T, path, format string)) {
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name)
			f.write(path)
			check(t, path, f.format)
		})
	}
}

// onSQLiteAndPostgres runs f in a subtest a target: the embedded SQLite,
// and PostgreSQL on its test server (scripts/services/postgres.sh).
func onSQLiteAndPostgres(t *testing.T, f func(t *testing.T, target string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, "sqlite") })
	t.Run("postgres", func(t *testing.T) {
		requireTargetServer(t, "postgres")
		f(t, "postgres")
	})
}

// requireSpark stops a test that needs Apache Spark where it is not
// installed (scripts/ci/install-spark.sh), as testenv.Require decides.
func requireSpark(t *testing.T) {
	t.Helper()
	if _, err := (spark.Engine{}).Locate(); err != nil {
		testenv.Require(t, "Spark is not installed: "+err.Error())
	}
}

// checkSparkAnalytics checks a das-events run with --analytics-engine
// spark, its results in dataDir: it exited 0, says Spark ran the
// analytics, and each of the five answers Spark wrote back was checked
// against the generator's and agreed.
func checkSparkAnalytics(t *testing.T, r result, dataDir string) {
	t.Helper()
	if r.code != 0 {
		t.Fatal(failedRun(r))
	}
	if !strings.Contains(r.stdout, "run by Apache Spark (master local[*], over JDBC)") {
		t.Errorf("output does not say Spark ran the analytics:\n%s", tail(r.stdout, 30))
	}
	res := readScenario(t, dataDir)
	if len(res.Analytics) != 1 || len(res.Analytics[0].Queries) != 5 {
		t.Fatalf("analytics: %+v", res.Analytics)
	}
	for _, o := range res.Analytics[0].Queries {
		if !o.Checked || o.Error != "" {
			t.Errorf("%s: %+v", o.Name, o)
		}
	}
}
