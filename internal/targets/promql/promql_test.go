package promql

import (
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// The case: a regexp escape inside a string literal must have its
// backslash doubled (the server refused `"web01\.example\.com"` with 422).
func TestMatchAnyDoublesRegexpEscapes(t *testing.T) {
	got := MatchAny([]string{"web01.example.com", `probe "A"`})
	want := `"web01\\.example\\.com|probe \"A\""`
	if got != want {
		t.Fatalf("MatchAny = %s, want %s", got, want)
	}
}

// FuzzQuote: the literal Quote renders reads back, as PromQL and MetricsQL read it
// (strconv.Unquote), to the text, and holds no bare quote that would end it
// early.
func FuzzQuote(f *testing.F) {
	for _, n := range append(append([]string{"", "\x00\n\t", "\xff"}, targettest.HostileDevices...), targettest.HostileSensors...) {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit := Quote(s)
		got, err := strconv.Unquote(lit)
		if err != nil || got != s {
			t.Fatalf("Quote(%q) = %s reads back as %q, %v", s, lit, got, err)
		}
		if end := literalEnd(lit); end != len(lit) {
			t.Fatalf("Quote(%q) = %s ends at byte %d of %d", s, lit, end, len(lit))
		}
	})
}

// literalEnd is where a PromQL lexer ends a double-quoted literal: at
// the first quote not escaped by an odd run of backslashes.
func literalEnd(lit string) int {
	for i := 1; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// FuzzMatchAny: the regexp matchAny's literal holds, anchored as the
// server anchors it, matches each name given and nothing else tried.
func FuzzMatchAny(f *testing.F) {
	f.Add("web01.example.com", "web01_example_com", `C:\data\probe,1`)
	f.Add(`probe (north) "A" 'b'`, "Zürich/温度/東京", "k=v x")
	f.Add("cpu usage [%]", "cpu_usage____", "   ")
	f.Fuzz(func(t *testing.T, a, b, other string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) || !utf8.ValidString(other) {
			t.Skip("Go's regexp, the server's, takes UTF-8 only; tsbench's names are UTF-8")
		}
		lit := MatchAny([]string{a, b})
		text, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("MatchAny(%q, %q) = %s: not a literal: %v", a, b, lit, err)
		}
		re, err := regexp.Compile("^(?:" + text + ")$")
		if err != nil {
			t.Fatalf("MatchAny(%q, %q) = %s: not a regexp: %v", a, b, lit, err)
		}
		for _, n := range []string{a, b} {
			if !re.MatchString(n) {
				t.Fatalf("MatchAny(%q, %q) = %s does not match %q", a, b, lit, n)
			}
		}
		if other != a && other != b && re.MatchString(other) {
			t.Fatalf("MatchAny(%q, %q) = %s matches %q too", a, b, lit, other)
		}
	})
}

func TestSecondsKeepMilliSeconds(t *testing.T) {
	for ms, want := range map[int64]string{1640966400123: "1640966400.123", 5: "0.005", 0: "0.000"} {
		if got := Seconds(ms); got != want {
			t.Errorf("Seconds(%d) = %s, want %s", ms, got, want)
		}
	}
}
