package testenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// withSkipped runs f with the skip reasons set to whys.
func withSkipped(t *testing.T, whys map[string]int, f func()) {
	t.Helper()
	mu.Lock()
	saved := skipped
	skipped = whys
	mu.Unlock()
	defer func() { mu.Lock(); skipped = saved; mu.Unlock() }()
	f()
}

// The messages the repository's helpers skip with (targettest.RequireServer,
// fault.Require, tpcc's servers, Spark, Chromium, HdrHistogram) become short
// names, servers apart from tools.
func TestSummary(t *testing.T) {
	pg := "postgres server not reachable at 127.0.0.1:5433 (dial tcp 127.0.0.1:5433: connect: connection refused); start it with: scripts/services/postgres.sh install && scripts/services/postgres.sh start"
	maria := "mariadb server not reachable at 127.0.0.1:3307 (dial tcp: refused); start it with: scripts/services/mariadb.sh install && scripts/services/mariadb.sh start"
	for _, c := range []struct {
		name string
		whys map[string]int
		want string
	}{
		{"none", map[string]int{}, ""},
		{"one server", map[string]int{pg: 1}, "internal/x: 1 test skipped: no server for postgres"},
		{"servers sorted", map[string]int{pg: 2, maria: 3}, "internal/x: 5 tests skipped: no server for mariadb, postgres"},
		{"same server, two messages", map[string]int{pg: 1,
			"postgres is not running (no pid file): start it with scripts/services/postgres.sh start": 1,
			"mysql server not running on 127.0.0.1:3307 (scripts/services/mariadb.sh start)":          1},
			"internal/x: 3 tests skipped: no server for mysql, postgres"},
		{"tools", map[string]int{
			"Spark is not installed: spark: no spark-submit at /root/.cache/tsbench/spark/bin/spark-submit: install Spark with scripts/ci/install-spark.sh": 1,
			"no Chromium found (install it with scripts/ci/install-chromium.sh, or set TSBENCH_CHROMIUM)":                                                   1,
			"HdrHistogram's Java library not found (stat x.jar: no such file); install it with: scripts/ci/install-hdrhistogram.sh":                         1,
			"java not found (exec: \"java\": executable file not found in $PATH); install it with: scripts/ci/install-hdrhistogram.sh":                      1},
			"internal/x: 4 tests skipped: no Chromium, HdrHistogram's Java library, Spark, java"},
		{"both", map[string]int{pg: 30, "no Chromium found (install it with scripts/ci/install-chromium.sh)": 1},
			"internal/x: 31 tests skipped: no server for postgres; no Chromium"},
	} {
		t.Run(c.name, func(t *testing.T) {
			withSkipped(t, c.whys, func() {
				if got := Summary("internal/x"); got != c.want {
					t.Errorf("Summary = %q\nwant      %q", got, c.want)
				}
			})
		})
	}
}

// However many servers are missing and however long their messages, the
// line stays short: at most maxNames names of at most maxNameLen
// characters each.
func TestSummaryBounded(t *testing.T) {
	whys := map[string]int{}
	for _, s := range []string{"cassandra", "clickhouse", "hbase", "influxdb", "iotdb", "kairosdb", "mariadb",
		"opentsdb", "postgres", "questdb", "timescaledb", "victoriametrics"} {
		whys[s+" server not reachable at 127.0.0.1:1 ("+strings.Repeat("x", 100)+"); start it with: scripts/services/"+s+".sh install && scripts/services/"+s+".sh start"] = 3
	}
	whys[strings.Repeat("a very long name ", 20)+"is not installed"] = 1
	withSkipped(t, whys, func() {
		got := Summary("cmd/tsbench")
		want := "cmd/tsbench: 37 tests skipped: no server for cassandra, clickhouse, hbase, influxdb, iotdb, kairosdb, mariadb, opentsdb and 4 more; no a very long name a very long …"
		if got != want {
			t.Errorf("Summary = %q\nwant      %q", got, want)
		}
		if n := utf8.RuneCountInString(got); n > 200 {
			t.Errorf("Summary is %d characters long", n)
		}
	})
}

func TestShortName(t *testing.T) {
	for _, c := range []struct{ why, want string }{
		{"postgres server not reachable at 127.0.0.1:5433", "postgres"},
		{"Spark is not installed (spark: no spark-submit)", "Spark"},
		{"no Chromium found (install it)", "Chromium"},
		{"java not found", "java"},
		{"something odd: details", "something odd"},
		{"", "something unnamed"},
		{strings.Repeat("é", 50), strings.Repeat("é", maxNameLen-1) + "…"},
	} {
		if got := shortName(c.why); got != c.want {
			t.Errorf("shortName(%q) = %q, want %q", c.why, got, c.want)
		}
	}
}

// Under go test the hint is printed by the first test binary of the go
// command only; a binary elsewhere always prints it.
func TestFirstHint(t *testing.T) {
	work := filepath.Join(t.TempDir(), "go-build123")
	if err := os.MkdirAll(filepath.Join(work, "b001"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		exe  string
		want bool
	}{
		{filepath.Join(work, "b001", "x.test"), true},
		{filepath.Join(work, "b002", "y.test"), false},
		{filepath.Join(work, "b001", "x.test"), false},
		{"/usr/local/bin/x.test", true},
		{"/usr/local/bin/x.test", true},
	} {
		if got := firstHint(c.exe); got != c.want {
			t.Errorf("%d: firstHint(%s) = %v, want %v", i, c.exe, got, c.want)
		}
	}
	if !strings.Contains(Hint, "scripts/services/all install && scripts/services/all start") || !strings.Contains(Hint, "bash .ci/run") {
		t.Errorf("Hint %q does not name the commands", Hint)
	}
}

func TestPackageName(t *testing.T) {
	if !strings.Contains(packageName(), "internal/testenv") {
		t.Errorf("packageName = %q", packageName())
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("test binary: %s", exe)
}

// GoSources reads this package's code, in name order, and not its tests.
func TestGoSources(t *testing.T) {
	var names []string
	GoSources(t, ".", func(name string, src []byte) {
		if !strings.HasPrefix(string(src), "// Package testenv") && !strings.HasPrefix(string(src), "package testenv") {
			t.Errorf("%s starts %.20q", name, src)
		}
		names = append(names, name)
	})
	if !slices.Contains(names, "files.go") || !slices.IsSorted(names) || strings.Contains(strings.Join(names, " "), "_test.go") {
		t.Errorf("GoSources read %v", names)
	}
}
