package main

import (
	"fmt"
	"os"
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
