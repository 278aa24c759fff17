package config

import (
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestDefaultResolves(t *testing.T) {
	c := Default()
	if err := Resolve(c); err != nil {
		t.Fatalf("Default() does not resolve: %v", err)
	}
	if !c.DeleteData || c.OpMinInterval != 0 {
		t.Errorf("Resolve changed the defaults: %+v", c)
	}
	if err := Resolve(c); err != nil {
		t.Errorf("Resolve is not idempotent: %v", err)
	}
}

func TestResolveChecks(t *testing.T) {
	tests := []struct {
		name   string
		modify func(c *Config)
		key    string // blamed key; "" for success
		reason string // part of the message
	}{
		{"more writing clients than devices", func(c *Config) { c.Clients = 21 },
			"CLIENT_NUMBER", "each writing client must own at least one device"},
		{"more query-only clients than devices", func(c *Config) { c.Clients = 21; c.Proportion = [11]int64{0, 1} }, "", ""},
		{"groups above devices", func(c *Config) { c.Groups = 21 }, "GROUP_NUMBER", "[1, 20]"},
		{"query devices above devices", func(c *Config) { c.QueryDevices = 21 }, "QUERY_DEVICE_NUM", "[1, 20]"},
		{"query devices above devices, no queries", func(c *Config) { c.QueryDevices = 21; c.Proportion = [11]int64{1} }, "", ""},
		{"query sensors above sensors", func(c *Config) { c.QuerySensors = 11 }, "QUERY_SENSOR_NUM", "[1, 10]"},
		// 10 sensors at 1:1:1:1:1:1 are 2 BOOLEAN, 2 INT32, 2 INT64, 2 FLOAT, 1 DOUBLE, 1 TEXT: 7 numeric.
		{"exactly enough numeric sensors", func(c *Config) { c.QuerySensors = 7 }, "", ""},
		{"one numeric sensor short", func(c *Config) { c.QuerySensors = 8 },
			"INSERT_DATATYPE_PROPORTION", "gives 7 numeric sensors of SENSOR_NUMBER = 10, but Q3, Q5, Q6, Q10 need QUERY_SENSOR_NUM = 8"},
		{"no numeric sensor, value filter", func(c *Config) {
			c.TypeProportion = [6]int64{1, 0, 0, 0, 0, 1}
			c.Proportion = [11]int64{1, 0, 0, 1}
		}, "INSERT_DATATYPE_PROPORTION", "Q3 need"},
		{"no numeric sensor, count", func(c *Config) {
			c.TypeProportion = [6]int64{1, 0, 0, 0, 0, 1}
			c.Proportion = [11]int64{1, 1, 1, 0, 1, 0, 0, 1, 1, 1}
		}, "", ""},
		{"no numeric sensor, avg", func(c *Config) {
			c.TypeProportion = [6]int64{1, 0, 0, 0, 0, 1}
			c.Proportion = [11]int64{1, 0, 0, 0, 0, 0, 0, 1}
			c.QueryAggregate = ts.Avg
		}, "INSERT_DATATYPE_PROPORTION", "Q7 need"},
		{"tag cardinalities", func(c *Config) { c.Tags = 2; c.TagCardinality = []int{3} }, "TAG_VALUE_CARDINALITY", "has 1 values for TAG_NUMBER = 2"},
		{"no value model", func(c *Config) {
			c.LineRatio, c.SinRatio, c.SquareRatio, c.RandomRatio, c.ConstantRatio = 0, 0, 0, 0, 0
		}, "", "at least one value model"},
		// Values set in code meet the same rules as values read from files.
		{"code: double length", func(c *Config) { c.DoubleLength = 16 }, "DOUBLE_LENGTH", "[-1, 15]"},
		{"code: string length", func(c *Config) { c.StringLength = 0 }, "STRING_LENGTH", "[1, 100000]"},
		{"code: rate", func(c *Config) { c.Rate = -1 }, "RATE", ">= 0"},
		{"code: max time", func(c *Config) { c.MaxTime = -time.Second }, "TEST_MAX_TIME", ">= 0"},
		{"code: ratio", func(c *Config) { c.OutOfOrderRate = 2 }, "OUT_OF_ORDER_RATIO", "[0, 1]"},
		{"code: precision", func(c *Config) { c.Precision = "ns" }, "TIMESTAMP_PRECISION", "not supported"},
		{"code: work mode", func(c *Config) { c.WorkMode = "serverMODE" }, "BENCHMARK_WORK_MODE", "not supported"},
		{"code: no operations", func(c *Config) { c.Proportion = [11]int64{} }, "OPERATION_PROPORTION", "all weights are 0"},
		{"code: no types", func(c *Config) { c.TypeProportion = [6]int64{} }, "INSERT_DATATYPE_PROPORTION", "all weights are 0"},
		{"code: batch", func(c *Config) { c.BatchSize = 0 }, "BATCH_SIZE_PER_WRITE", ">= 1"},
		{"code: loop", func(c *Config) { c.Loop = 0 }, "LOOP", ">= 1"},
		{"code: point step", func(c *Config) { c.PointStep = 0 }, "POINT_STEP", ">= 1"},
		{"code: sensors", func(c *Config) { c.Sensors = 0 }, "SENSOR_NUMBER", "[1, 1000000]"},
		{"code: devices", func(c *Config) { c.Devices = 0 }, "DEVICE_NUMBER", ">= 1"},
		{"code: clients", func(c *Config) { c.Clients = 0 }, "CLIENT_NUMBER", ">= 1"},
		{"code: target", func(c *Config) { c.Target = "" }, "DB_SWITCH", "non-empty"},
		{"code: strategy", func(c *Config) { c.GroupStrategy = "random" }, "SG_STRATEGY", "mod, div or hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.modify(c)
			err := Resolve(c)
			if tt.key == "" && tt.reason == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			e := asError(t, err)
			if e.Key != tt.key || !strings.Contains(e.Error(), tt.reason) {
				t.Errorf("got %q (key %q), want key %q and %q", e.Error(), e.Key, tt.key, tt.reason)
			}
		})
	}
}

