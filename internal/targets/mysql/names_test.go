package mysql

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/ts"
)

// A name over the metadata columns' width is bad input, named, before
// anything is written; the names case's names all fit.
func TestCheckNames(t *testing.T) {
	s := &ts.Schema{Devices: []ts.Device{{Name: strings.Repeat("é", 510)}}, Sensors: []ts.Sensor{{Name: "temp.c"}}}
	if err := checkNames(s); err != nil {
		t.Fatalf("1,020 bytes: %v", err)
	}
	s.Sensors[0].Name = strings.Repeat("x", maxNameBytes+1)
	if err := checkNames(s); !badinput.Is(err) || !strings.Contains(err.Error(), "sensor") {
		t.Errorf("1,021 bytes: %v, want bad input naming the sensor", err)
	}
}

// A tag key's JSON path reads back as the key, as one quoted member, and
// two keys never share a path.
func FuzzTagPath(f *testing.F) {
	f.Add("host.fqdn", "host_fqdn")
	f.Add(`a"b\c`, "order")
	f.Add("温度 [%]", "  ")
	f.Fuzz(func(t *testing.T, a, b string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			t.Skip() // tags are stored as JSON, which has UTF-8 strings only
		}
		pa, pb := tagPath(a), tagPath(b)
		member, ok := strings.CutPrefix(pa, "$.")
		var got string
		if !ok || !strings.HasPrefix(member, `"`) || json.Unmarshal([]byte(member), &got) != nil || got != a {
			t.Errorf("key %q: path %s reads back as %q", a, pa, got)
		}
		if strings.ContainsAny(member, "\n\x00") {
			t.Errorf("key %q: path %q holds a raw newline or NUL", a, pa)
		}
		if a != b && pa == pb {
			t.Errorf("keys %q and %q share path %s", a, b, pa)
		}
	})
}
