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
	if len(drivers) < 15 {
		t.Fatalf("%d targets registered", len(drivers))
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
