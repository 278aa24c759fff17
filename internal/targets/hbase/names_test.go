package hbase

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The names case's devices start their row keys as they are; a device
// holding 0x00 or too long for a row key is mapped.
func TestRowNames(t *testing.T) {
	s := &ts.Schema{}
	for _, n := range append(targettest.HostileDevices, "a\x00b", strings.Repeat("x", maxRowKey)) {
		s.Devices = append(s.Devices, ts.Device{Name: n})
	}
	m, err := rowNames(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range targettest.HostileDevices {
		if m.Server(n) != n {
			t.Errorf("device %q keyed as %q", n, m.Server(n))
		}
	}
	if got := m.Changed(); len(got) != 2 {
		t.Errorf("changed %q: want the NUL and the long name", got)
	}
}

// Two devices' row ranges never overlap, and every key of a device's rows
// lies in its range and parses back to its row name.
func FuzzRowKeys(f *testing.F) {
	f.Add("a", "a\x00b", int64(0))
	f.Add("web01.example.com", "Web01.Example.com", int64(-1))
	f.Add("a", "a\x01", int64(3_600_000))
	f.Fuzz(func(t *testing.T, a, b string, tm int64) {
		if a == "" || b == "" || a == b {
			t.Skip() // an empty name is bad input; one name is one range
		}
		m, err := rowNames(&ts.Schema{Devices: []ts.Device{{Name: a}, {Name: b}}})
		if err != nil {
			t.Fatal(err)
		}
		ra, rb := m.Server(a), m.Server(b)
		ka, kb := rowKey(nil, ra, bucketOf(tm)), rowKey(nil, rb, bucketOf(tm))
		for _, c := range []struct {
			name string
			key  []byte
			in   string // the device whose range must hold key
			out  string // the one whose range must not
		}{{ra, ka, ra, rb}, {rb, kb, rb, ra}} {
			if len(c.key) > maxRowKey {
				t.Fatalf("row key of %q is %d bytes", c.name, len(c.key))
			}
			if dev, _, err := parseRowKey(c.key); err != nil || dev != c.name {
				t.Errorf("key %q parses as %q, %v", c.key, dev, err)
			}
			inStart, inStop := deviceRange(c.in)
			outStart, outStop := deviceRange(c.out)
			if bytes.Compare(c.key, inStart) < 0 || bytes.Compare(c.key, inStop) >= 0 {
				t.Errorf("key %q outside %q's range", c.key, c.in)
			}
			if bytes.Compare(c.key, outStart) >= 0 && bytes.Compare(c.key, outStop) < 0 {
				t.Errorf("key %q of %q inside %q's range", c.key, c.name, c.out)
			}
		}
	})
}
