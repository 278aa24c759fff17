package influxdb

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/lineproto"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The names case's names: those line protocol carries keep their form
// (a backslash before an ordinary character included), a tag value with
// a backslash before a space is mapped, and the keys InfluxDB or the
// device tag keep for themselves are mapped.
func TestServerNames(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0", "#comment"}, Devices: targettest.DevicesNamed(targettest.HostileDevices,
		ts.Tag{Key: "device", Value: "x"}, ts.Tag{Key: "order", Value: `Zürich \ it's`}, ts.Tag{Key: "empty", Value: ""})}
	for _, n := range append(targettest.HostileSensors, "time") {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n})
	}
	n, err := newServerNames(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range targettest.HostileDevices {
		if got := n.devices.Server(d); got != d {
			t.Errorf("device %q stored as %q", d, got)
		}
	}
	m := n.mapping()
	for _, want := range []string{"group #comment", `tag value Zürich \ it's`, "tag key device", "sensor time"} {
		if m[want] == "" {
			t.Errorf("mapping %v: no %q", m, want)
		}
	}
	if len(m) != 4 {
		t.Errorf("mapping %v: want 4 names", m)
	}
	if tags := n.srv.Devices[0].Tags; len(tags) != 2 {
		t.Errorf("server tags %v: want the empty value left out", tags)
	}
	back := n.originalTags(map[string]string{"device": n.srv.Devices[3].Name, m["tag key device"]: "x",
		"order": m[`tag value Zürich \ it's`]})
	if back["device"] != targettest.HostileDevices[3] || back[m["tag key device"]] != "x" || back["order"] != `Zürich \ it's` {
		t.Errorf("originalTags = %q", back)
	}
}

// readName reads back a name line protocol wrote with lineproto.Escape
// (specials escaped), as InfluxDB does, up to an unescaped end character:
// the scanner steps over a backslash and the character after it; 1.x then
// unescapes '\' before ',', '=', ' ' and '"'; 2.x before '\' too.
func readName(written, ends string, v2 bool) (name, rest string) {
	i := 0
	for i < len(written) && strings.IndexByte(ends, written[i]) < 0 {
		if written[i] == '\\' {
			i++
		}
		i++
	}
	i = min(i, len(written))
	raw, rest := written[:i], written[i:]
	unescapes := ",= \""
	if v2 {
		unescapes += `\`
	}
	var b strings.Builder
	for j := 0; j < len(raw); j++ {
		if raw[j] == '\\' && j+1 < len(raw) && strings.IndexByte(unescapes, raw[j+1]) >= 0 {
			j++
		}
		b.WriteByte(raw[j])
	}
	return b.String(), rest
}

// A name lpTakes accepts reads back as itself from a tag value, a field
// key or a measurement, in InfluxDB 1.x and 2.x; a mapped one takes a
// form lpTakes accepts; two names never share a form.
func FuzzLineNames(f *testing.F) {
	f.Add(`C:\data\probe,1`, `Zürich \ it's`)
	f.Add(`end\`, `a\\,b`)
	f.Add("k=v x", "   ")
	f.Add(`it's "q"`, "line\nbreak")
	f.Fuzz(func(t *testing.T, a, b string) {
		if a == "" || b == "" {
			t.Skip() // Map refuses an empty name as bad input
		}
		m, err := rule("tag value").Map([]string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if a != b && m.Server(a) == m.Server(b) {
			t.Fatalf("%q and %q share %q", a, b, m.Server(a))
		}
		for _, n := range []string{a, b} {
			srv := m.Server(n)
			if !lpTakes(srv) {
				t.Fatalf("%q maps to %q, which line protocol does not carry", n, srv)
			}
			for _, v2 := range []bool{false, true} {
				if got, rest := readName(lineproto.Escape(srv, ",= ")+",next", ", ", v2); got != srv || rest != ",next" {
					t.Errorf("tag value %q (v2 %v) reads back as %q, then %q", srv, v2, got, rest)
				}
				if got, rest := readName(lineproto.Escape(srv, ",= ")+"=1", ",= ", v2); got != srv || rest != "=1" {
					t.Errorf("field key %q (v2 %v) reads back as %q, then %q", srv, v2, got, rest)
				}
			}
		}
	})
}

// readQuoted reads a quoted InfluxQL string or identifier back as
// InfluxQL's scanner does, or fails: a raw newline ends it in error, a
// backslash escapes n, '\', '"' and '\” only.
func readQuoted(t *testing.T, q string) string {
	t.Helper()
	end := q[0]
	var b strings.Builder
	for i := 1; i < len(q); i++ {
		switch c := q[i]; {
		case c == end:
			if i != len(q)-1 {
				t.Fatalf("%s ends early, at %d", q, i)
			}
			return b.String()
		case c == '\n':
			t.Fatalf("%q holds a raw newline", q)
		case c == '\\' && i+1 < len(q):
			i++
			switch q[i] {
			case 'n':
				b.WriteByte('\n')
			case '\\', '"', '\'':
				b.WriteByte(q[i])
			default:
				t.Fatalf("%q: bad escape \\%c", q, q[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	t.Fatalf("%q is not closed", q)
	return ""
}

// An identifier or literal reads back as its name, and two names never
// share one.
func FuzzQuoted(f *testing.F) {
	f.Add(`it's "q"`, `back\slash`)
	f.Add("a\nb", `a\nb`)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, quote := range []func(string) string{ident, literal} {
			qa, qb := quote(a), quote(b)
			if got := readQuoted(t, qa); got != a {
				t.Errorf("%q quoted as %s reads back as %q", a, qa, got)
			}
			if a != b && qa == qb {
				t.Errorf("%q and %q share %s", a, b, qa)
			}
		}
	})
}
