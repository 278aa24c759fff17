//go:build !linux

package monitor

// diagListening has no socket diagnostics to ask outside Linux.
func diagListening(listenAddr) (map[string]bool, bool) { return nil, false }
