package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuClock is the machine's CPU time, all cores, read from /proc/stat at
// an instant: whether the suite's wall time went to work or to waiting
// decides what makes CI faster (less work, or more packages side by side).
type cpuClock struct {
	at          time.Time
	busy, total uint64 // clock ticks
	cores       int
}

// readCPU reads /proc/stat; ok is false where there is none.
func readCPU() (cpuClock, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuClock{}, false
	}
	c, ok := parseStat(string(b))
	c.at = time.Now()
	return c, ok
}

// parseStat takes the aggregate "cpu" line (user nice system idle iowait
// irq softirq steal ...: idle and iowait are the idle time) and counts the
// per-core lines.
func parseStat(s string) (cpuClock, bool) {
	var c cpuClock
	found := false
	for _, line := range strings.Split(s, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 5 || !strings.HasPrefix(fields[0], "cpu") {
			continue
		}
		if fields[0] != "cpu" {
			c.cores++
			continue
		}
		for i, f := range fields[1:min(len(fields), 9)] {
			n, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				return cpuClock{}, false
			}
			c.total += n
			if i != 3 && i != 4 {
				c.busy += n
			}
		}
		found = true
	}
	return c, found && c.cores > 0
}

// cpuLine says how busy the machine's cores were between two readings.
func cpuLine(from, to cpuClock) string {
	if to.total <= from.total {
		return ""
	}
	busy := float64(to.busy-from.busy) / float64(to.total-from.total)
	return fmt.Sprintf("== the machine's CPU over these %.0f s (the go command's building and linking included): %.0f%% busy of %d cores\n",
		to.at.Sub(from.at).Seconds(), 100*busy, to.cores)
}

// readCPU reads scripts/ci/testcpu's lines (directory, user and system
// seconds), each directory taken relative to this one, the module's
// root, as a package's short name; a package run twice adds up. A line
// with a fourth field, a test's name, is what that test's own processes
// took (cmd/tsbench's runs of the binary), a part of its package's.
func (l *testLog) readCPU(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	l.cpu, l.testCPU = map[string]float64{}, nil
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 && len(f) != 4 {
			continue
		}
		user, err1 := strconv.ParseFloat(f[1], 64)
		sys, err2 := strconv.ParseFloat(f[2], 64)
		rel, err3 := filepath.Rel(root, f[0])
		if err1 != nil || err2 != nil || err3 != nil {
			return fmt.Errorf("%s: bad line %q", path, line)
		}
		pkg := filepath.ToSlash(rel)
		if len(f) == 4 {
			l.testCPU = append(l.testCPU, timing{pkg + "." + f[3], user + sys})
			continue
		}
		l.cpu[pkg] += user + sys
	}
	return nil
}
