package config

import (
	"strings"
	"testing"
)

// OUTPUTS takes receivers KIND=WHERE, ';'-separated or a YAML list; a bad
// one is refused naming the value and what is allowed; a URL's password is
// masked when shown.
func TestOutputsKey(t *testing.T) {
	c := Default()
	if err := Set(c, "OUTPUTS", "json=live.ndjson; prometheus-rw=http://u:pw@127.0.0.1:8428/api/v1/write"); err != nil {
		t.Fatal(err)
	}
	if len(c.Outputs) != 2 || c.Outputs[0] != "json=live.ndjson" {
		t.Fatalf("Outputs %q", c.Outputs)
	}
	if got := Map(c)["outputs"]; got == nil || strings.Contains(got.(string), "pw") {
		t.Errorf("shown with its password: %v", got)
	}
	if _, err := LoadYAML(c, strings.NewReader("outputs: [csv=a.csv, 'influxdb=http://127.0.0.1:8086/db']\n"), "t.yaml"); err != nil || len(c.Outputs) != 2 || c.Outputs[1] != "influxdb=http://127.0.0.1:8086/db" {
		t.Fatalf("YAML list: %q, %v", c.Outputs, err)
	}
	err := Set(c, "OUTPUTS", "statsd=127.0.0.1:8125")
	for _, want := range []string{"OUTPUTS", "statsd=127.0.0.1:8125", "prometheus-rw=URL", "json=FILE"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}
