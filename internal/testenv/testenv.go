// Package testenv is how tests that need something outside Go — a database
// server, Chromium, a Java tool — say it is missing: in CI (CI set) the test
// fails, since a missing dependency there is a broken pipeline; elsewhere it
// is skipped, and the package's TestMain (Main) prints one line naming what
// was missing and the script that provides it, even under `go test ./...`,
// which otherwise shows a passing package as a bare "ok".
package testenv

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
)

var (
	mu      sync.Mutex
	skipped = map[string]int{} // why -> tests skipped for it
)

// Require fails the test in CI, and skips it elsewhere, because of why
// (what is missing and how to provide it).
func Require(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	mu.Lock()
	skipped[why]++
	mu.Unlock()
	t.Skip(why)
}

// Main runs the package's tests, reports the skipped ones and exits: a
// package's whole TestMain when it needs nothing else.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run runs the package's tests, reports the skipped ones and returns the
// exit code, for a TestMain that has more to do.
func Run(m *testing.M) int {
	code := m.Run()
	if line := Summary(packageName()); line != "" {
		w, closeW := goCommandStderr()
		fmt.Fprintln(w, line)
		closeW()
	}
	return code
}

// Summary is the line Main prints: how many tests were skipped and why, or
// "" when none were.
func Summary(pkg string) string {
	mu.Lock()
	defer mu.Unlock()
	if len(skipped) == 0 {
		return ""
	}
	n := 0
	var whys []string
	for why, k := range skipped {
		n += k
		whys = append(whys, why)
	}
	sort.Strings(whys)
	tests := "tests"
	if n == 1 {
		tests = "test"
	}
	return fmt.Sprintf("%s: %d %s skipped: %s", pkg, n, tests, strings.Join(whys, "; "))
}

// goCommandStderr is where the line goes. `go test ./...` keeps a passing
// package's own output to itself, so on Linux the line is written to the
// standard error of the process that started the test binary — the go
// command, whose output the user sees. Elsewhere it goes to this process's
// standard error (shown by go test -v).
func goCommandStderr() (io.Writer, func()) {
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", os.Getppid()), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return os.Stderr, func() {}
	}
	return f, func() { f.Close() }
}

// packageName names the package under test.
// go test runs a package's binary in the package's directory, so the path
// from internal/ or cmd/ on names it; elsewhere the binary's name (pkg.test)
// does.
func packageName() string {
	if wd, err := os.Getwd(); err == nil {
		for _, root := range []string{"/internal/", "/cmd/"} {
			if i := strings.Index(wd, root); i >= 0 {
				return wd[i+1:]
			}
		}
	}
	name := os.Args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(name, ".test")
}
