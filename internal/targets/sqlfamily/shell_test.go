package sqlfamily

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

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

// A target option is its default when unset, one of the allowed values, or
// an error that names the target, the option, the value and what is
// allowed.
func TestChoice(t *testing.T) {
	for _, c := range []struct {
		extra   map[string]string
		want    string
		wantErr string
	}{
		{nil, "insert", ""},
		{map[string]string{"write_path": ""}, "insert", ""},
		{map[string]string{"write_path": "copy"}, "copy", ""},
		{map[string]string{"write_path": "COPY"}, "", `postgres: target option write_path = "COPY": allowed: copy, insert`},
	} {
		got, err := Choice("postgres", targets.Options{Extra: c.extra}, "write_path", "insert", "copy", "insert")
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%v: error %v, want %s", c.extra, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: %q, %v; want %q", c.extra, got, err, c.want)
		}
	}
}
