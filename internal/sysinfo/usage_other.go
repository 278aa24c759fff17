//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package sysinfo

// SelfUsage is not measured on this platform (no getrusage): it returns zero
// values, which reports show as unknown.
func SelfUsage() Usage { return Usage{} }
