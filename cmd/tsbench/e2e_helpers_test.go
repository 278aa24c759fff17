package main

// Helpers that several of the end-to-end test files share.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// inParallel marks an end-to-end test that may run beside the other such
// tests (go test -parallel: CI runs four at a time). Such a test writes only
// to a database, series or directory of its own (freshDB, a DB_NAME no
// other test names, t.TempDir, its run's labels), stops or pauses no shared
// server, and judges nothing a busy machine would change (a rate, a
// latency, a phase reached after a sleep). Go starts these tests once every
// serial one has ended, so a serial test may still crash a shared server.
func inParallel(t *testing.T) {
	t.Helper()
	t.Parallel()
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

// testServer is target's test server as scripts/services starts it: the
// script its Driver names (Driver.Service) and 127.0.0.1 at the target's
// default port; an empty service for a target without a server.
func testServer(t *testing.T, target string) (service, addr string) {
	t.Helper()
	d, err := targets.Lookup(target)
	if err != nil {
		t.Fatal(err)
	}
	if d.Service == "" {
		return "", ""
	}
	return d.Service, fmt.Sprintf("127.0.0.1:%d", d.DefaultPort)
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

func addrOf(t *testing.T, target string) string { _, addr := testServer(t, target); return addr }
func serviceOf(t *testing.T, target string) string {
	service, _ := testServer(t, target)
	return service
}

// requireTargetServer requires target's test server (targettest.RequireServer:
// the test is skipped without it, failed in CI). An embedded target needs
// none.
func requireTargetServer(t *testing.T, target string) {
	t.Helper()
	if service, addr := testServer(t, target); service != "" {
		targettest.RequireServer(t, service, addr)
	}
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

// withSets returns a copy of the argument list base with each override,
// KEY=VALUE, given in it: where base already gives KEY by --set (as
// "--set", "KEY=VALUE" or "--set=KEY=VALUE"; KEY compared without regard
// to case, as written, no alias resolved) the value is replaced in place,
// in the argument's own form; otherwise "--set", KEY=VALUE is appended. A
// later override of one key wins over an earlier one. tsbench refuses one
// setting given two values on the command line, so a test that changes a
// shared shape's setting must replace it, not append a second --set. Key
// flags (--loop, --clients) are not looked at: a base that gives a key by
// its flag must not be given it again here.
func withSets(base []string, overrides ...string) []string {
	args := slices.Clone(base)
	for _, o := range overrides {
		key, _, ok := strings.Cut(o, "=")
		if key = strings.TrimSpace(key); !ok || key == "" {
			panic(fmt.Sprintf("withSets: override %q is not KEY=VALUE", o))
		}
		found := false
		for i, a := range args {
			prefix, kv := "", a
			switch {
			case strings.HasPrefix(a, "--set="):
				prefix, kv = "--set=", strings.TrimPrefix(a, "--set=")
			case i > 0 && args[i-1] == "--set":
			default:
				continue
			}
			if k, _, _ := strings.Cut(kv, "="); strings.EqualFold(strings.TrimSpace(k), key) {
				args[i] = prefix + o
				found = true
			}
		}
		if !found {
			args = append(args, "--set", o)
		}
	}
	return args
}

// TestWithSets: an override replaces the key's --set in place, in either
// form and any case, and is appended otherwise; the base is left as it was.
func TestWithSets(t *testing.T) {
	inParallel(t)
	cases := []struct {
		name      string
		base      []string
		overrides []string
		want      []string
	}{
		{"none", []string{"--target", "null", "--set", "LOOP=30"}, nil, []string{"--target", "null", "--set", "LOOP=30"}},
		{"replaced in place", []string{"--set", "LOOP=30", "--clients", "2", "--set", "DB_NAME=test"}, []string{"LOOP=60"},
			[]string{"--set", "LOOP=60", "--clients", "2", "--set", "DB_NAME=test"}},
		{"appended", []string{"--set", "LOOP=30"}, []string{"OP_MIN_INTERVAL=100"},
			[]string{"--set", "LOOP=30", "--set", "OP_MIN_INTERVAL=100"}},
		{"nil base", nil, []string{"LOOP=1"}, []string{"--set", "LOOP=1"}},
		{"any case", []string{"--set", "loop = 30"}, []string{"LOOP=60"}, []string{"--set", "LOOP=60"}},
		{"--set=KEY=VALUE keeps its form", []string{"--set=LOOP=30", "--set=DB_NAME=a"}, []string{"loop=60"},
			[]string{"--set=loop=60", "--set=DB_NAME=a"}},
		{"a value with =", []string{"--set", "TARGET_OPTIONS=write_path=copy"}, []string{"TARGET_OPTIONS=write_path=insert"},
			[]string{"--set", "TARGET_OPTIONS=write_path=insert"}},
		{"target option", []string{"--set", "target.write_path=prom"}, []string{"target.write_path=json"},
			[]string{"--set", "target.write_path=json"}},
		{"a key given twice in base", []string{"--set", "LOOP=1", "--set", "LOOP=2"}, []string{"LOOP=3"},
			[]string{"--set", "LOOP=3", "--set", "LOOP=3"}},
		{"the last override wins", []string{"--set", "LOOP=1"}, []string{"LOOP=2", "LOOP=3", "RATE=4", "rate=5"},
			[]string{"--set", "LOOP=3", "--set", "rate=5"}},
		{"not a --set value", []string{"--out", "LOOP=1", "LOOP=2"}, []string{"LOOP=3"},
			[]string{"--out", "LOOP=1", "LOOP=2", "--set", "LOOP=3"}},
		{"another key with that prefix", []string{"--set", "LOOP_X=1"}, []string{"LOOP=2"},
			[]string{"--set", "LOOP_X=1", "--set", "LOOP=2"}},
		{"several keys of a shape", setArgs(workersShape),
			[]string{"CLIENT_NUMBER=4", "OPERATION_PROPORTION=1", "BATCH_SIZE_PER_WRITE=100", "LOOP=100"},
			setArgs([]string{"DB_SWITCH=postgres", "DB_NAME=test", "DEVICE_NUMBER=12", "CLIENT_NUMBER=4", "SENSOR_NUMBER=5",
				"BATCH_SIZE_PER_WRITE=100", "LOOP=100", "OPERATION_PROPORTION=1", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0"})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(c.base)
			if got := withSets(c.base, c.overrides...); !slices.Equal(got, c.want) {
				t.Errorf("withSets(%q, %q) = %q, want %q", c.base, c.overrides, got, c.want)
			}
			if !slices.Equal(c.base, before) {
				t.Errorf("base changed: %q, was %q", c.base, before)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("an override without = did not panic")
		}
	}()
	withSets(nil, "LOOP")
}
