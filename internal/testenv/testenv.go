// Package testenv is how tests that need something outside Go — a database
// server, Chromium, a Java tool — say it is missing: in CI (CI set) the test
// fails, since a missing dependency there is a broken pipeline; elsewhere it
// is skipped, and the package's TestMain (Main) prints one short line naming
// what was missing, even under `go test ./...`, which otherwise shows a
// passing package as a bare "ok":
//
//	cmd/tsbench: 31 tests skipped: no server for clickhouse, mariadb, postgres; no Spark
//
// and, once per go command, a line saying how to provide everything (Hint).
// The whole reasons, with each install command, stay in each test's skip
// message (go test -v).
package testenv

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// Hint is the closing line: the commands that provide every server and
// tool the tests use.
const Hint = "testenv: to run the skipped tests: scripts/services/all install && scripts/services/all start " +
	"(servers), scripts/ci/install-<tool>.sh (tools), or bash .ci/run for everything"

// Bounds of a package's line, however many things are missing.
const (
	maxNames   = 8  // names listed per line, then "and N more"
	maxNameLen = 30 // characters per name
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

// Run runs the package's tests, holding the servers' lock shared (see
// Alone), reports the skipped ones and returns the exit code, for a
// TestMain that has more to do.
func Run(m *testing.M) int {
	share()
	code := m.Run()
	line := Summary(packageName())
	if line == "" {
		return code
	}
	w, closeW := goCommandStderr()
	defer closeW()
	fmt.Fprintln(w, line)
	if exe, err := os.Executable(); err != nil || firstHint(exe) {
		fmt.Fprintln(w, Hint)
	}
	return code
}

// Summary is the line Main prints: how many tests were skipped and what
// was missing, by short name, servers apart from tools; or "" when none
// were skipped.
func Summary(pkg string) string {
	mu.Lock()
	defer mu.Unlock()
	n := 0
	var servers, tools []string
	for why, k := range skipped {
		n += k
		if strings.Contains(why, "scripts/services/") {
			servers = append(servers, shortName(why))
		} else {
			tools = append(tools, shortName(why))
		}
	}
	if n == 0 {
		return ""
	}
	var parts []string
	if len(servers) > 0 {
		parts = append(parts, "no server for "+list(servers))
	}
	if len(tools) > 0 {
		parts = append(parts, "no "+list(tools))
	}
	tests := "tests"
	if n == 1 {
		tests = "test"
	}
	return fmt.Sprintf("%s: %d %s skipped: %s", pkg, n, tests, strings.Join(parts, "; "))
}

// shortName is what why says is missing, in a few words: the text before
// " server ", " is not ", " not found" or " found" ("postgres server not
// reachable ...", "Spark is not installed ...", "no Chromium found ..."),
// without a leading "no ", at most maxNameLen characters.
func shortName(why string) string {
	s := why
	for _, stop := range []string{" server ", " is not ", " not found", " found", " (", ":", ";"} {
		if i := strings.Index(s, stop); i > 0 {
			s = s[:i]
		}
	}
	s = strings.TrimSpace(strings.TrimPrefix(s, "no "))
	if s == "" {
		return "something unnamed"
	}
	if utf8.RuneCountInString(s) > maxNameLen {
		s = string([]rune(s)[:maxNameLen-1]) + "…"
	}
	return s
}

// list is the names sorted, once each, the first maxNames of them.
func list(names []string) string {
	sort.Strings(names)
	names = compact(names)
	if len(names) <= maxNames {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxNames], ", "), len(names)-maxNames)
}

func compact(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// firstHint tells whether this test binary, at exe, is the first of its go
// command to print Hint, so that `go test ./...` prints it once, not once
// per package. go test runs each binary from its own directory in the go
// command's work directory (go-build…), which the go command removes when
// it exits: the first binary there leaves a marker. A binary run any other
// way (go test -c, by hand) always prints the hint.
func firstHint(exe string) bool {
	work := filepath.Dir(filepath.Dir(exe))
	if !strings.HasPrefix(filepath.Base(work), "go-build") {
		return true
	}
	f, err := os.OpenFile(filepath.Join(work, "testenv-hint"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return !os.IsExist(err) // unwritable: better twice than never
	}
	f.Close()
	return true
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
