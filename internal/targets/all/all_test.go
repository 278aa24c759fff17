package all

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

// Every registered target declares the types it stores: the run refuses a
// type a target does not declare before anything is sent, so an empty list
// would refuse every run.
func TestEveryTargetDeclaresTypes(t *testing.T) {
	drivers := targets.Drivers()
	if n := len(drivers) + len(targets.LeftOuts()); n < 15 {
		t.Fatalf("%d targets registered or left out", n)
	}
	for _, d := range drivers {
		if len(d.Caps.Types) == 0 {
			t.Errorf("%s declares no data type", d.Name)
		}
	}
}

// A DB_SWITCH spelling of IoT-benchmark names a database and the API it is
// reached through: one tsbench does not speak is refused with what to use
// instead, never run by another target in its place.
func TestDBSwitchSpellings(t *testing.T) {
	for _, c := range []struct{ name, target, refusal string }{
		{"IoTDB-200-SESSION_BY_TABLET", "iotdb", ""},
		{"IoTDB-130-SESSION_BY_RECORDS", "iotdb", ""},
		{"IoTDB-130-JDBC", "", "IoTDB-200-SESSION_BY_TABLET"},
		{"IoTDB-200-REST", "", "session API"},
		{"InfluxDB", "influxdb", ""},
		{"InfluxDB-2.x", "", "InfluxDB 1.x"},
		{"VictoriaMetrics", "victoriametrics", ""},
		{"TDengine-3", "", "not supported yet"},
	} {
		d, err := targets.Lookup(c.name)
		switch {
		case c.refusal != "" && (err == nil || !strings.Contains(err.Error(), c.refusal)):
			t.Errorf("%s: %v, want a refusal saying %q", c.name, err, c.refusal)
		case c.refusal == "" && (err != nil || d.Name != c.target):
			t.Errorf("%s: %v, %v; want target %s", c.name, d, err, c.target)
		}
	}
}

// Every target with a server of its own names the port it listens on by
// default: the resources sampler and --crash find the server by it, and a
// target without one would quietly fall back to a service script's pid
// file. Embedded targets and null have none.
func TestEveryServerTargetHasAPort(t *testing.T) {
	for _, d := range targets.Drivers() {
		embedded := d.Server == "embedded" || d.Name == "null"
		if embedded != (d.DefaultPort == 0) {
			t.Errorf("%s (server %q): default port %d", d.Name, d.Server, d.DefaultPort)
		}
	}
}

// A target this build left out (duckdb without the build tag duckdb) is
// refused by its name and its DB_SWITCH spellings, naming the tag and the
// build command, never called an unsupported database; a target is either
// registered or left out, not both.
func TestLeftOutTargetsNameTheirTag(t *testing.T) {
	for _, l := range targets.LeftOuts() {
		for _, name := range append([]string{l.Name}, l.Aliases...) {
			_, err := targets.Lookup(name)
			if err == nil || !strings.Contains(err.Error(), `build tag "`+l.Tag+`"`) ||
				!strings.Contains(err.Error(), "go build -tags "+l.Tag) {
				t.Errorf("%s: %v; want the build tag %s named", name, err, l.Tag)
			}
		}
	}
	for _, d := range targets.Drivers() {
		for _, l := range targets.LeftOuts() {
			if d.Name == l.Name {
				t.Errorf("%s is registered and left out", d.Name)
			}
		}
	}
}