func TestResolveBlamesTheLine(t *testing.T) {
	c := Default()
	if _, err := loadProps(c, "DEVICE_NUMBER=2\n# clients\nCLIENT_NUMBER=3\n"); err != nil {
		t.Fatal(err)
	}
	e := asError(t, Resolve(c))
	if e.Source != "test.properties:3" || e.Key != "CLIENT_NUMBER" || e.Value != "3" {
		t.Errorf("got %q", e.Error())
	}
}

func TestOpMinIntervalStep(t *testing.T) {
	c := Default()
	// -1 comes before POINT_STEP in the file: it must still follow it.
	if _, err := loadProps(c, "OP_INTERVAL=-1\nPOINT_STEP=500\n"); err != nil {
		t.Fatal(err)
	}
	if err := Resolve(c); err != nil {
		t.Fatal(err)
	}
	if c.OpMinInterval != 500*time.Millisecond {
		t.Errorf("OpMinInterval = %v, want 500ms", c.OpMinInterval)
	}
	if got := Map(c)["op_min_interval"]; got != int64(-1) {
		t.Errorf("Map shows op_min_interval = %#v, want the raw -1", got)
	}
	var b strings.Builder
	if err := Print(c, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "op_min_interval: -1 # -1 = POINT_STEP (500 ms)") {
		t.Errorf("Print lost the raw -1:\n%s", b.String())
	}
}

// USE_SSL=true is TLS=on (IoT-benchmark's switch), false leaves TLS off;
// TLS takes off, on and insecure only.
func TestUseSSLIsTLS(t *testing.T) {
	for _, c := range []struct {
		file string
		tls  string // "" when refused
	}{
		{"USE_SSL=false\n", "off"}, {"USE_SSL=true\n", "on"}, {"USE_SSL=True\n", "on"},
		{"TLS=insecure\nUSE_SSL=true\n", "insecure"}, {"USE_SSL=maybe\n", ""}, {"TLS=yes\n", ""},
	} {
		cfg := Default()
		_, err := loadProps(cfg, c.file)
		if (err == nil) != (c.tls != "") || (err == nil && cfg.TLS != c.tls) {
			t.Errorf("%q: TLS %q, error %v; want %q", c.file, cfg.TLS, err, c.tls)
		}
	}
}
