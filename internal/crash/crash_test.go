package crash

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/summary"
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
	p := Plan{At: time.Second, Restart: restart, Service: "nosuchservice", Host: "127.0.0.1", Port: port,
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

// A failover: the killed server stays down, the restart command starts
// its standby on another port (a promotion), and the account says the
// database came back there, with the standby's pid.
func TestCrashFollowsAFailover(t *testing.T) {
	port, standby := testenv.FreePort(t), testenv.FreePort(t)
	first := startListener(t, port)
	promote := fmt.Sprintf("CRASH_TEST_LISTEN=%d %s -test.run='^TestHelperListener$' >/dev/null 2>&1 &", standby, os.Args[0])
	p := Plan{At: time.Second, Restart: promote, Service: "nosuchservice", Host: "127.0.0.1", Port: port,
		Failover: []string{"127.0.0.1:" + strconv.Itoa(standby)}, Timeout: 20 * time.Second}
	c := p.Do(context.Background(), time.Now().Add(-time.Second))
	t.Cleanup(func() { killListening(standby) })
	if c.Error != "" || c.PID != int32(first.Process.Pid) {
		t.Fatalf("crash %+v, want pid %d killed", c, first.Process.Pid)
	}
	if want := "127.0.0.1:" + strconv.Itoa(standby); c.FailedOverTo != want || c.NewPID == 0 || c.NewPID == c.PID {
		t.Errorf("failed over to %q as pid %d, want %s as a new pid", c.FailedOverTo, c.NewPID, want)
	}
}

// Nothing listening and no pid file: nothing is killed, and it says so.
func TestCrashWithoutAServer(t *testing.T) {
	p := Plan{Restart: "true", Service: "nosuchservice", Host: "127.0.0.1", Port: testenv.FreePort(t), Timeout: time.Second}
	c := p.Do(context.Background(), time.Now())
	if c.PID != 0 || !strings.Contains(c.Error, "nothing was killed") {
		t.Fatalf("crash %+v", c)
	}
}

// killListening ends the restarted stand-in, whose pid the test never saw.
func killListening(port int) {
	if sp, err := monitor.FindServer("nosuchservice", "127.0.0.1", port, 0); err == nil && sp != nil {
		_ = kill(context.Background(), sp.PID)
	}
}

// Without a restart command the killed process is started again as it
// ran: the same command line, working directory, environment, and its
// output appended to the file it wrote to; the account names the new pid
// and how it was restarted, and OnRestart hears of it.
func TestCrashRestartsItsOwnImage(t *testing.T) {
	port := testenv.FreePort(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "server.log")
	out, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperListener$")
	cmd.Env = append(os.Environ(), "CRASH_TEST_LISTEN="+strconv.Itoa(port), "CRASH_TEST_MARK=own-image")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	go cmd.Wait() //nolint:errcheck // reaped so that its kill completes
	waitListening(t, port)
	t.Cleanup(func() { killListening(port) })

	var heard *summary.ServerProcess
	p := Plan{At: time.Second, Service: "nosuchservice", Host: "127.0.0.1", Port: port, Timeout: 20 * time.Second,
		OnRestart: func(sp *summary.ServerProcess) { heard = sp }}
	c := p.Do(context.Background(), time.Now().Add(-time.Second))
	if c.Error != "" || c.PID != int32(cmd.Process.Pid) || c.NewPID <= 0 || c.NewPID == c.PID {
		t.Fatalf("crash %+v (first pid %d)", c, cmd.Process.Pid)
	}
	if !strings.Contains(c.RestartedBy, "/proc/"+strconv.Itoa(cmd.Process.Pid)) || !strings.HasPrefix(c.Restart, os.Args[0]) {
		t.Errorf("restarted by %q: %q", c.RestartedBy, c.Restart)
	}
	if heard == nil || heard.PID != c.NewPID {
		t.Errorf("OnRestart heard %+v, want pid %d", heard, c.NewPID)
	}
	img, err := readImage(c.NewPID)
	if err != nil {
		t.Fatal(err)
	}
	if img.dir != dir || !slices.Contains(img.env, "CRASH_TEST_MARK=own-image") || img.stdout != log || img.stderr != log ||
		!slices.Equal(img.args, cmd.Args) {
		t.Errorf("restarted as %+v; want in %s, with the mark, writing to %s, args %q", img, dir, log, cmd.Args)
	}
}

// The crash line shows the command line with its secrets hidden.
func TestImageStringHidesSecrets(t *testing.T) {
	img := &image{args: []string{"/opt/db/bin/server", "--password=s3cret", "-Dauth.token=abc", "--url",
		"postgres://u:pw@h/db", "--name", "two words", "--port=5433"}}
	want := `/opt/db/bin/server --password=*** -Dauth.token=*** --url postgres://u:***@h/db --name "two words" --port=5433`
	if got := img.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A fault made by the user's command (CRASH_COMMAND): the command kills
// the server, the restart command starts it again, and the account names
// the command (its secret hidden) and when the server took work again;
// no process of tsbench's finding.
func TestCrashByCommand(t *testing.T) {
	port := testenv.FreePort(t)
	first := startListener(t, port)
	restart := fmt.Sprintf("CRASH_TEST_LISTEN=%d %s -test.run='^TestHelperListener$' >/dev/null 2>&1 &", port, os.Args[0])
	p := Plan{At: time.Second, Command: fmt.Sprintf("TOKEN=abc kill -9 %d", first.Process.Pid), Restart: restart,
		Host: "127.0.0.1", Port: port, Down: 100 * time.Millisecond, Timeout: 20 * time.Second}
	c := p.Do(context.Background(), time.Now().Add(-time.Second))
	t.Cleanup(func() { killListening(port) })
	if want := fmt.Sprintf("TOKEN=*** kill -9 %d", first.Process.Pid); c.Error != "" || c.Command != want || c.PID != 0 || c.Found != "CRASH_COMMAND" {
		t.Fatalf("crash %+v, want the command %q", c, want)
	}
	if c.BackAfterS < 0.1 || c.KilledAtS < 0.9 || c.RestartedBy != "CRASH_RESTART" {
		t.Errorf("back after %.2f s (down 0.1 s), run at %.2f s, restarted by %q", c.BackAfterS, c.KilledAtS, c.RestartedBy)
	}
	waitListening(t, port)
}

// A fault command that leaves the server up is reported, not taken for a
// fault; one that fails says so.
func TestCrashByCommandWithoutAFault(t *testing.T) {
	port := testenv.FreePort(t)
	startListener(t, port)
	t.Cleanup(func() { killListening(port) })
	for _, c := range []struct{ command, want string }{
		{"true", "still took work 300ms after the fault command \"true\": no fault seen"},
		{"echo no such pod >&2; exit 1", "crash: fault \"echo no such pod >&2; exit 1\": exit status 1: no such pod"},
	} {
		p := Plan{At: time.Second, Command: c.command, Host: "127.0.0.1", Port: port, Timeout: 5 * time.Second,
			DownWithin: 300 * time.Millisecond}
		if got := p.Do(context.Background(), time.Now()); !strings.Contains(got.Error, c.want) {
			t.Errorf("%s: crash %+v, want an error with %q", c.command, got, c.want)
		}
	}
}

// A pause (CRASH_PAUSE): the process listening is stopped for the pause,
// not killed (it is in state T while the pause lasts), goes on as the
// same process afterwards, and the account says when it was stopped, for
// how long, and when it took work again (Ready answering after SIGCONT).
func TestCrashPausesTheListener(t *testing.T) {
	port := testenv.FreePort(t)
	first := startListener(t, port)
	t.Cleanup(func() { killListening(port) })
	pid := first.Process.Pid
	var states []string
	ready := func(context.Context) error {
		states = append(states, processState(pid))
		return nil
	}
	seen := make(chan string, 1)
	go func() {
		time.Sleep(150 * time.Millisecond) // inside the pause
		seen <- processState(pid)
	}()
	p := Plan{At: time.Second, Service: "nosuchservice", Host: "127.0.0.1", Port: port, Pause: 400 * time.Millisecond,
		Timeout: 10 * time.Second, Ready: ready}
	c := p.Do(context.Background(), time.Now().Add(-time.Second))
	if c.Error != "" || c.PID != int32(pid) || c.PauseS != 0.4 || c.NewPID != 0 || c.Restart != "" {
		t.Fatalf("pause %+v, want pid %d paused 0.4 s, nothing restarted", c, pid)
	}
	if s := <-seen; s != "T" {
		t.Errorf("state %q during the pause, want T (stopped)", s)
	}
	if len(states) != 1 || states[0] == "T" || c.BackAfterS < 0.4 || c.KilledAtS < 0.9 {
		t.Errorf("states %v when asked if ready; back after %.2f s of a 0.4 s pause, stopped at %.2f s", states, c.BackAfterS, c.KilledAtS)
	}
	waitListening(t, port)
}

// processState is the state letter of pid in /proc/PID/stat (R, S, T
// ...), or the error reading it.
func processState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return err.Error()
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	state, _, _ := strings.Cut(rest, " ")
	return state
}

// A fault called off names the fault the plan makes.
func TestCalledOffNamesTheFault(t *testing.T) {
	for _, c := range []struct {
		plan Plan
		want string
	}{
		{Plan{}, "crash was due: nothing was killed"},
		{Plan{Pause: time.Second}, "pause was due: nothing was stopped"},
		{Plan{Partition: time.Second}, "partition was due: nothing was cut"},
		{Plan{Command: "kubectl delete pod db-0"}, "fault command was due: it was not run"},
	} {
		if got := c.plan.CalledOff(); got != "the measured phase ended before the "+c.want {
			t.Errorf("%+v: %q", c.plan, got)
		}
	}
}
