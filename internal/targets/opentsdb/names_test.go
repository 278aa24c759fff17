package opentsdb

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The hostile names map one to one, each to OpenTSDB's alphabet; names it
// takes, Latin-1 letters included, stay as they are.
func TestMapNames(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g 0"}}
	for _, n := range targettest.HostileSensors {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n, Type: ts.Double})
	}
	s.Devices = targettest.DevicesNamed(append(targettest.HostileDevices, "Zürich", "web01 example.com"),
		append([]ts.Tag{{Key: "group", Value: "x"}}, targettest.HostileTags...)...)
	n, err := mapNames(s)
	if err != nil {
		t.Fatal(err)
	}
	check := func(kind string, names []string, server func(string) string) {
		seen := map[string]string{}
		for _, name := range names {
			srv := server(name)
			if !takes(srv) {
				t.Errorf("%s %q stored as %q, which OpenTSDB refuses or garbles", kind, name, srv)
			}
			if takes(name) && srv != name && kind != "tag key" {
				t.Errorf("%s %q, which OpenTSDB takes, stored as %q", kind, name, srv)
			}
			if other, dup := seen[srv]; dup && other != name {
				t.Errorf("%ss %q and %q both stored as %q", kind, name, other, srv)
			}
			seen[srv] = name
		}
	}
	var devs, keys, values []string
	for _, d := range s.Devices {
		devs = append(devs, d.Name)
		for _, tg := range d.Tags {
			keys, values = append(keys, tg.Key), append(values, tg.Value)
		}
	}
	check("device", devs, n.device)
	check("sensor", targettest.HostileSensors, n.sensor)
	check("tag key", keys, n.tagKey)
	check("tag value", values, n.tagValue)
	if n.device("Zürich") != "Zürich" || n.device("web01.example.com") != "web01.example.com" {
		t.Errorf("names OpenTSDB takes were mapped: %q, %q", n.device("Zürich"), n.device("web01.example.com"))
	}
	if k := n.tagKey("group"); !strings.HasPrefix(k, "group_") {
		t.Errorf("tag key group stored as %q, which the group tag overwrites", k)
	}
	if m := (&Target{names: n}).NameMapping(); m["device Zürich/温度/東京"] == "" || m["sensor cpu usage [%]"] == "" {
		t.Errorf("NameMapping = %v", m)
	}
}

// takes reports whether OpenTSDB stores name as it is.
func takes(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !allowed(r) {
			return false
		}
	}
	return true
}

// FuzzNameRule: two names never share a stored form, and every stored form
// is one OpenTSDB keeps as it is.
func FuzzNameRule(f *testing.F) {
	f.Add("web01.example.com", "web01_example_com")
	f.Add("Zürich/温度", "Zürich/東京")
	f.Add("cpu usage [%]", "cpu_usage____")
	// Empty names are refused; equal names are one name.
	targettest.FuzzTwoNames(f, func(t *testing.T, a, b string) {
		m, err := rule("device name").Map([]string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		sa, sb := m.Server(a), m.Server(b)
		if sa == sb || !takes(sa) || !takes(sb) {
			t.Fatalf("%q -> %q, %q -> %q", a, sa, b, sb)
		}
	})
}
