//go:build !linux

package sysinfo

// peakRSS has no source besides getrusage outside Linux.
func peakRSS() (int64, bool) { return 0, false }
