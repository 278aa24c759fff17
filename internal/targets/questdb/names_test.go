package questdb

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostileSeeds seeds a fuzz target of two names with the suite's hostile
// names and this target's own hard cases.
func hostileSeeds(f *testing.F) {
	targettest.SeedHostilePairs(f, "a\nb", "x\\", "\\", "", `""`, "''")
}

// unquoteWith undoes a quoting in q of s's kind: the text between the
// outer quotes with each doubled quote one; ok is false for a form a
// parser would not read back as one token.
func unquoteWith(s string, q byte) (string, bool) {
	if len(s) < 2 || s[0] != q || s[len(s)-1] != q {
		return "", false
	}
	var b strings.Builder
	in := s[1 : len(s)-1]
	for i := 0; i < len(in); i++ {
		if in[i] == q {
			if i+1 >= len(in) || in[i+1] != q {
				return "", false // a lone quote would end the token
			}
			i++
		}
		b.WriteByte(in[i])
	}
	return b.String(), true
}

// quote and literal read back as the name, and two names never give one
// form.
func FuzzQuote(f *testing.F) {
	hostileSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, c := range []struct {
			fn func(string) string
			q  byte
		}{{quote, '"'}, {literal, '\''}} {
			qa, qb := c.fn(a), c.fn(b)
			if back, ok := unquoteWith(qa, c.q); !ok || back != a {
				t.Fatalf("%q quoted as %s reads back as %q (%v)", a, qa, back, ok)
			}
			if a != b && qa == qb {
				t.Fatalf("%q and %q both quote as %s", a, b, qa)
			}
		}
	})
}

// unescapeILP reads an ILP name as QuestDB's parser does (seen on 9.3.4):
// a backslash takes the next byte as it is; it stops at the first
// unescaped separator and returns the rest.
func unescapeILP(s string) (name, rest string) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case strings.IndexByte(ilpSpecial[1:], c) >= 0:
			return b.String(), s[i:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// escapeILP's form is one ILP token that reads back as the name, and two
// names never give one form.
func FuzzEscapeILP(f *testing.F) {
	hostileSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		ea := escapeILP(a)
		if back, rest := unescapeILP(ea + "=v"); back != a || rest != "=v" {
			t.Fatalf("%q escaped as %q reads back as %q, then %q", a, ea, back, rest)
		}
		if strings.HasSuffix(ea, `\`) && !strings.HasSuffix(ea, `\\`) {
			t.Fatalf("%q escaped as %q ends in a lone backslash", a, ea)
		}
		if a != b && ea == escapeILP(b) {
			t.Fatalf("%q and %q both escape as %q", a, b, ea)
		}
	})
}

// Sensors and tag keys named a and b (and "order" beside them, a sensor
// and a tag key) map to columns QuestDB takes: at most 127 bytes, no
// refused character, and no two columns of a table one name in any case
// (the fixed device and ts included); and the mapping is the same every
// time.
func FuzzMapNames(f *testing.F) {
	hostileSeeds(f)
	targettest.FuzzTwoNames(f, func(t *testing.T, a, b string) {
		s := &ts.Schema{Groups: []string{"g"}, Sensors: []ts.Sensor{{Name: a}, {Name: b}, {Name: "order"}},
			Devices: []ts.Device{{Name: "d", Tags: []ts.Tag{{Key: a, Value: "x"}, {Key: "order", Value: "y"}, {Key: b, Value: "z"}}}}}
		n, err := mapNames("db", s)
		if err != nil {
			t.Fatal(err)
		}
		again, err := mapNames("db", s)
		if err != nil || strings.Join(again.sensors, "\x00") != strings.Join(n.sensors, "\x00") {
			t.Fatalf("mapped %q then %q (%v)", n.sensors, again.sensors, err)
		}
		seen := map[string]string{strings.ToLower(colDevice): "the device column", strings.ToLower(colTime): "the time column"}
		check := func(what, name, col string) {
			if len(col) > maxName || !utf8.ValidString(col) || strings.IndexFunc(col, func(r rune) bool { return !keepInColumn(r) }) >= 0 {
				t.Fatalf("%s %q maps to %q, which QuestDB refuses", what, name, col)
			}
			if other, dup := seen[strings.ToLower(col)]; dup {
				t.Fatalf("%s %q and %s both map to column %q", what, name, other, col)
			}
			seen[strings.ToLower(col)] = what + " " + name
		}
		for i, sn := range s.Sensors {
			check("sensor", sn.Name, n.sensors[i])
		}
		for _, k := range n.tagKeys {
			check("tag key", k, n.tags[k])
		}
	}, "order")
}
