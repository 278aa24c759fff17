package victoriametrics

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The case: a regexp escape inside a string literal must have its
// backslash doubled (the server refused `"web01\.example\.com"` with 422).
func TestMatchAnyDoublesRegexpEscapes(t *testing.T) {
	got := matchAny([]string{"web01.example.com", `probe "A"`})
	want := `"web01\\.example\\.com|probe \"A\""`
	if got != want {
		t.Fatalf("matchAny = %s, want %s", got, want)
	}
}

// FuzzQuote: the literal quote renders reads back, as MetricsQL reads it
// (strconv.Unquote), to the text, and holds no bare quote that would end it
// early.
func FuzzQuote(f *testing.F) {
	for _, n := range append(append([]string{"", "\x00\n\t", "\xff"}, targettest.HostileDevices...), targettest.HostileSensors...) {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lit := quote(s)
		got, err := strconv.Unquote(lit)
		if err != nil || got != s {
			t.Fatalf("quote(%q) = %s reads back as %q, %v", s, lit, got, err)
		}
		if end := literalEnd(lit); end != len(lit) {
			t.Fatalf("quote(%q) = %s ends at byte %d of %d", s, lit, end, len(lit))
		}
	})
}

// literalEnd is where a MetricsQL lexer ends a double-quoted literal: at
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
		lit := matchAny([]string{a, b})
		text, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("matchAny(%q, %q) = %s: not a literal: %v", a, b, lit, err)
		}
		re, err := regexp.Compile("^(?:" + text + ")$")
		if err != nil {
			t.Fatalf("matchAny(%q, %q) = %s: not a regexp: %v", a, b, lit, err)
		}
		for _, n := range []string{a, b} {
			if !re.MatchString(n) {
				t.Fatalf("matchAny(%q, %q) = %s does not match %q", a, b, lit, n)
			}
		}
		if other != a && other != b && re.MatchString(other) {
			t.Fatalf("matchAny(%q, %q) = %s matches %q too", a, b, lit, other)
		}
	})
}

// The label part of a device is a JSON object's inside, whatever its
// names hold, and a tag key that is one of tsbench's own labels is renamed.
func TestDeviceLabelsAreJSON(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: `C:\data\probe,1 "x"` + "\n", Tags: []ts.Tag{
		{Key: "host.fqdn", Value: `rack "7", row=3`}, {Key: "device", Value: "shadow"}}}}}
	keys, err := tagRule.Map(s.TagKeys())
	if err != nil {
		t.Fatal(err)
	}
	labels := deviceLabels(s, &s.Devices[0], `db "1"`, "7", keys)
	var got map[string]string
	if err := json.Unmarshal([]byte("{"+labels+"}"), &got); err != nil {
		t.Fatalf("labels %s: %v", labels, err)
	}
	if got["device"] != s.Devices[0].Name || got["db"] != `db "1"` || got["host.fqdn"] != `rack "7", row=3` {
		t.Fatalf("labels %s read back as %v", labels, got)
	}
	renamed := keys.Server("device")
	if renamed == "device" || got[renamed] != "shadow" {
		t.Fatalf("tag key device: labels %v, renamed to %q", got, renamed)
	}
}
