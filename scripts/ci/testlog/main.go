// Command testlog reads the event stream of 'go test -json' and prints what
// a 'go test' without -json prints (the packages' lines, benchmarks' results,
// the whole output of every test that failed or never ended), then where
// the time went: each package's time and the slowest tests. CI runs the
// suite through it (.ci/inside), so that every run tells which tests to
// make cheaper.
//
//	go test -json ./... | go run ./scripts/ci/testlog -slowest 30
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

func main() {
	slowest := flag.Int("slowest", 30, "how many of the slowest tests to list")
	cpuLog := flag.String("cpu", "", "scripts/ci/testcpu's log (TESTCPU_LOG): each package's CPU time beside its time")
	flag.Parse()
	start, measured := readCPU()
	l := newLog(os.Stdout)
	if err := l.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testlog:", err)
		os.Exit(1)
	}
	if *cpuLog != "" {
		if err := l.readCPU(*cpuLog); err != nil {
			fmt.Fprintln(os.Stderr, "testlog:", err)
		}
	}
	l.summary(*slowest)
	if end, ok := readCPU(); measured && ok {
		fmt.Print(cpuLine(start, end))
	}
}

// event is one line of test2json's stream.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
	Time    time.Time
}

// timing is one package's or one test's elapsed time.
type timing struct {
	name    string
	seconds float64
}

// testLog keeps each running top-level test's output (its subtests'
// included) until the test ends: dropped when it passed, printed when it
// failed.
type testLog struct {
	out      io.Writer
	pending  map[string]*strings.Builder // package + " " + top-level test
	started  map[string]time.Time        // when each running top-level test began, paused time left out
	paused   map[string]time.Time
	packages []timing
	cpu      map[string]float64 // package -> CPU seconds of its test binary and what it ran (-cpu)
	testCPU  []timing           // the CPU seconds of the processes a test ran, where its package notes them (-cpu)
	tests    []timing
	first    time.Time // the stream's first and last event: the wall time,
	last     time.Time // less than the packages' sum when they run side by side
}

func newLog(out io.Writer) *testLog {
	return &testLog{out: out, pending: map[string]*strings.Builder{}, started: map[string]time.Time{}, paused: map[string]time.Time{}}
}

func (l *testLog) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// go test prints some lines outside the stream (a build
			// failure of a package without tests): shown as they are.
			fmt.Fprintln(l.out, sc.Text())
			continue
		}
		if !e.Time.IsZero() {
			if l.first.IsZero() {
				l.first = e.Time
			}
			l.last = e.Time
		}
		l.take(e)
	}
	return sc.Err()
}

func (l *testLog) take(e event) {
	if e.Test == "" {
		l.takePackage(e)
		return
	}
	top, _, _ := strings.Cut(e.Test, "/")
	if strings.HasPrefix(top, "Benchmark") {
		// A benchmark's result lines are what it is run for (its name
		// alone on a line is -json's own).
		if e.Action == "output" && !strings.HasPrefix(e.Output, "=== ") && e.Output != e.Test+"\n" {
			fmt.Fprint(l.out, e.Output)
		}
		return
	}
	key := e.Package + " " + top
	if e.Test == top {
		l.clock(key, e)
	}
	switch e.Action {
	case "output":
		b := l.pending[key]
		if b == nil {
			b = &strings.Builder{}
			l.pending[key] = b
		}
		b.WriteString(e.Output)
	case "pass", "fail", "skip":
		if e.Test != top {
			return
		}
		if e.Action == "fail" {
			l.flush(key)
		}
		delete(l.pending, key)
		l.tests = append(l.tests, timing{shortPackage(e.Package) + "." + top, l.took(key, e)})
	}
}

// clock follows a top-level test's run, pause (t.Parallel) and cont
// events, so that its time is its own.
func (l *testLog) clock(key string, e event) {
	switch e.Action {
	case "run":
		l.started[key] = e.Time
	case "pause":
		l.paused[key] = e.Time
	case "cont":
		if at, ok := l.paused[key]; ok {
			l.started[key] = l.started[key].Add(e.Time.Sub(at))
			delete(l.paused, key)
		}
	}
}

// took is a top-level test's time from its run to its end: its parallel
// subtests (t.Parallel) run after its own function has returned, which is
// all its Elapsed counts.
func (l *testLog) took(key string, e event) float64 {
	start, ok := l.started[key]
	delete(l.started, key)
	if !ok || start.IsZero() || e.Time.IsZero() {
		return e.Elapsed
	}
	return max(e.Elapsed, e.Time.Sub(start).Seconds())
}

// takePackage prints a package's own lines; when it ends, the output of any
// test still open (a panic or a timeout ended the binary) first.
func (l *testLog) takePackage(e event) {
	switch e.Action {
	case "output", "build-output":
		fmt.Fprint(l.out, e.Output)
	case "pass", "fail", "skip":
		prefix := e.Package + " "
		for key := range l.pending {
			if strings.HasPrefix(key, prefix) {
				l.flush(key)
				delete(l.pending, key)
			}
		}
		if e.Action != "skip" {
			l.packages = append(l.packages, timing{shortPackage(e.Package), e.Elapsed})
		}
	}
}

func (l *testLog) flush(key string) {
	if b := l.pending[key]; b != nil {
		fmt.Fprint(l.out, b.String())
	}
}

// summary lists the packages by time, then the n slowest tests.
func (l *testLog) summary(n int) {
	total := 0.0
	for _, p := range l.packages {
		total += p.seconds
	}
	fmt.Fprintf(l.out, "== where the tests' time went: %.0f s in %d packages, %.0f s of wall time\n",
		total, len(l.packages), l.last.Sub(l.first).Seconds())
	if l.cpu != nil {
		cpu := 0.0
		for _, c := range l.cpu {
			cpu += c
		}
		fmt.Fprintf(l.out, "   (and %.0f CPU-s in the test binaries and the processes they ran, beside each package's time)\n", cpu)
	}
	for _, p := range longest(l.packages, len(l.packages)) {
		if p.seconds < 1 {
			continue
		}
		if c, ok := l.cpu[p.name]; ok {
			fmt.Fprintf(l.out, "%8.1f s %8.1f CPU-s  %s\n", p.seconds, c, p.name)
		} else {
			fmt.Fprintf(l.out, "%8.1f s  %s\n", p.seconds, p.name)
		}
	}
	fmt.Fprintf(l.out, "== the %d slowest tests\n", n)
	for _, t := range longest(l.tests, n) {
		fmt.Fprintf(l.out, "%8.1f s  %s\n", t.seconds, t.name)
	}
	if len(l.testCPU) > 0 {
		fmt.Fprintf(l.out, "== the %d tests whose own processes (the tsbench runs) took the most CPU\n", min(n, len(l.testCPU)))
		for _, t := range longest(l.testCPU, n) {
			fmt.Fprintf(l.out, "%8.1f CPU-s  %s\n", t.seconds, t.name)
		}
	}
}

// longest returns the n longest of ts, longest first (ties by name).
func longest(ts []timing, n int) []timing {
	s := append([]timing(nil), ts...)
	sort.Slice(s, func(i, j int) bool {
		if s[i].seconds != s[j].seconds {
			return s[i].seconds > s[j].seconds
		}
		return s[i].name < s[j].name
	})
	if n < len(s) {
		s = s[:n]
	}
	return s
}

// shortPackage drops the module's path: cmd/tsbench, internal/tpcc.
func shortPackage(p string) string {
	const module = "github.com/tsbench/tsbench/"
	return strings.TrimPrefix(p, module)
}
