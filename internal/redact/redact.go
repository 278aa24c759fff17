// Package redact finds and hides the password of a connection URL. Both the
// configuration (what is printed and stored) and the targets (their error
// messages) hide it, with the same rule.
package redact

import "strings"

// Mask replaces a secret wherever it would be shown.
const Mask = "***"

// URL hides the password of a URL, or of a go-sql-driver DSN
// (user:pass@tcp(host)/db): postgres://user:***@host/db. Text that holds
// none is returned as it is.
func URL(raw string) string {
	i, j, ok := PasswordSpan(raw)
	if !ok {
		return raw
	}
	return raw[:i] + Mask + raw[j:]
}

// PasswordSpan finds the password in raw: raw[i:j], between the first ':'
// after the scheme (or the start) and the last '@' before the host part. A
// password may hold any character, so no URL parser is trusted to find it.
func PasswordSpan(raw string) (i, j int, ok bool) {
	start := 0
	if k := strings.Index(raw, "://"); k >= 0 {
		start = k + 3
	}
	rest := raw[start:]
	end := len(rest)
	if k := strings.IndexAny(rest, "/?#"); k >= 0 && !strings.Contains(rest[k:], "@") {
		end = k
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return 0, 0, false
	}
	colon := strings.Index(rest[:at], ":")
	if colon < 0 || colon == at-1 {
		return 0, 0, false
	}
	return start + colon + 1, start + at, true
}
