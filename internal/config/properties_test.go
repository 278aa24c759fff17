package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// crrcWrite is what seed 002 table 2-3 (IoTDB column) must give: tsbench's
// defaults with the table's values on top.
func crrcWrite() *Config {
	c := Default()
	c.Target = "IoTDB-013-SESSION_BY_TABLET"
	c.Host = "172.21.4.3"
	c.Port = 6667
	c.Proportion = [11]int64{1}
	c.Clients = 100
	c.Groups = 10
	c.Devices = 100
	c.Sensors = 3000
	c.TypeProportion = [6]int64{0, 0, 0, 0, 1, 0}
	c.PointStep = 500
	c.BatchSize = 1
	c.Loop = 10000
	c.Remark = "demo"
	c.Extra = map[string]string{
		"TEST_DATA_PERSISTENCE": "MySQL",
		"TEST_DATA_STORE_IP":    "172.21.4.5",
		"TEST_DATA_STORE_PORT":  "3306",
		"TEST_DATA_STORE_DB":    "demo",
		"TEST_DATA_STORE_USER":  "root",
		"TEST_DATA_STORE_PW":    "admin",
	}
	return c
}

func TestLoadPropertiesCRRCWrite(t *testing.T) {
	c, warnings := loadFile(t, "crrc-write.properties")
	assertSameConfig(t, c, crrcWrite())
	if err := Resolve(c); err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if c.OpMinInterval != 0 || c.OpMinIntervalStep {
		t.Errorf("OpMinInterval = %v (step %v), want 0", c.OpMinInterval, c.OpMinIntervalStep)
	}
	// Six result-store keys are accepted and reported as ignored, nothing else.
	if len(warnings) != 6 {
		t.Errorf("got %d warnings, want 6:\n%s", len(warnings), strings.Join(warnings, "\n"))
	}
	for _, w := range warnings {
		if !strings.Contains(w, "accepted, ignored: ") || strings.Contains(w, "unknown") {
			t.Errorf("warning %q is not an accepted-ignored notice", w)
		}
	}
	const want = "crrc-write.properties:24: TEST_DATA_PERSISTENCE accepted, ignored: tsbench keeps every run"
	if !containsLine(warnings, want) {
		t.Errorf("no notice %q in\n%s", want, strings.Join(warnings, "\n"))
	}
	if got := c.Origin("device_number"); got != "crrc-write.properties:14" {
		t.Errorf("Origin(DEVICE_NUMBER) = %q", got)
	}
}

func TestLoadPropertiesCRRCQuery(t *testing.T) {
	c, warnings := loadFile(t, "crrc-query.properties")
	if len(warnings) != 0 {
		t.Errorf("unexpected warnings: %q", warnings)
	}
	want := crrcWrite()
	want.Extra = map[string]string{}
	want.Remark = ""
	want.Port = 6667
	want.QueryDevices, want.QuerySensors = 2, 2
	want.QueryAggregate = ts.Count
	want.StepSize, want.QueryInterval, want.QueryLower, want.GroupByUnit = 1, 250000, -5, 20000
	want.Loop = 30
	want.Proportion = [11]int64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	assertSameConfig(t, c, want)

	if err := Resolve(c); err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	// 100 clients on 100 devices is fine either way; a query-only run keeps
	// the data an earlier run wrote, as IoT-benchmark does.
	if c.DeleteData {
		t.Error("DeleteData stays true in a query-only run")
	}
}

