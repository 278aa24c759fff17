package cassandra

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The names case's sensors keep their names as columns but device, which
// is a key column.
func TestColumns(t *testing.T) {
	s := &ts.Schema{}
	for _, n := range targettest.HostileSensors {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n})
	}
	m, cols, err := columns(s)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range targettest.HostileSensors {
		if kept := cols[i] == col(n); kept == (n == "device") {
			t.Errorf("sensor %q: column %s", n, cols[i])
		}
	}
	if got := m.Changed(); len(got) != 1 {
		t.Errorf("changed %v: want device only", got)
	}
	for _, d := range targettest.HostileDevices {
		s.Devices = append(s.Devices, ts.Device{Name: d})
	}
	if err := checkDevices(s); err != nil {
		t.Errorf("the names case's devices: %v", err)
	}
	s.Devices = append(s.Devices, ts.Device{Name: "\xff"})
	if err := checkDevices(s); !badinput.Is(err) {
		t.Errorf("a device not UTF-8: %v, want bad input", err)
	}
}

// unquoteCol reads a quoted CQL identifier back: quotes doubled inside.
func unquoteCol(t *testing.T, q string) string {
	t.Helper()
	in, opened := strings.CutPrefix(q, `"`)
	in, closed := strings.CutSuffix(in, `"`)
	if !opened || !closed || strings.Contains(strings.ReplaceAll(in, `""`, ""), `"`) {
		t.Fatalf("%s is not a quoted identifier", q)
	}
	return strings.ReplaceAll(in, `""`, `"`)
}

// Two sensors never share a column, a column reads back as its server
// name, which is UTF-8 and no key column.
func FuzzColumns(f *testing.F) {
	f.Add(`it's "q"`, "device")
	f.Add("temp.c", "Temp.C")
	f.Add("\xff", "\xfe")
	// An empty name is bad input; one name is one column.
	targettest.FuzzTwoNames(f, func(t *testing.T, a, b string) {
		m, cols, err := columns(&ts.Schema{Sensors: []ts.Sensor{{Name: a}, {Name: b}}})
		if err != nil {
			t.Fatal(err)
		}
		if cols[0] == cols[1] {
			t.Fatalf("%q and %q share column %s", a, b, cols[0])
		}
		for i, n := range []string{a, b} {
			c := unquoteCol(t, cols[i])
			if c != m.Server(n) || !utf8.ValidString(c) || c == "device" || c == "day" || c == "t" {
				t.Errorf("sensor %q: column %s (server name %q)", n, cols[i], m.Server(n))
			}
		}
	})
}
