package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

// TestMain holds the servers' lock shared (testenv.Run): pgbench here
// runs against the PostgreSQL that other packages' tests may stop.
func TestMain(m *testing.M) { testenv.Main(m) }

// pgbench's own output and -l log (pgbench 15, 2 clients x 50 prepared
// SELECT n + 1): the rate, the count and the latencies read from them.
func TestPgbenchResult(t *testing.T) {
	out, err := os.ReadFile("testdata/pgbench/stdout.txt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := pgbenchResult(string(out), "testdata/pgbench", 2*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// The log's 100 latencies, sorted: the 50th is the median, the 99th
	// the p99 (its largest but one).
	if m.Rate != 12365.524917 || m.Ops != 100 || m.P50 <= 0 || m.P99 < m.P50 || m.cpuPerOp() != 20 {
		t.Errorf("%+v (CPU per query %.1f µs)", m, m.cpuPerOp())
	}
}

// go-tpc's own output of a tpcc run: tpmC, and its transactions from
// tpmTotal over the run's minutes.
func TestGoTPCResult(t *testing.T) {
	out, err := os.ReadFile("testdata/go-tpc-run.txt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := goTPCResult(string(out), time.Second, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if m.Rate != 6314.6 || m.Ops != 1160 { // 13,926.5 a minute for 5 s
		t.Errorf("%+v", m)
	}
	if _, err := goTPCResult("no summary", 0, time.Second); err == nil {
		t.Error("an output without its summary was read")
	}
}

// The go-tpc comparison refuses, with exit 2 and before it looks for
// go-tpc, a mode tsbench has not and a mode set past --mode.
func TestCompareGoTPCRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "pipelined"}, `--mode "pipelined": allowed: interactive, batched`},
		{[]string{"--mode", "batched", "--tsbench-arg=--set", "--tsbench-arg=TPCC_MODE=interactive"}, "is --mode's"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"go-tpc", "--go-tpc", "/nonexistent/go-tpc"}, c.args...), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// The comparison with pgbench runs, briefly, against the real PostgreSQL:
// both sides measured, their medians and ratios printed.
func TestComparePgbench(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	if _, err := findTool("", "pgbench", "/usr/lib/postgresql/*/bin/pgbench"); err != nil {
		t.Fatal(err) // installed with the PostgreSQL server (scripts/services/postgres.sh install)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tsbench")
	if out, err := exec.Command("go", "build", "-o", bin, "../tsbench").CombinedOutput(); err != nil {
		t.Fatalf("build tsbench: %v\n%s", err, out)
	}
	for _, c := range []struct{ statement, clientIO, title string }{
		{"plus-one", "goroutines", "tsbench --client-io goroutines,"},
		{"window-max", "auto", "tsbench --client-io auto (epoll),"}, // tsbench's default takes the loops here
		{"plus-one", "epoll", "tsbench --client-io epoll,"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"pgbench", "--tsbench", bin, "--statement", c.statement, "--rows", "360000", "--duration", "2s", "--turns", "1",
			"--client-io", c.clientIO}, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", c.statement, code, stdout.String(), stderr.String())
		}
		for _, want := range []string{"queries/s", "CPU µs/query", "pgbench ", "tsbench ", "tsbench / pgbench", c.title} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%s: no %q in\n%s", c.statement, want, stdout.String())
			}
		}
		t.Logf("%s\n%s", c.statement, stdout.String())
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"pgbench", "--statement", "nope"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "plus-one") {
		t.Errorf("a bad statement: exit %d, %s", code, stderr.String())
	}
	for _, args := range [][]string{{"--client-io", "threads"}, {"--client-io", "epoll", "--tsbench-arg=--client-loops=1"},
		{"--tsbench-arg=--set", "--tsbench-arg=CLIENT_IO=epoll"}} {
		stderr.Reset()
		if code := run(append([]string{"pgbench"}, args...), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "client-io") {
			t.Errorf("%v: exit %d, want 2 naming --client-io: %s", args, code, stderr.String())
		}
	}
}
