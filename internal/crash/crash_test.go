package crash

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/testenv"
)

// TestHelperListener is not a test: run with CRASH_TEST_LISTEN=PORT it is
// a stand-in server process that listens on PORT until killed.
func TestHelperListener(t *testing.T) {
	port := os.Getenv("CRASH_TEST_LISTEN")
	if port == "" {
		return
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		os.Exit(3)
	}
	defer l.Close()
	time.Sleep(time.Minute) // bounded: killed long before
	os.Exit(0)
}

// startListener starts the stand-in server on port and waits for it.
func startListener(t *testing.T, port int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperListener$")
	cmd.Env = append(os.Environ(), "CRASH_TEST_LISTEN="+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait() //nolint:errcheck // reaped so that its kill completes
	waitListening(t, port)
	return cmd
}

func waitListening(t *testing.T, port int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %d", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The process listening on the port is killed, the restart command runs,
// and the account says when the port accepted connections again.
func TestCrashKillsTheListenerAndRestarts(t *testing.T) {
	port := testenv.FreePort(t)
	first := startListener(t, port)
	restart := fmt.Sprintf("CRASH_TEST_LISTEN=%d %s -test.run='^TestHelperListener$' >/dev/null 2>&1 &", port, os.Args[0])
	p := Plan{At: time.Second, Restart: restart, Target: "nosuchservice", Host: "127.0.0.1", Port: port,
		Down: 100 * time.Millisecond, Timeout: 20 * time.Second}
	c := p.Do(context.Background(), time.Now().Add(-time.Second))
	t.Cleanup(func() { killListening(port) })
	if c.Error != "" || c.PID != int32(first.Process.Pid) || !strings.Contains(c.Found, strconv.Itoa(port)) {
		t.Fatalf("crash %+v, want pid %d found by port %d", c, first.Process.Pid, port)
	}
	if syscall.Kill(first.Process.Pid, 0) == nil {
		t.Error("the killed process is still there")
	}
	if c.BackAfterS < 0.1 || c.KilledAtS < 0.9 {
		t.Errorf("back after %.2f s (down 0.1 s), killed at %.2f s", c.BackAfterS, c.KilledAtS)
	}
	waitListening(t, port)
}

// Nothing listening and no pid file: nothing is killed, and it says so.
func TestCrashWithoutAServer(t *testing.T) {
	p := Plan{Restart: "true", Target: "nosuchservice", Host: "127.0.0.1", Port: testenv.FreePort(t), Timeout: time.Second}
	c := p.Do(context.Background(), time.Now())
	if c.PID != 0 || !strings.Contains(c.Error, "nothing was killed") {
		t.Fatalf("crash %+v", c)
	}
}

// killListening ends the restarted stand-in, whose pid the test never saw.
func killListening(port int) {
	p := Plan{Target: "nosuchservice", Host: "127.0.0.1", Port: port}
	c := p.Do(context.Background(), time.Now()) // kills it; its restart "" fails harmlessly
	_ = c
}