func TestPropertiesSyntax(t *testing.T) {
	c, warnings := loadFile(t, "syntax.properties")
	checks := []struct {
		field, got, want string
	}{
		{"DB_NAME (spaces around =, trailing blanks)", c.Database, "spaced"},
		{"HOST (key: value)", c.Host, "db.example.org"},
		{"USERNAME (key value)", c.User, "admin"},
		{"REMARK (continuation)", c.Remark, "first part, second part, third part"},
		{"GROUP_NAME_PREFIX (\\u escape)", c.GroupPrefix, "g_"},
		{"SENSOR_NAME_PREFIX (escaped :)", c.SensorPrefix, "s:"},
		{"TAG_KEY_PREFIX (values are trimmed, even of an escaped blank)", c.TagKeyPrefix, "k"},
		{"TOKEN (# after a value is kept)", c.Token, "abc # not a comment: Java keeps it"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.field, ch.got, ch.want)
		}
	}
	if c.Proportion != [11]int64{1, 1} {
		t.Errorf("OPERATION_PROPORTION continued from an empty first line = %v", c.Proportion)
	}
	if c.Loop != 7 {
		t.Errorf("LOOP = %d: a comment ending in a backslash must not swallow the next line", c.Loop)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "syntax.properties:16: OPERATION_PROPORTION = \"1:1\": has 2 of the 11 fields") {
		t.Errorf("want only the padded OPERATION_PROPORTION warning, got %q", warnings)
	}
	if got := c.Origin("REMARK"); got != "syntax.properties:8" {
		t.Errorf("a continued line is reported at its first line: Origin(REMARK) = %q", got)
	}
}

func TestPropertiesCRLF(t *testing.T) {
	c, _ := loadFile(t, "crlf.properties")
	if c.Target != "sqlite" || c.Devices != 5 || c.Sensors != 6 {
		t.Errorf("CRLF file: target %q devices %d sensors %d", c.Target, c.Devices, c.Sensors)
	}
}

func TestPropertiesMalformedEscape(t *testing.T) {
	_, err := loadProps(Default(), "# x\nREMARK=a\\u12")
	e := asError(t, err)
	if e.Source != "test.properties:2" || !strings.Contains(e.Error(), "malformed") {
		t.Errorf("got %v", e)
	}
}

func TestProportionForms(t *testing.T) {
	tests := []struct {
		key, value string
		wantOps    [11]int64
		wantTypes  [6]int64
	}{
		{"INSERT_DATATYPE_PROPORTION", "1:2:3:4:5:6", [11]int64{}, [6]int64{1, 2, 3, 4, 5, 6}},
		{"INSERT_DATATYPE_PROPORTION", "1:2:3:4:5:6:0:0:0:0:0", [11]int64{}, [6]int64{1, 2, 3, 4, 5, 6}},
		{"INSERT_DATATYPE_PROPORTION", " 0 : 0 : 0 : 0 : 1 : 0 ", [11]int64{}, [6]int64{0, 0, 0, 0, 1, 0}},
		{"OPERATION_PROPORTION", "1:2:3:4:5:6:7:8:9:10:11", [11]int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, [6]int64{}},
		{"OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0:0:0", [11]int64{1}, [6]int64{}},
		{"OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0:0", [11]int64{1}, [6]int64{}},
		{"OPERATION_PROPORTION", "0:1", [11]int64{0, 1}, [6]int64{}},
		{"OPERATION_PROPORTION", "3", [11]int64{3}, [6]int64{}},
	}
	for _, tt := range tests {
		c := Default()
		c.Proportion, c.TypeProportion = [11]int64{}, [6]int64{}
		if err := Set(c, tt.key, tt.value); err != nil {
			t.Errorf("%s=%s: %v", tt.key, tt.value, err)
			continue
		}
		if c.Proportion != tt.wantOps || c.TypeProportion != tt.wantTypes {
			t.Errorf("%s=%s: ops %v types %v", tt.key, tt.value, c.Proportion, tt.wantTypes)
		}
	}
}

