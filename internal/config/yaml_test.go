package config

import (
	"strings"
	"testing"
)

func TestYAMLEquivalentToProperties(t *testing.T) {
	fromProps, propWarnings := loadFile(t, "crrc-write.properties")
	fromYAML, yamlWarnings := loadFile(t, "crrc-write.yaml")
	assertSameConfig(t, fromYAML, fromProps)
	if len(yamlWarnings) != len(propWarnings) {
		t.Errorf("YAML gave %d warnings, properties %d:\n%s", len(yamlWarnings), len(propWarnings),
			strings.Join(yamlWarnings, "\n"))
	}
	if got := fromYAML.Origin("CLIENT_NUMBER"); got != "crrc-write.yaml:8" {
		t.Errorf("Origin(CLIENT_NUMBER) = %q, want crrc-write.yaml:8", got)
	}
}

func TestYAMLValues(t *testing.T) {
	c := Default()
	warnings, err := loadYAMLText(c, `
target: timescaledb
target_options:
  sslmode: disable
  password: pw
  pool: 8
tag_number: 2
tag_value_cardinality: [5, 6]
is_quiet_mode: True
start_time: 2022-10-30T00:00:00+08:00
remark:
duration: 2m
`)
	if err != nil {
		t.Fatal(err)
	}
	if c.Target != "timescaledb" || c.TargetOptions["sslmode"] != "disable" || c.TargetOptions["pool"] != "8" ||
		c.TargetOptions["password"] != "pw" || c.Tags != 2 || c.TagValueCardinality(0) != 5 ||
		c.TagValueCardinality(1) != 6 || !c.Quiet || c.Remark != "" || c.MaxTime.Minutes() != 2 {
		t.Errorf("got %+v", c)
	}
	if c.StartTime.Format(timeLayout) != "2022-10-30T00:00:00+08:00" {
		t.Errorf("start_time = %s", c.StartTime.Format(timeLayout))
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
}

// Thresholds are a list in YAML, ';'-separated elsewhere; each is checked
// as it is read.
func TestThresholdsKey(t *testing.T) {
	c := Default()
	if _, err := loadYAMLText(c, "thresholds:\n  - INGESTION.p99<50ms\n  - 'errors==0'\n"); err != nil {
		t.Fatal(err)
	}
	if len(c.Thresholds) != 2 || c.Thresholds[0] != "INGESTION.p99<50ms" || c.Thresholds[1] != "errors==0" {
		t.Fatalf("YAML thresholds %q", c.Thresholds)
	}
	if err := Set(c, "THRESHOLDS", " INGESTION.throughput>1000 ; ;errors==0"); err != nil {
		t.Fatal(err)
	}
	if len(c.Thresholds) != 2 || c.Thresholds[0] != "INGESTION.throughput>1000" {
		t.Fatalf("';'-separated thresholds %q", c.Thresholds)
	}
}

func TestYAMLErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"bad value", "device_number: many\n", `test.yaml:1: DEVICE_NUMBER = "many": must be an integer >= 1`},
		{"list for a scalar key", "host: [a, b]\n", `test.yaml:1: HOST = "<list>": must be a single value`},
		{"mapping for a scalar key", "loop:\n  a: 1\n", `test.yaml:1: LOOP = "<mapping>": must be a single value`},
		{"nested target option", "target_options:\n  a: [1]\n", `test.yaml:2: target.a = "<list>"`},
		{"bad threshold", "thresholds: [errors==0, INGESTION.p98<5ms]\n", `test.yaml:1: THRESHOLDS = "errors==0;INGESTION.p98<5ms": threshold "INGESTION.p98<5ms": unknown metric "p98"`},
		{"not a mapping", "- a\n- b\n", "test.yaml:1: the configuration must be a mapping"},
		{"syntax", "a: [\n", "test.yaml: not valid YAML"},
		{"two documents", "a: 1\n---\nb: 2\n", "want one YAML document"},
		{"bad bool", "verify: sometimes\n", `VERIFY = "sometimes": must be true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadYAMLText(Default(), tt.text)
			e := asError(t, err)
			if !strings.Contains(e.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", e.Error(), tt.want)
			}
		})
	}
}

func TestYAMLEmpty(t *testing.T) {
	for _, text := range []string{"", "# only a comment\n", "~\n"} {
		c := Default()
		if w, err := loadYAMLText(c, text); err != nil || len(w) != 0 {
			t.Errorf("%q: %v %q", text, err, w)
		}
		assertSameConfig(t, c, Default())
	}
}
