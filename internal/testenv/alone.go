package testenv

import (
	"os"
	"path/filepath"
	"slices"
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

// AloneOn is Alone for a test whose faults hit only the servers named
// (it stops, kills, freezes or resets them) and that judges nothing by
// the machine's speed. CI's run of the Alone tests sets
// TSBENCH_ALONE_PARALLEL: such a test then runs in parallel (go test
// -parallel) beside the other AloneOn tests, holding each of its servers
// to itself (HoldServer), once the plain Alone tests, which want the
// machine quiet, have ended (go runs a package's serial tests first).
// Those tests mostly wait on servers restarting: one after another, they
// left CI's CPU half idle for minutes. Without the variable it is Alone.
// A test whose parallel subtests fault the servers names none here, and
// each subtest holds its own.
func AloneOn(t *testing.T, servers ...string) {
	t.Helper()
	Alone(t)
	if !aloneParallel() {
		return
	}
	t.Parallel()
	for _, name := range slices.Sorted(slices.Values(servers)) { // one order: no two tests wait on each other
		HoldServer(t, name)
	}
}

// HoldServer keeps the server named to t, among the tests AloneOn runs in
// parallel, until t ends; outside those runs it does nothing. A test that
// holds a server must not wait for parallel subtests: they could find
// every parallel slot taken by tests waiting for that server.
func HoldServer(t testing.TB, name string) {
	t.Helper()
	if !aloneParallel() {
		return
	}
	mu, _ := serverLocks.LoadOrStore(name, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	t.Cleanup(mu.(*sync.Mutex).Unlock)
}

// serverLocks are the servers held, by name.
var serverLocks sync.Map // name -> *sync.Mutex

func aloneParallel() bool { return os.Getenv("TSBENCH_ALONE_PARALLEL") != "" }
