//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sysinfo

import (
	"runtime"
	"syscall"
)

// SelfUsage reads getrusage(RUSAGE_SELF): CPU time of every thread of the
// process, and the peak resident set size as the kernel counted it (which,
// unlike the Go runtime's statistics, includes memory outside the Go heap;
// on Linux from /proc/self/status, see peakRSS).
// On failure it returns zero values, which reports print as unknown rather
// than stopping a run.
func SelfUsage() Usage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{}
	}
	peak, ok := peakRSS()
	if !ok {
		peak = int64(ru.Maxrss) * maxrssUnit()
	}
	return Usage{
		CPUSeconds:   seconds(ru.Utime) + seconds(ru.Stime),
		PeakRSSBytes: peak,
	}
}

func seconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}

// maxrssUnit is the unit of ru_maxrss: bytes on macOS, KiB on Linux and the
// BSDs.
func maxrssUnit() int64 {
	if runtime.GOOS == "darwin" {
		return 1
	}
	return 1024
}
