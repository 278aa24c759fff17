package testenv

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// withGate gives the test a services directory and a gate of its own.
func withGate(t *testing.T) (lockPath string) {
	dir := t.TempDir()
	t.Setenv("TSBENCH_SERVICES_DIR", dir)
	t.Setenv("TSBENCH_ALONE_DEFERRED", "") // CI's first run sets it; these tests are about the lock
	saved := gate.f
	gate.f, gate.shared, gate.alone = nil, false, 0
	t.Cleanup(func() {
		if gate.f != nil {
			gate.f.Close()
		}
		gate.f, gate.shared, gate.alone = saved, false, 0
	})
	return filepath.Join(dir, "tests.lock")
}

// another is the lock file as another test binary opens it.
func another(t *testing.T, path string) *os.File {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func canLock(f *os.File, how int) bool {
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return true
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		panic(err)
	}
	return false
}

func TestAloneExcludesOtherBinaries(t *testing.T) {
	path := withGate(t)
	share()
	other := another(t, path)
	if !canLock(other, syscall.LOCK_SH) || canLock(other, syscall.LOCK_EX) {
		t.Fatal("a running binary should hold the lock shared: others may share it, none may take it alone")
	}
	t.Run("alone", func(t *testing.T) {
		Alone(t)
		Alone(t) // a second hold (a parallel subtest's) keeps it
		if canLock(other, syscall.LOCK_SH) {
			t.Error("another binary shares the lock while a test runs alone")
		}
	})
	if !canLock(other, syscall.LOCK_SH) || canLock(other, syscall.LOCK_EX) {
		t.Error("after the test that ran alone, the binary should hold the lock shared again")
	}
}

func TestAloneWaitsForOtherBinaries(t *testing.T) {
	path := withGate(t)
	other := another(t, path)
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_SH); err != nil {
		t.Fatal(err)
	}
	acquired, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t.Run("alone", func(t *testing.T) {
			Alone(t)
			close(acquired)
			<-release
		})
	}()
	select {
	case <-acquired:
		t.Fatal("Alone returned while another binary held the lock")
	default:
	}
	syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
	select {
	case <-acquired:
	case <-done:
		t.Fatal("the test that runs alone ended without the lock")
	case <-time.After(30 * time.Second):
		t.Fatal("Alone still waits 30 s after the other binary let the lock go")
	}
	close(release)
	<-done
}

func TestAloneWithoutServices(t *testing.T) {
	t.Setenv("TSBENCH_SERVICES_DIR", filepath.Join(t.TempDir(), "none"))
	t.Setenv("TSBENCH_ALONE_DEFERRED", "")
	saved := gate.f
	gate.f = nil
	defer func() { gate.f = saved }()
	Alone(t) // no services directory: no server to keep, no wait
	if gate.f != nil {
		t.Error("Alone made a lock file where there is no services directory")
	}
}

// TestAloneTestsListed keeps scripts/ci/alone-tests true: CI runs the
// tests it names after the others, so a test that calls Alone but is not
// named would run beside other packages' tests (and fail there, see
// Alone), and a name no longer calling it would wait for nothing. Each
// name must be one test's in the whole repository: CI selects them by
// name in every package.
func TestAloneTestsListed(t *testing.T) {
	root := repoRoot(t)
	listed := map[string]bool{}
	for _, line := range strings.Split(ReadText(t, filepath.Join(root, "scripts", "ci", "alone-tests")), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			listed[line] = true
		}
	}
	calling, defined := map[string]bool{}, map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == filepath.Join(root, "internal", "testenv") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			defined[fn.Name.Name]++
			if callsAlone(fn.Body) {
				calling[fn.Name.Name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(calling) == 0 {
		t.Fatal("no test calls testenv.Alone: the scan found nothing")
	}
	for name := range calling {
		if !listed[name] {
			t.Errorf("%s calls testenv.Alone: name it in scripts/ci/alone-tests", name)
		}
	}
	for name := range listed {
		if !calling[name] {
			t.Errorf("scripts/ci/alone-tests names %s, which does not call testenv.Alone", name)
		}
		if defined[name] > 1 {
			t.Errorf("%d tests are named %s: CI selects the ones that run alone by name; rename one", defined[name], name)
		}
	}
}

// callsAlone reports whether body calls testenv.Alone or
// testenv.AloneOn directly.
func callsAlone(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Alone" || sel.Sel.Name == "AloneOn") {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "testenv" {
				found = true
			}
		}
		return !found
	})
	return found
}

// HoldServer keeps a server from the other AloneOn tests until the test
// ends, only in the runs that set TSBENCH_ALONE_PARALLEL.
func TestHoldServer(t *testing.T) {
	held := func() bool {
		mu, ok := serverLocks.Load("hold-test")
		if !ok || !mu.(*sync.Mutex).TryLock() {
			return ok
		}
		mu.(*sync.Mutex).Unlock()
		return false
	}
	t.Run("without the variable", func(t *testing.T) {
		t.Setenv("TSBENCH_ALONE_PARALLEL", "")
		HoldServer(t, "hold-test")
		if held() {
			t.Error("held outside CI's parallel run of the Alone tests")
		}
	})
	t.Run("with it", func(t *testing.T) {
		t.Setenv("TSBENCH_ALONE_PARALLEL", "1")
		HoldServer(t, "hold-test")
		if !held() {
			t.Error("not held")
		}
	})
	if held() {
		t.Error("still held after the test that held it ended")
	}
}
