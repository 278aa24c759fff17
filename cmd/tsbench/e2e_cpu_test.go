package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// cpuLedger adds up the CPU time of the tsbench runs each top-level test
// waited for; TestMain writes it to scripts/ci/testcpu's log
// (TESTCPU_LOG), where CI's testlog lists the tests whose runs cost most.
// CI's machine is CPU-bound while the suite runs: these are the runs to
// make cheaper.
var cpuLedger = struct {
	sync.Mutex
	seconds map[string]float64
}{seconds: map[string]float64{}}

// noteCPU adds the ended process's CPU time to the test's.
func noteCPU(t *testing.T, ps *os.ProcessState) {
	if ps == nil {
		return
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cpuLedger.Lock()
	defer cpuLedger.Unlock()
	cpuLedger.seconds[top] += (ps.UserTime() + ps.SystemTime()).Seconds()
}

// writeCPULedger appends a line "DIR\tUSER\tSYS\tTEST" a test to
// TESTCPU_LOG (its CPU seconds as USER, SYS 0), DIR this package's.
func writeCPULedger() {
	path := os.Getenv("TESTCPU_LOG")
	if path == "" {
		return
	}
	dir, err := os.Getwd()
	if err != nil {
		return
	}
	var b strings.Builder
	cpuLedger.Lock()
	for test, s := range cpuLedger.seconds {
		fmt.Fprintf(&b, "%s\t%.3f\t0\t%s\n", dir, s, test)
	}
	cpuLedger.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(b.String())
}