// TestBadValues covers every class of bad value: each must be an *Error
// naming the key, the value and what is allowed, at the right line.
func TestBadValues(t *testing.T) {
	tests := []struct {
		class, key, value string
		reason            string // expected in Reason, "" for a plain "must be"
	}{
		{"not a number", "DEVICE_NUMBER", "abc", ""},
		{"not a number", "LAMBDA", "lots", ""},
		{"not an integer", "LOOP", "10.5", ""},
		{"out of range", "DEVICE_NUMBER", "0", ""},
		{"out of range", "CLIENT_NUMBER", "-3", ""},
		{"out of range", "OUT_OF_ORDER_RATIO", "1.5", ""},
		{"out of range", "STRING_LENGTH", "100001", ""},
		{"out of range", "DOUBLE_LENGTH", "-2", ""},
		{"out of range", "LAMBDA", "0", ""},
		{"out of range", "MAX_K", "0", ""},
		{"out of range", "TEST_MAX_TIME", "-1", ""},
		{"out of range", "OP_MIN_INTERVAL", "-2", ""},
		{"out of range", "PORT", "70000", ""},
		{"out of range", "RATE", "-1", ""},
		{"too large", "LOOP", "99999999999999999999", "too large"},
		{"too large", "DEVICE_NUMBER", "3000000000", "too large"},
		{"not a number", "PORT", "6667,6668", ""},
		{"not finite", "QUERY_LOWER_VALUE", "NaN", ""},
		{"bad enum", "SG_STRATEGY", "random", ""},
		{"bad enum", "OUT_OF_ORDER_MODE", "2", ""},
		{"bad enum", "QUERY_AGGREGATE_FUN", "median", ""},
		{"IoTDB aggregate", "QUERY_AGGREGATE_FUN", "max_time", "use count, sum, avg, min (min_value) or max (max_value)"},
		{"workload key", "REAL_INSERT_RATE", "0.5", "to write less, lower LOOP"},
		{"workload key", "ALIGN_BY_DEVICE", "true", "tsbench runs only ALIGN_BY_DEVICE = false"},
		{"bad enum", "BENCHMARK_WORK_MODE", "fastMode", ""},
		{"unsupported", "BENCHMARK_WORK_MODE", "generateDataMode", "not supported"},
		{"unsupported", "TIMESTAMP_PRECISION", "us", "not supported"},
		{"unsupported", "TIMESTAMP_PRECISION", "ns", "not supported"},
		{"bad enum", "TIMESTAMP_PRECISION", "s", ""},
		{"bad proportion length", "INSERT_DATATYPE_PROPORTION", "1:1:1", "has 3 fields; want 6 or 11"},
		{"bad proportion length", "INSERT_DATATYPE_PROPORTION", "1:1:1:1:1:1:0", "has 7 fields"},
		{"bad proportion length", "OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0:0:0:0", "has 14 fields"},
		{"bad proportion field", "OPERATION_PROPORTION", "1:-1", ""},
		{"bad proportion field", "INSERT_DATATYPE_PROPORTION", "1:1:x:1:1:1", ""},
		{"all-zero proportion", "OPERATION_PROPORTION", "0:0:0", "all weights are 0"},
		{"all-zero proportion", "INSERT_DATATYPE_PROPORTION", "0:0:0:0:0:0", "all weights are 0"},
		{"unsupported type field", "INSERT_DATATYPE_PROPORTION", "1:1:1:1:1:1:1:0:0:0:0", "only the first six types"},
		{"unsupported type field", "INSERT_DATATYPE_PROPORTION", "1:1:1:1:1:1:0:0:0:0:2", "only the first six types"},
		{"unsupported query field", "OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0:1:0", "not supported"},
		{"unsupported query field", "OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0:0:1", "not supported"},
		{"bad duration", "DURATION", "10", ""},
		{"bad duration", "WARMUP", "-1s", ""},
		{"bad duration", "DURATION", "ten minutes", ""},
		{"bad time", "START_TIME", "yesterday", ""},
		{"bad time", "START_TIME", "2022-13-01T00:00:00+08:00", ""},
		{"bad time", "START_TIME", "2022-01-01T00:00:00.0001Z", "fraction of a millisecond"},
		{"bad bool", "IS_OUT_OF_ORDER", "maybe", ""},
		{"bad bool", "VERIFY", "", ""},
		{"empty", "DB_SWITCH", "", ""},
		{"bad list", "TAG_VALUE_CARDINALITY", "10,0", ""},
		{"bad options", "TARGET_OPTIONS", "novalue", ""},
	}
	for _, tt := range tests {
		t.Run(tt.class+"/"+tt.key+"="+tt.value, func(t *testing.T) {
			c := Default()
			before := *c
			_, err := loadProps(c, "# line 1\n"+tt.key+"="+tt.value+"\n")
			e := asError(t, err)
			if e.Key != tt.key || e.Value != strings.TrimSpace(tt.value) || e.Source != "test.properties:2" || e.Allowed == "" {
				t.Errorf("got Key %q Value %q Source %q Allowed %q", e.Key, e.Value, e.Source, e.Allowed)
			}
			msg := e.Error()
			for _, part := range []string{"test.properties:2: ", tt.key, `"` + strings.TrimSpace(tt.value) + `"`, e.Allowed} {
				if !strings.Contains(msg, part) {
					t.Errorf("message %q lacks %q", msg, part)
				}
			}
			if !strings.Contains(e.Reason, tt.reason) || (tt.reason == "" && e.Reason != "") {
				t.Errorf("Reason = %q, want it to contain %q", e.Reason, tt.reason)
			}
			if tt.key == "START_TIME" && !c.StartTime.Equal(before.StartTime) {
				t.Error("a rejected value changed the config")
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := LoadProperties(Default(), strings.NewReader(strings.Repeat("\n", 11)+"DEVICE_NUMBER=abc\n"), "config.properties")
	const want = `config.properties:12: DEVICE_NUMBER = "abc": must be an integer >= 1`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = loadProps(Default(), "TIMESTAMP_PRECISION=us")
	const want2 = `test.properties:1: TIMESTAMP_PRECISION = "us": not supported: tsbench generates and writes millisecond timestamps; set TIMESTAMP_PRECISION = ms (allowed: ms)`
	if err == nil || err.Error() != want2 {
		t.Errorf("got %v, want %s", err, want2)
	}
}

func TestAllBadLinesReported(t *testing.T) {
	_, err := loadProps(Default(), "DEVICE_NUMBER=x\nSENSOR_NUMBER=10\nLOOP=y\n")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "test.properties:1: DEVICE_NUMBER") ||
		!strings.Contains(err.Error(), "test.properties:3: LOOP") {
		t.Errorf("want both bad lines reported, got %v", err)
	}
}

// An unknown key in a file is an error naming the line and, when one is
// near, the key meant: left as a warning, the run went on with the default.
func TestUnknownKeys(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{"DEVICE_NUMBR=10", "test.properties:1: unknown key DEVICE_NUMBR (did you mean DEVICE_NUMBER?)"},
		{"SENSOR_NUMER=10", "test.properties:1: unknown key SENSOR_NUMER (did you mean SENSOR_NUMBER?)"},
		{"OP_INTERVALL=10", "test.properties:1: unknown key OP_INTERVALL (did you mean OP_INTERVAL?)"},
		{"device_numbr=10", "test.properties:1: unknown key device_numbr (did you mean device_number?)"},
		{"COMPLETELY_DIFFERENT=1", "test.properties:1: unknown key COMPLETELY_DIFFERENT"},
	}
	for _, tt := range tests {
		c := Default()
		_, err := loadProps(c, tt.line)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.line, err, tt.want)
		}
		asError(t, err)
		if len(c.Extra) != 0 {
			t.Errorf("%s: an unknown key went to Extra", tt.line)
		}
	}
}

