package kairosdb

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// Of the hostile device names only the one with a single quote changes
// (H2 pastes tag filters into SQL unescaped); a tag key "device" is
// renamed, and the mapping is reported.
func TestMapNames(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0"},
		Devices: targettest.DevicesNamed(targettest.HostileDevices, ts.Tag{Key: "device", Value: "x"}, ts.Tag{Key: "host.fqdn", Value: "y"})}
	n, err := mapNames(s)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, d := range targettest.HostileDevices {
		srv := n.device(d)
		if strings.Contains(srv, "'") || (srv != d) != strings.Contains(d, "'") {
			t.Errorf("device %q stored as %q", d, srv)
		}
		if other, dup := seen[srv]; dup {
			t.Errorf("devices %q and %q both stored as %q", d, other, srv)
		}
		seen[srv] = d
	}
	if k := n.tagKey("device"); k == "device" || !strings.HasPrefix(k, "device_") || n.tagKey("host.fqdn") != "host.fqdn" {
		t.Errorf("tag keys stored as %q, %q", k, n.tagKey("host.fqdn"))
	}
	tags := deviceTags(s, &s.Devices[2], n)
	if !strings.HasPrefix(tags, `{"device":"probe (north) \"A\" _b__`) || !strings.Contains(tags, `"device_`) {
		t.Errorf("tags %s", tags)
	}
	if tr := (&Target{names: n}); len(tr.NameMapping()) != 2 {
		t.Errorf("NameMapping = %v, want the quoted device and the tag key", tr.NameMapping())
	}
}

// FuzzDeviceRule: two device names never share a stored form, and no
// stored form holds a single quote.
func FuzzDeviceRule(f *testing.F) {
	f.Add(`probe (north) "A" 'b'`, `probe (north) "A" _b_`)
	f.Add("it's", "it_s")
	// Empty names are refused; equal names are one device.
	targettest.FuzzTwoNames(f, func(t *testing.T, a, b string) {
		m, err := deviceRule.Map([]string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		sa, sb := m.Server(a), m.Server(b)
		if sa == sb || strings.Contains(sa, "'") || strings.Contains(sb, "'") {
			t.Fatalf("%q -> %q, %q -> %q", a, sa, b, sb)
		}
	})
}
