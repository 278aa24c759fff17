package sqlfamily

import (
	"regexp"
	"strings"
)

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_.,:/@%+=-]+$`)

// ShellQuote makes s one word for a POSIX shell, so that a command in an
// error (the createdb or mysql that creates a missing database) can be
// pasted as it is.
func ShellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