func TestIgnoredKeys(t *testing.T) {
	c := Default()
	warnings, err := loadProps(c, strings.Join([]string{
		"IS_CLIENT_BIND=true",
		"IS_CLIENT_BIND=false",
		"WORKLOAD_BUFFER_SIZE=100",
		"KAFKA_LOCATION=127.0.0.1:9092",
		"IoTDB_DIALECT_MODE=tree",
		"ENCODING_DOUBLE=GORILLA",
		"ANOTHER_PASSWORD=pw",
		"RECORD_SPLIT_MAX_LINE=10000000",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"test.properties:1: IS_CLIENT_BIND accepted, ignored: ",
		`test.properties:2: IS_CLIENT_BIND = "false": tsbench always binds`,
		"test.properties:2: IS_CLIENT_BIND set again (first at test.properties:1)",
		"test.properties:3: WORKLOAD_BUFFER_SIZE accepted, ignored: tsbench computes every value",
		"test.properties:4: KAFKA_LOCATION accepted, ignored: ",
		"test.properties:5: IOTDB_DIALECT_MODE accepted, ignored: ",
		"test.properties:6: ENCODING_DOUBLE accepted, ignored: ",
		"test.properties:7: ANOTHER_PASSWORD accepted, ignored: ",
		"test.properties:8: RECORD_SPLIT_MAX_LINE accepted, ignored: ",
	}
	for _, w := range want {
		if !containsLine(warnings, w) {
			t.Errorf("no %q in\n%s", w, strings.Join(warnings, "\n"))
		}
	}
	if containsLine(warnings, "unknown") {
		t.Errorf("ignored keys reported as unknown:\n%s", strings.Join(warnings, "\n"))
	}
	if c.Extra["IS_CLIENT_BIND"] != "false" || c.Extra["KAFKA_LOCATION"] != "127.0.0.1:9092" || c.Extra["IOTDB_DIALECT_MODE"] != "tree" {
		t.Errorf("Extra = %v", c.Extra)
	}
}

func TestSet(t *testing.T) {
	c := Default()
	steps := []struct{ key, value string }{
		{"target", "influxdb"},
		{"device-number", "7"},
		{"DATA_CLIENT_NUMBER", "3"},
		{"op_interval", "-1"},
		{"duration", "1m30s"},
		{"warmup", "5s"},
		{"rate", "250.5"},
		{"verify", "false"},
		{"json", "out.json"},
		{"target.wal", "off"},
		{"Target.Password", "s3cret"},
		{"start_time", "2022-10-30T00:00:00"},
		{"out_of_order_mode", "1"},
		{"query_aggregate_fun", "AVG"},
		{"tag_value_cardinality", "2, 3"},
		{"tag_number", "2"},
	}
	for _, s := range steps {
		if err := Set(c, s.key, s.value); err != nil {
			t.Fatalf("Set(%s, %s): %v", s.key, s.value, err)
		}
	}
	if c.Target != "influxdb" || c.Devices != 7 || c.Clients != 3 || !c.OpMinIntervalStep ||
		c.MaxTime != 90*time.Second || c.Warmup != 5*time.Second || c.Rate != 250.5 || c.Verify ||
		c.JSONPath != "out.json" || c.TargetOptions["wal"] != "off" || c.TargetOptions["Password"] != "s3cret" ||
		c.OutOfOrderMode != OutOfOrderBatch || c.QueryAggregate != ts.Avg || c.TagValueCardinality(1) != 3 {
		t.Errorf("Set gave %+v", c)
	}
	if want := time.Date(2022, 10, 30, 0, 0, 0, 0, time.UTC); !c.StartTime.Equal(want) {
		t.Errorf("zoneless START_TIME = %v, want UTC %v", c.StartTime, want)
	}
	if err := Set(c, "start_time", "1667059200000"); err != nil || c.StartTime.UnixMilli() != 1667059200000 {
		t.Errorf("epoch millis: %v %v", err, c.StartTime)
	}
	if err := Set(c, "device_numbr", "1"); err == nil || !strings.Contains(err.Error(), "did you mean device_number?") {
		t.Errorf("Set of an unknown key: %v", err)
	} else {
		asError(t, err)
	}
	if err := SetArg(c, "loop=12"); err != nil || c.Loop != 12 {
		t.Errorf("SetArg: %v, loop %d", err, c.Loop)
	}
	asError(t, SetArg(c, "loop"))
	if err := Resolve(c); err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if c.OpMinInterval != 5*time.Second {
		t.Errorf("OP_MIN_INTERVAL=-1 resolved to %v, want POINT_STEP 5s", c.OpMinInterval)
	}
}

// A config.properties starts from IoT-benchmark's defaults: its own
// configuration/conf/config.properties, whose every key is commented out,
// runs 20 clients on 6000 devices x 200 sensors, LOOP 100, writes only, on
// IoTDB. Keys the file sets win; YAML and flags keep tsbench's defaults.
func TestPropertiesStartFromIoTBenchmarkDefaults(t *testing.T) {
	c := IoTBenchmarkDefault()
	if _, err := LoadProperties(c, strings.NewReader("# DEVICE_NUMBER=6000\n# every key commented out\n"), "config.properties"); err != nil {
		t.Fatal(err)
	}
	want := []int64{20, 20, 6000, 200, 100}
	got := []int64{int64(c.Clients), int64(c.SchemaClients), int64(c.Devices), int64(c.Sensors), c.Loop}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("clients, schema clients, devices, sensors, loop = %v, want %v", got, want)
		}
	}
	if c.Target != "IoTDB-200-SESSION_BY_TABLET" || c.Proportion != [11]int64{1} || c.InitWait != time.Second {
		t.Fatalf("target %s, proportion %v, init wait %v", c.Target, c.Proportion, c.InitWait)
	}
	if used := IoTBenchmarkDefaultsUsed(c); len(used) != len(IoTBenchmarkDefaults) {
		t.Fatalf("defaults used %v, want all %d", used, len(IoTBenchmarkDefaults))
	}
	c = IoTBenchmarkDefault()
	if _, err := LoadProperties(c, strings.NewReader("DEVICE_NUMBER=10\nCLIENT_NUMBER=2\n"), "config.properties"); err != nil {
		t.Fatal(err)
	}
	if c.Devices != 10 || c.Clients != 2 || c.Sensors != 200 {
		t.Fatalf("devices %d, clients %d, sensors %d: the file's keys win, the rest are IoT-benchmark's", c.Devices, c.Clients, c.Sensors)
	}
	for _, u := range IoTBenchmarkDefaultsUsed(c) {
		if strings.HasPrefix(u, "DEVICE_NUMBER=") || strings.HasPrefix(u, "CLIENT_NUMBER=") {
			t.Fatalf("%s reported as a default although the file set it", u)
		}
	}
	if d := Default(); d.Devices != 20 || d.Target != "sqlite" || len(IoTBenchmarkDefaultsUsed(d)) != 0 {
		t.Fatalf("tsbench's own defaults changed: %d devices, target %s", d.Devices, d.Target)
	}
}

