package iotdb

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostileSeeds seeds a fuzz target of two names with the suite's hostile
// names and this target's own hard cases.
func hostileSeeds(f *testing.F) {
	targettest.SeedHostilePairs(f, "`", "``", "a.`b`.c", "a\tb", "Time", "", ".", "root")
}

// A path of quoted nodes splits back into its nodes (a dot or backtick in
// a node keeps it one node), the path IoTDB writes without backticks
// where none are needed reads as the same path, and two names never quote
// alike.
func FuzzQuoteNode(f *testing.F) {
	hostileSeeds(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		nodes := []string{"root", "db", a, b}
		p := joinPath(nodes)
		if got := splitPath(p); !slices.Equal(got, nodes) {
			t.Fatalf("%q splits into %q, want %q", p, got, nodes)
		}
		if ownPath(p) != p {
			t.Fatalf("ownPath(%q) = %q", p, ownPath(p))
		}
		if plain := "root.db." + a; !strings.ContainsAny(a, ".`") && ownPath(plain) != joinPath(nodes[:3]) {
			t.Fatalf("ownPath(%q) = %q, want %q", plain, ownPath(plain), joinPath(nodes[:3]))
		}
		if a != b && quoteNode(a) == quoteNode(b) {
			t.Fatalf("%q and %q both quote as %s", a, b, quoteNode(a))
		}
	})
}

// Sensors and devices named a, b and "time" map to names IoTDB takes
// quoted (no control character, not time or timestamp in any case), two
// names never to one, a name IoTDB takes stays as it is, and the mapping
// is the same every time.
func FuzzMapNames(f *testing.F) {
	hostileSeeds(f)
	targettest.FuzzTwoNames(f, func(t *testing.T, a, b string) {
		s := &ts.Schema{Groups: []string{"g"}, Sensors: []ts.Sensor{{Name: a}, {Name: b}, {Name: "time"}},
			Devices: []ts.Device{{Name: a}, {Name: b}, {Name: "time"}}}
		n, err := mapNames(s)
		if err != nil {
			t.Fatal(err)
		}
		again, err := mapNames(s)
		if err != nil || !slices.Equal(again.sensors, n.sensors) || !slices.Equal(again.devices, n.devices) {
			t.Fatalf("mapped %q then %q (%v)", n.sensors, again.sensors, err)
		}
		for _, mapped := range [][]string{n.sensors, n.devices} {
			seen := map[string]bool{}
			for i, m := range mapped {
				orig := s.Sensors[i].Name
				if strings.IndexFunc(m, unicode.IsControl) >= 0 || strings.EqualFold(m, "time") || strings.EqualFold(m, "timestamp") {
					t.Fatalf("%q maps to %q, which IoTDB refuses", orig, m)
				}
				if seen[m] {
					t.Fatalf("two names map to %q", m)
				}
				seen[m] = true
				takes := strings.IndexFunc(orig, unicode.IsControl) < 0 && !strings.EqualFold(orig, "time") && !strings.EqualFold(orig, "timestamp")
				if takes && m != orig {
					t.Fatalf("%q, which IoTDB takes, maps to %q", orig, m)
				}
			}
		}
	}, "time")
}
