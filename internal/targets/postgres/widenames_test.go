package postgres

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The names case's sensors become distinct columns within PostgreSQL's
// 63 bytes, the key columns device and t stay the table's own, and a name
// that fits keeps its form.
func TestWideNames(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0", strings.Repeat("g", 80)}}
	for _, n := range targettest.HostileSensors {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n})
	}
	w, err := newWideNames("postgres", s)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{"device": "key", "t": "key"}
	for i, c := range w.raw {
		n := s.Sensors[i].Name
		if len(c) > maxIdentifier {
			t.Errorf("sensor %q: column %q is %d bytes", n, c, len(c))
		}
		if o, dup := seen[c]; dup {
			t.Errorf("sensors %q and %q share column %q", o, n, c)
		}
		seen[c] = n
		if fits := len(n) <= maxIdentifier && n != "device" && n != "t"; fits && c != n {
			t.Errorf("sensor %q renamed to %q", n, c)
		}
	}
	if got := w.table(1); len(stagePrefix+got) > maxIdentifier {
		t.Errorf("table %q: its staging table is over %d bytes", got, maxIdentifier)
	}
	m := w.mapping()
	long := targettest.HostileSensors[len(targettest.HostileSensors)-1]
	if m["sensor "+long] == "" || m["sensor temp.c"] != "" {
		t.Errorf("mapping %v: want the long sensor only", m)
	}
}

// unquoteIdent reads a quoted identifier back, or fails.
func unquoteIdent(t *testing.T, q string) string {
	t.Helper()
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		t.Fatalf("%q is not quoted", q)
	}
	in := q[1 : len(q)-1]
	if strings.Count(in, `"`)%2 != 0 || strings.Contains(strings.ReplaceAll(in, `""`, ""), `"`) {
		t.Fatalf("%q has an undoubled quote", q)
	}
	return strings.ReplaceAll(in, `""`, `"`)
}

// A column name quotes back to itself, and two sensor names never share
// a column, whatever their characters and length.
func FuzzWideColumn(f *testing.F) {
	f.Add("temp.c", "Temp.C")
	f.Add(`it's "q"`, "device")
	f.Add(strings.Repeat("sensor_", 28)+"a", strings.Repeat("sensor_", 28)+"b")
	f.Add("a\x00b", "a_b")
	f.Add("\xff", "\xfe")
	targettest.FuzzTwoNames(f, func(t *testing.T, a, b string) {
		w, err := newWideNames("postgres", &ts.Schema{Sensors: []ts.Sensor{{Name: a}, {Name: b}}})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range w.raw {
			if got := unquoteIdent(t, w.cols[i]); got != c {
				t.Errorf("column %q quoted as %s reads back as %q", c, w.cols[i], got)
			}
			if len(c) > maxIdentifier || strings.ContainsRune(c, 0) || !utf8.ValidString(c) || c == "device" || c == "t" {
				t.Errorf("sensor %q: column %q is not a free identifier", w.sens.Server(c), c)
			}
		}
		if w.raw[0] == w.raw[1] {
			t.Errorf("sensors %q and %q share column %q", a, b, w.raw[0])
		}
	})
}

// A name text cannot hold is bad input naming it, on either layout; the
// names case's names all pass.
func TestCheckText(t *testing.T) {
	s := &ts.Schema{Devices: []ts.Device{{Name: "ok", Tags: []ts.Tag{{Key: "order", Value: "Zürich \\ it's"}}}}}
	for _, n := range targettest.HostileSensors {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n})
	}
	if err := checkText("postgres", s); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"a\x00b", "\xff"} {
		s.Devices[0].Tags[0].Value = bad
		if err := checkText("postgres", s); !badinput.Is(err) || !strings.Contains(err.Error(), "tag value") {
			t.Errorf("tag value %q: %v, want bad input naming it", bad, err)
		}
	}
}
