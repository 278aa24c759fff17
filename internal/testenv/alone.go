package testenv

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// go test ./... runs several packages' test binaries at once (as many as
// the machine has cores), and they share the servers scripts/services
// started. A test that stops, kills or restarts a shared server, or one
// that measures timing another package's load would skew, must have the
// servers to itself: it calls Alone, which holds the lock file
// $TSBENCH_SERVICES_DIR/tests.lock exclusively until the test ends, while
// every other test binary holds it shared for its whole run (Run). CI runs
// the tests that call Alone after the others (scripts/ci/alone-tests), so
// that none of them waits for a whole package to end.
var gate struct {
	sync.Mutex
	f      *os.File
	shared bool // the binary holds the lock shared between Alone tests
	alone  int  // Alone tests running now (a test's parallel subtests count once)
}

// lockFile opens the servers' lock file, or returns nil when there is no
// services directory (then no server of the scripts' runs, and there is
// nothing to share).
func lockFile() *os.File {
	if gate.f != nil {
		return gate.f
	}
	dir := ServicesDir()
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(dir, "tests.lock"), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil
	}
	gate.f = f
	return f
}

// share holds the servers' lock shared for the test binary's run.
func share() {
	gate.Lock()
	defer gate.Unlock()
	if f := lockFile(); f != nil && syscall.Flock(int(f.Fd()), syscall.LOCK_SH) == nil {
		gate.shared = true
	}
}

// Alone waits until no other test binary is running, then keeps the
// servers to t until it ends. Call it at the start of a top-level test
// that is not parallel: the tests of its own binary then do not run
// beside it either.
func Alone(t testing.TB) {
	t.Helper()
	if os.Getenv("TSBENCH_ALONE_DEFERRED") != "" {
		t.Fatalf("%s runs alone (testenv.Alone) but scripts/ci/alone-tests does not name it: "+
			"CI ran it beside other packages' tests", t.Name())
	}
	gate.Lock()
	defer gate.Unlock()
	f := lockFile()
	if f == nil {
		return
	}
	if gate.alone == 0 {
		start := time.Now()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatalf("testenv: lock %s: %v", f.Name(), err)
		}
		if waited := time.Since(start); waited > time.Second {
			t.Logf("waited %s for the other packages' tests to end (this test runs alone)", waited.Round(time.Second))
		}
	}
	gate.alone++
	t.Cleanup(func() {
		gate.Lock()
		defer gate.Unlock()
		gate.alone--
		if gate.alone > 0 {
			return
		}
		how := syscall.LOCK_UN
		if gate.shared {
			how = syscall.LOCK_SH
		}
		_ = syscall.Flock(int(f.Fd()), how)
	})
}
