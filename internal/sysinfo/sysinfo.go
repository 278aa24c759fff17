// Package sysinfo describes the machine a run happens on and what the tool
// itself costs, so that every result says whether the client could have been
// the bottleneck.
package sysinfo

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strings"
	"syscall"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
	"github.com/tsbench/tsbench/internal/summary"
)

// Environment describes this machine. It never fails: what cannot be read
// stays empty.
func Environment(ctx context.Context) summary.Environment {
	e := summary.Environment{
		OS:        runtime.GOOS + "/" + runtime.GOARCH,
		Cores:     runtime.NumCPU(),
		GoVersion: runtime.Version(),
	}
	e.Hostname, _ = os.Hostname()
	if name := osRelease(); name != "" {
		e.OS += " " + name
	}
	if h, err := host.InfoWithContext(ctx); err == nil {
		e.Kernel = h.KernelVersion
	}
	if infos, err := cpu.InfoWithContext(ctx); err == nil && len(infos) > 0 {
		e.CPUModel = strings.TrimSpace(infos[0].ModelName)
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		e.MemoryBytes = vm.Total
	}
	return e
}

// osRelease returns the distribution's PRETTY_NAME, or "".
func osRelease() string {
	f, err := os.Open("/etc/os-release")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// Usage is the tool process's own consumption so far.
type Usage struct {
	CPUSeconds   float64 // user + system
	PeakRSSBytes int64
}

// SelfUsage reads the process's CPU time and peak resident memory.
func SelfUsage() Usage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{}
	}
	cpu := float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
	return Usage{CPUSeconds: cpu, PeakRSSBytes: int64(ru.Maxrss) * 1024} // Maxrss is KiB on Linux
}
