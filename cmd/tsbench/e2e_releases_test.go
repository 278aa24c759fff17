package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/chdb"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// currentRelease is a server of scripts/services in the release users run
// today, beside the distribution's release of the same target: the
// target, its script, its port and the version the server reports.
type currentRelease struct {
	target, service, port, version string
}

// currentReleases are those servers (the distribution's releases are
// tested by the other end-to-end tests, on the targets' default ports;
// VictoriaMetrics' two by TestVictoriaMetricsReleases).
var currentReleases = []currentRelease{
	{"postgres", "postgres-18", "5435", "PostgreSQL 18.6"},
	{"mysql", "mariadb-11.4", "3308", "11.4.5-MariaDB"},
	{"influxdb", "influxdb-1.13", "8096", "InfluxDB 1.13.2"},
}

// requireRelease requires the release's server (failed in CI, skipped
// elsewhere).
func requireRelease(t *testing.T, r currentRelease) {
	t.Helper()
	targettest.RequireServer(t, r.service, "127.0.0.1:"+r.port)
}

// 'tsbench run' against each current release: a mixed workload with every
// point verified and every query kind's answers checked, and the run's
// output (the console's Server line, the JSON) naming the version the
// server reports.
func TestRunOnCurrentReleases(t *testing.T) {
	for _, r := range currentReleases {
		t.Run(r.service, func(t *testing.T) {
			requireRelease(t, r)
			s, stdout := runVerified(t, "--target", r.target, "--set", "PORT="+r.port, "--loop", verifiedLoops)
			if s.Environment.ServerVersion != r.version || !strings.Contains(stdout, "Server: "+r.version+"\n") {
				t.Errorf("server version %q, console:\n%s; want %q", s.Environment.ServerVersion, tail(stdout, 6), r.version)
			}
			if n := len(s.Verify.Queries); n != 50 || s.Verify.Mismatch() || s.Failed() {
				t.Fatalf("%d query checks, mismatch %v, failed %v:\n%s", n, s.Verify.Mismatch(), s.Failed(), tail(stdout, 12))
			}
		})
	}
}

// TPC-C from the command line on PostgreSQL 18 and MariaDB 11.4: the
// consistency conditions hold after the run, New-Orders commit, and the
// run names the server's version as the time-series runs do.
func TestTPCCOnCurrentReleases(t *testing.T) {
	for _, r := range currentReleases {
		if r.target != "postgres" && r.target != "mysql" {
			continue
		}
		t.Run(r.service, func(t *testing.T) {
			requireRelease(t, r)
			dir := t.TempDir()
			res := tsbench(t, nil, "run", "--workload", "tpcc", "--target", r.target, "--set", "PORT="+r.port,
				"--warehouses", "1", "--clients", "4", "--duration", "3s", "--quiet", "--data-dir", dir,
				"--json", filepath.Join(dir, "out.json"))
			if res.code != 0 {
				t.Fatal(failedRun(res))
			}
			s := readSummary(t, filepath.Join(dir, "out.json"))
			if s.TPCC == nil || !s.TPCC.Consistent() || len(s.TPCC.Consistency) != 11 || s.TPCC.TpmC <= 0 {
				t.Fatalf("TPC-C figures %+v", s.TPCC)
			}
			if no := s.Op("NEW_ORDER"); no == nil || no.OKOperations == 0 {
				t.Fatalf("no New-Orders: %+v", s.Operations)
			}
			if s.Environment.ServerVersion != r.version {
				t.Errorf("server version %q, want %q", s.Environment.ServerVersion, r.version)
			}
		})
	}
}

// Two runs of one configuration on PostgreSQL 15 and 18: tsbench compare
// lists the version change among what differs, before the figures.
func TestCompareNamesVersionChange(t *testing.T) {
	requireTargetServer(t, "postgres")
	pg18 := currentReleases[0]
	requireRelease(t, pg18)
	env := []string{"TSBENCH_RESULTS="}
	dir := t.TempDir()
	run := func(port string) string {
		id, _ := storedRun(t, tsbench(t, env, "run", "--target", "postgres", "--set", "PORT="+port, "--loop", "20",
			"--devices", "2", "--sensors", "2", "--clients", "2", "--data-dir", dir))
		return id
	}
	a, b := run("5433"), run(pg18.port)
	res := compareJSON(t, env, a, b, "--data-dir", dir)
	var version bool
	for _, d := range res.Pairs[0].Differences {
		if d.Key == "server version" {
			version = strings.HasPrefix(d.Baseline, "PostgreSQL 15.") && d.Value == pg18.version
		}
	}
	if !version {
		t.Errorf("differences %+v: want the server version, PostgreSQL 15.x -> %s", res.Pairs[0].Differences, pg18.version)
	}
	r := tsbench(t, env, "compare", a, b, "--data-dir", dir)
	mustExit(t, r, 0, "compare")
	if i, table := strings.Index(r.stdout, "server version"), strings.Index(r.stdout, "Operation"); i < 0 || i > table ||
		!strings.Contains(r.stdout, pg18.version) {
		t.Errorf("compare does not list the version change before the table:\n%s", resTail(r.stdout, 2000))
	}
}

// ClickHouse's current engine, in tsbench's process (the chdb target):
// a mixed workload with every point verified and every query kind's
// answers checked, the run naming the engine's version (the 18.16 server's
// runs name theirs: TestRunOnEveryServer) and counting the engine's work
// as the tool's process's, as for duckdb.
func TestRunOnChDB(t *testing.T) {
	inParallel(t)
	lib := filepath.Join(chdb.CacheDir(), "chdb-core-"+chdb.Version, "chdb", "_chdb.abi3.so")
	if _, err := os.Stat(lib); err != nil {
		testenv.Require(t, "chdb-core not found ("+err.Error()+"); install it with: scripts/ci/install-chdb.sh")
	}
	s, stdout := runVerified(t, "--target", "chdb", "--loop", verifiedLoops)
	if !strings.HasPrefix(s.Environment.ServerVersion, "ClickHouse 26.9.") || !strings.Contains(stdout, "Server: ClickHouse 26.9.") {
		t.Errorf("server version %q, want ClickHouse 26.9.x", s.Environment.ServerVersion)
	}
	if n := len(s.Verify.Queries); n != 50 || s.Verify.Mismatch() || s.Failed() || s.Tool.EmbeddedEngine != "chdb" {
		t.Fatalf("%d query checks, mismatch %v, failed %v, embedded engine %q:\n%s", n, s.Verify.Mismatch(), s.Failed(),
			s.Tool.EmbeddedEngine, tail(stdout, 12))
	}
}