// Keys of IoT-benchmark's releases load (accepted with a note), so that
// its shipped files and older users' files run; a key no release has is
// still refused.
func TestIoTBenchmarkReleaseKeysLoad(t *testing.T) {
	for _, k := range []string{"MONITOR_INTERVAL=0", "NET_DEVICE=e", "CNOSDB_SHARD_NUMBER=32", "IS_ALL_NODES_VISIBLE=false",
		"DEVICE_TAGS=a", "TAG_NAME_PREFIX=t", "IoTDB_DIALECT_MODE=tree", "ENCODING_DOUBLE=GORILLA", "TEST_DATA_STORE_IP=127.0.0.1"} {
		warnings, err := LoadProperties(IoTBenchmarkDefault(), strings.NewReader(k+"\n"), "old.properties")
		if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "old.properties:1") {
			t.Errorf("%s: warnings %v, error %v: want it accepted with one note", k, warnings, err)
		}
	}
	if _, err := LoadProperties(IoTBenchmarkDefault(), strings.NewReader("DEVICE_NUMBR=3\n"), "typo.properties"); err == nil {
		t.Error("a key no release has was accepted")
	}
}

// DATA_CLIENT_NUMBER wins over CLIENT_NUMBER wherever it stands, as in
// IoT-benchmark, where CLIENT_NUMBER is only its fallback.
func TestDataClientNumberWins(t *testing.T) {
	for _, file := range []string{"DATA_CLIENT_NUMBER=7\nCLIENT_NUMBER=3\n", "CLIENT_NUMBER=3\nDATA_CLIENT_NUMBER=7\n"} {
		c := IoTBenchmarkDefault()
		if _, err := LoadProperties(c, strings.NewReader(file), "c.properties"); err != nil || c.Clients != 7 {
			t.Errorf("%q: clients %d, error %v; want 7", file, c.Clients, err)
		}
	}
	c := IoTBenchmarkDefault()
	if _, err := LoadProperties(c, strings.NewReader("CLIENT_NUMBER=3\n"), "c.properties"); err != nil || c.Clients != 3 {
		t.Errorf("CLIENT_NUMBER alone: clients %d, error %v", c.Clients, err)
	}
}

