package clickhouse

import (
	"strings"
	"testing"
)

// unquote reads a quoted literal or identifier back as ClickHouse's lexer
// does for what quote and quoteIdent write: a backslash makes the next
// byte stand for itself; an unescaped closing quote must be the last byte.
func unquote(t *testing.T, q string) string {
	t.Helper()
	end := q[0]
	var b strings.Builder
	for i := 1; i < len(q); i++ {
		switch c := q[i]; {
		case c == '\\' && i+1 < len(q)-1:
			i++
			b.WriteByte(q[i])
		case c == end && i == len(q)-1:
			return b.String()
		case c == end || c == '\\':
			t.Fatalf("%q: a bare %c at %d", q, c, i)
		default:
			b.WriteByte(c)
		}
	}
	t.Fatalf("%q is not closed", q)
	return ""
}

// A string literal and an identifier read back as the name, and two names
// never share one.
func FuzzQuote(f *testing.F) {
	f.Add(`C:\data\probe,1`, `it's "q"`)
	f.Add("we`ird\\", "we`ird")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, q := range []func(string) string{quote, quoteIdent} {
			qa := q(a)
			if got := unquote(t, qa); got != a {
				t.Errorf("%q quoted as %s reads back as %q", a, qa, got)
			}
			if a != b && qa == q(b) {
				t.Errorf("%q and %q share %s", a, b, qa)
			}
		}
	})
}
