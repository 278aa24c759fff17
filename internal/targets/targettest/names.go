package targettest

import (
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// Names as users have them: every class of character a real host, tag or
// sensor name holds (dots, spaces, both quotes, brackets, commas,
// backslashes, '=' and '%', non-ASCII letters), reserved words of the query
// languages, a leading digit, a name of spaces only and a 200-character
// name; and pairs that a careless mapping would merge (a dot and an
// underscore, two cases of one name). The names case writes the conformance
// data under them: every point must be stored and every answer agree, or
// the target must refuse the schema in Setup as bad input, before writing.
var (
	// HostileDevices are the names case's device names.
	HostileDevices = []string{
		"web01.example.com",
		"web01_example_com",
		`probe (north) "A" 'b'`,
		`C:\data\probe,1`,
		"k=v x",
		"Zürich/温度/東京",
		"select",
		"time",
		"0day",
		"   ",
		strings.Repeat("host-", 40),
		"Web01.Example.com",
	}
	// HostileSensors are the names case's sensor names.
	HostileSensors = []string{
		"cpu usage [%]",
		"cpu_usage____",
		"temp.c",
		"Temp.C",
		`it's "q"`,
		"value",
		"timestamp",
		"group",
		"order",
		"from",
		"device",
		"1st",
		`back\slash`,
		"naïve °C",
		"  ",
		strings.Repeat("sensor_", 28) + "end",
	}
	// HostileTags are the names case's tag keys and values.
	HostileTags = []ts.Tag{
		{Key: "host.fqdn", Value: `rack "7", row=3`},
		{Key: "order", Value: "Zürich \\ it's"},
	}
)

// NewNamesDataset is the conformance dataset under HostileDevices,
// HostileSensors and HostileTags: the sensors cycle through the target's
// types, the devices share the three delivery orders.
func NewNamesDataset(types []ts.DataType, start int64) (*Dataset, error) {
	d, err := NewDataset(types, start)
	if err != nil {
		return nil, err
	}
	s := d.Schema
	base := s.Sensors
	s.Sensors = nil
	for i, n := range HostileSensors {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: n, Type: base[i%len(base)].Type})
	}
	// The last two stay numeric: the suite's aggregate queries read them.
	s.Sensors[len(s.Sensors)-2].Type = ts.Double
	s.Sensors[len(s.Sensors)-1].Type = ts.Int64
	s.Devices = nil
	for i, n := range HostileDevices {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: n, Group: i % 2,
			Tags: []ts.Tag{HostileTags[0], {Key: HostileTags[1].Key, Value: HostileTags[1].Value + string(rune('a'+i%3))}}})
	}
	// The generators were made for the first schema; the new one has more
	// devices and sensors, so make them again over it.
	return d, d.regenerate()
}

// DevicesNamed is a device for each of names, indexed in order, each with
// its own copy of tags: the devices of a target's name-mapping test,
// which builds its schema around the hostile names.
func DevicesNamed(names []string, tags ...ts.Tag) []ts.Device {
	out := make([]ts.Device, len(names))
	for i, n := range names {
		out[i] = ts.Device{Index: i, Name: n, Tags: slices.Clone(tags)}
	}
	return out
}

// runNames runs the suite on the names dataset.
func runNames(t *testing.T, s Suite) {
	t.Helper()
	d, err := NewNamesDataset(s.Driver.Caps.Types, startTime)
	if err != nil {
		t.Fatal(err)
	}
	runOn(t, s, d)
}

// SeedHostilePairs adds to a fuzz target of two names every hostile
// device, sensor, tag key and tag value, and extra, each paired with the
// next: the seeds of a target's quoting and mapping fuzz tests.
func SeedHostilePairs(f *testing.F, extra ...string) {
	var all []string
	all = append(all, HostileDevices...)
	all = append(all, HostileSensors...)
	for _, tg := range HostileTags {
		all = append(all, tg.Key, tg.Value)
	}
	all = append(all, extra...)
	for i, a := range all {
		f.Add(a, all[(i+1)%len(all)])
	}
}

// FuzzTwoNames fuzzes f with two names a schema could hold side by side:
// neither empty, the two not equal, and neither one of reserved (a name
// the test puts beside them); any other pair is skipped.
func FuzzTwoNames(f *testing.F, check func(t *testing.T, a, b string), reserved ...string) {
	f.Fuzz(func(t *testing.T, a, b string) {
		if a == "" || b == "" || a == b || slices.Contains(reserved, a) || slices.Contains(reserved, b) {
			t.Skip("a schema's names are distinct and not empty")
		}
		check(t, a, b)
	})
}