// Fractional weights, which IoT-benchmark reads as doubles, are the same
// proportions in whole numbers; bad fields are still refused.
func TestFractionalProportions(t *testing.T) {
	for _, c := range []struct {
		key, value string
		ok         bool
		want       string // the proportion as tsbench keeps it
	}{
		{"OPERATION_PROPORTION", "0.5:0.5", true, "1:1:0:0:0:0:0:0:0:0:0"},
		{"OPERATION_PROPORTION", "0.9:0.05:0.05", true, "18:1:1:0:0:0:0:0:0:0:0"},
		{"INSERT_DATATYPE_PROPORTION", "0.1:0.2:0.7:0:0:0", true, "1:2:7:0:0:0"},
		{"INSERT_DATATYPE_PROPORTION", "1:1:1:1:1:1", true, "1:1:1:1:1:1"},
		{"OPERATION_PROPORTION", "3", true, "3:0:0:0:0:0:0:0:0:0:0"},
		{"OPERATION_PROPORTION", "-0.5:1", false, ""},
		{"OPERATION_PROPORTION", "0.1234567:1", false, ""},
		{"OPERATION_PROPORTION", "1.:x", false, ""},
		{"OPERATION_PROPORTION", ".:1", false, ""},
	} {
		cfg := Default()
		_, err := LoadProperties(cfg, strings.NewReader(c.key+"="+c.value+"\n"), "p.properties")
		if (err == nil) != c.ok {
			t.Errorf("%s=%s: error %v, want accepted %v", c.key, c.value, err, c.ok)
			continue
		}
		if !c.ok {
			continue
		}
		got := joinInts(cfg.Proportion[:], ":")
		if c.key == "INSERT_DATATYPE_PROPORTION" {
			got = joinInts(cfg.TypeProportion[:], ":")
		}
		if got != c.want {
			t.Errorf("%s=%s: kept %s, want %s", c.key, c.value, got, c.want)
		}
	}
}

// IoT-benchmark's defaults of the keys tsbench runs only at their default
// are accepted in any spelling of the same value, and IoTDB's names of max
// and min are max and min.
func TestIoTBenchmarkValuesAccepted(t *testing.T) {
	c := Default()
	ws, err := loadProps(c, "REAL_INSERT_RATE=1\nTS_ALIGNMENT_RATIO=1.00\nIS_SENSOR_TS_ALIGNMENT=TRUE\nDEVICE_NUM_PER_WRITE=1\n"+
		"INTERVAL_BETWEEN_WRITE_BATCH=0\nIS_RECENT_QUERY=false\nENABLE_FIXED_QUERY=false\nRESULT_ROW_LIMIT=-1\n"+
		"ALIGN_BY_DEVICE=false\nIS_REGULAR_FREQUENCY=true\nIS_RECORD_CURRENT_REALLY_TIME=false\nQUERY_AGGREGATE_FUN=max_value\n")
	if err != nil || len(ws) != 0 {
		t.Fatalf("err %v, warnings %v", err, ws)
	}
	if got := c.QueryAggregate.String(); got != "max" {
		t.Errorf("max_value read as %s", got)
	}
}
