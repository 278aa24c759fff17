package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readStream reads testdata/stream.json, what 'go test -json -bench=.
// -benchtime=1x ./...' wrote for three small packages: jt (a test passing
// with a subtest, one failing in its subtest, one skipped), jt/p2 (a test
// passing, one panicking) and jt/p3 (a test and a benchmark, passing).
func readStream(t *testing.T, out *strings.Builder) *testLog {
	t.Helper()
	f, err := os.Open("testdata/stream.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l := newLog(out)
	if err := l.read(f); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestPrintsWhatGoTestPrints(t *testing.T) {
	var out strings.Builder
	l := readStream(t, &out)
	l.summary(4)
	got := out.String()
	for _, want := range []string{
		"before the failure", "the failure", "--- FAIL: TestFails (",
		"before the panic", "panic: assignment to entry in nil map", "FAIL\tjt/p2\t",
		"BenchmarkWork-2   \t       1\t", "3.000 things/op", "ok  \tjt/p3\t",
		"== where the tests' time went: 0 s in 3 packages, 0 s of wall time\n",
		"== the 4 slowest tests\n     0.0 s  jt.TestPasses\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"passing output", "passing sub output", "first passes", "quick passes", "skipped output", "=== RUN   BenchmarkWork", "BenchmarkWork\n"} {
		if strings.Contains(got, gone) {
			t.Errorf("output has %q, which go test without -json leaves out:\n%s", gone, got)
		}
	}
	if n := strings.Count(got, "     0.0 s  "); n != 4 {
		t.Errorf("%d tests listed, want the 4 asked for:\n%s", n, got)
	}
}

func TestLongest(t *testing.T) {
	for _, c := range []struct {
		in   []timing
		n    int
		want string
	}{
		{[]timing{{"a", 1}, {"b", 3}, {"c", 2}}, 2, "b c"},
		{[]timing{{"b", 1}, {"a", 1}}, 5, "a b"},
		{nil, 3, ""},
	} {
		var names []string
		for _, t := range longest(c.in, c.n) {
			names = append(names, t.name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("longest(%v, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// A test whose subtests run in parallel (t.Parallel) ends after them, though
// go test's Elapsed for it counts only its own function: its time is from
// its run to its end.
func TestParallelSubtestsCountInTheirTest(t *testing.T) {
	stream := `{"Time":"2026-11-28T05:00:00Z","Action":"run","Package":"p","Test":"TestServers"}
{"Time":"2026-11-28T05:00:00.01Z","Action":"run","Package":"p","Test":"TestServers/a"}
{"Time":"2026-11-28T05:00:00.01Z","Action":"pause","Package":"p","Test":"TestServers/a"}
{"Time":"2026-11-28T05:00:00.02Z","Action":"cont","Package":"p","Test":"TestServers/a"}
{"Time":"2026-11-28T05:00:40Z","Action":"pass","Package":"p","Test":"TestServers/a","Elapsed":40}
{"Time":"2026-11-28T05:00:40Z","Action":"pass","Package":"p","Test":"TestServers","Elapsed":0}
{"Time":"2026-11-28T05:00:41Z","Action":"run","Package":"p","Test":"TestLater"}
{"Time":"2026-11-28T05:00:41Z","Action":"pause","Package":"p","Test":"TestLater"}
{"Time":"2026-11-28T05:00:51Z","Action":"cont","Package":"p","Test":"TestLater"}
{"Time":"2026-11-28T05:00:53Z","Action":"pass","Package":"p","Test":"TestLater","Elapsed":2}
{"Time":"2026-11-28T05:00:53Z","Action":"pass","Package":"p","Elapsed":53}
`
	var out strings.Builder
	l := newLog(&out)
	if err := l.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	l.summary(2)
	// TestLater waited 10 s paused (a parallel top-level test): not its time.
	if got := out.String(); !strings.Contains(got, "    40.0 s  p.TestServers\n     2.0 s  p.TestLater\n") {
		t.Errorf("slowest tests:\n%s", got)
	}
}

func TestCPULine(t *testing.T) {
	from, ok := parseStat("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\ncpu1 50 0 25 400 25 0 0 0 0 0\nintr 1\n")
	if !ok || from.busy != 150 || from.total != 1000 || from.cores != 2 {
		t.Fatalf("parsed %+v, %v", from, ok)
	}
	to, _ := parseStat("cpu  400 0 150 1200 250 0 0 0 0 0\ncpu0 1 2 3 4 5\ncpu1 1 2 3 4 5\n")
	to.at = from.at.Add(10 * time.Second)
	if got, want := cpuLine(from, to), "over these 10 s (the go command's building and linking included): 40% busy of 2 cores\n"; !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end %q", got, want)
	}
	if _, ok := parseStat("intr 1\n"); ok {
		t.Error("a stat without a cpu line parsed")
	}
}

// TestCPUBesidePackages reads testcpu's lines into the packages' times:
// a package run twice adds up, one without a line has none.
func TestCPUBesidePackages(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cpuLog := filepath.Join(t.TempDir(), "cpu")
	lines := wd + "/jt/p3\t1.5\t0.25\n" + wd + "/jt/p3\t0.25\t0\n" + wd + "/jt\t3\t1\n" + wd + "/jt\t2.5\t0\tTestPasses\n"
	if err := os.WriteFile(cpuLog, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	l := readStream(t, &out)
	for i := range l.packages { // the recorded packages took under a second
		l.packages[i].seconds += 2
	}
	if err := l.readCPU(cpuLog); err != nil {
		t.Fatal(err)
	}
	l.summary(1)
	got := out.String()
	for _, want := range []string{"(and 6 CPU-s in the test binaries", "     2.0 s      2.0 CPU-s  jt/p3\n",
		"     2.0 s      4.0 CPU-s  jt\n", "     2.0 s  jt/p2\n",
		"== the 1 tests whose own processes (the tsbench runs) took the most CPU\n     2.5 CPU-s  jt.TestPasses\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if err := os.WriteFile(cpuLog, []byte("x\ty\tz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.readCPU(cpuLog); err == nil {
		t.Error("a bad line read")
	}
}
