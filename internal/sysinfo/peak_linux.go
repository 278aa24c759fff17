package sysinfo

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// peakRSS is the process's peak resident set size from /proc/self/status
// (VmHWM), and false where it cannot be read. getrusage's ru_maxrss is not
// used on Linux: execve keeps in it the RSS the process had before the
// exec, which for a process forked from a large parent (a test binary, a
// script runner) is the parent's, so a small tsbench would report the
// memory of whatever started it.
func peakRSS() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}
