// Command testcpu runs a test binary for go test (-exec) and notes the CPU
// time it used, the processes it started and waited for included (a
// tsbench a test ran): CI's machine is CPU-bound while the suite runs, so
// what makes CI faster is less CPU, and testlog prints each package's.
//
//	TESTCPU_LOG=/tmp/cpu go test -exec "$PWD/testcpu" ./...
//
// Each binary named *.test appends a line "DIR\tUSER\tSYS" (its working
// directory, go test's package directory, and seconds) to TESTCPU_LOG; any
// other program (a go run of a test's own) is only run.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testcpu PROGRAM [ARG...]")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[2:]))
}

// run runs the program to its end, passing on the signals go test sends
// (an interrupt, a timeout's quit), and returns its exit status.
func run(prog string, args []string) int {
	cmd := exec.Command(prog, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Killed with this process (go test's last resort is a kill).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testcpu:", err)
		return 1
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	note(prog, cmd.ProcessState)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "testcpu:", err)
	return 1
}

// note appends the test binary's CPU time to TESTCPU_LOG.
func note(prog string, ps *os.ProcessState) {
	path := os.Getenv("TESTCPU_LOG")
	if path == "" || ps == nil || !strings.HasSuffix(prog, ".test") {
		return
	}
	dir, err := os.Getwd()
	if err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testcpu:", err)
		return
	}
	defer f.Close()
	// One write: the packages' binaries end side by side.
	fmt.Fprintf(f, "%s\t%.3f\t%.3f\n", dir, ps.UserTime().Seconds(), ps.SystemTime().Seconds())
}
