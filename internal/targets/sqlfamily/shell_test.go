package sqlfamily

import "testing"

// The command in an error pastes into a shell as one word, whatever the
// name.
func TestShellQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"crashdb", "crashdb"},
		{"my db", "'my db'"},
		{"a`b", "'a`b'"},
		{"it's", `'it'\''s'`},
		{"$(rm)", "'$(rm)'"},
		{"", "''"},
	} {
		if got := ShellQuote(c.in); got != c.want {
			t.Errorf("ShellQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
