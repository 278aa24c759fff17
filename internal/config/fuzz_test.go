package config

import (
	"io"
	"strings"
	"testing"
	"time"
)

// The readers must never panic, whatever the input: each fuzz target loads,
// resolves and prints. `go test` runs the seeds; `go test -fuzz` explores.

func FuzzLoadProperties(f *testing.F) {
	fuzzLoader(f, LoadProperties,
		"DEVICE_NUMBER=10\nSENSOR_NUMBER=3\n",
		"REMARK=a\\\n  b\\u00e9\\",
		"INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0:0:0:0:0:0\nOPERATION_PROPORTION=0:1:1:1:1:1:1:1:1:1:1:0:0\nOP_INTERVAL=-1",
		"target.x=1\nSTART_TIME=1667059200000\nTAG_NUMBER=2\nTAG_VALUE_CARDINALITY=3,4")
}

func FuzzLoadYAML(f *testing.F) {
	fuzzLoader(f, LoadYAML,
		"device_number: 10\ntarget_options: {a: b}\n",
		"operation_proportion: [1, 2]\nx: &a [1]\ny: *a\n",
		"- 1\n",
		"tag_value_cardinality: [1, [2]]\n")
}

// fuzzLoader fuzzes a configuration file reader from the seeds: what it
// refuses is a *Error, what it takes goes through exercise.
func fuzzLoader(f *testing.F, load func(*Config, io.Reader, string) ([]string, error), seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := Default()
		if _, err := load(c, strings.NewReader(text), "fuzz"); err != nil {
			asError(t, err)
			return
		}
		exercise(t, c)
	})
}

func FuzzSet(f *testing.F) {
	f.Add("sensor_number", "1000000")
	f.Add("insert_datatype_proportion", "1000000000:1000000000:1000000000:1000000000:1000000000:1000000000")
	f.Add("start_time", "-9223372036854775808")
	f.Add("query_lower_value", "-1e308")
	f.Fuzz(func(t *testing.T, key, value string) {
		c := Default()
		if err := Set(c, key, value); err != nil {
			asError(t, err)
			return
		}
		exercise(t, c)
	})
}

// FuzzSetArg feeds one whole --set argument, as the command line gives it:
// the KEY=VALUE split, then Set. A refusal is a *Error that names the key,
// or says the argument is not KEY=VALUE.
func FuzzSetArg(f *testing.F) {
	for _, s := range []string{"DEVICE_NUMBER=10", " device-number = 10 ", "=5", "DEVICE_NUMBER", "target.host=a=b",
		"THRESHOLDS=INGESTION.p99<50ms;errors==0", "WARMUP=-5s", "no_such_key=1", "TAG_VALUE_CARDINALITY=3,,4", "\x00=\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		c := Default()
		if _, err := SetArgWarn(c, arg); err != nil {
			e := asError(t, err)
			if e.Key == "" && !strings.Contains(err.Error(), "--set") {
				t.Fatalf("--set %q: the message names neither the key nor --set: %v", arg, err)
			}
			return
		}
		exercise(t, c)
	})
}

// exercise runs what follows loading: Resolve, SensorTypes, Print, Map.
func exercise(t *testing.T, c *Config) {
	if err := Resolve(c); err != nil {
		asError(t, err)
		return
	}
	if got := SensorTypes(c.TypeProportion, c.Sensors); len(got) != c.Sensors {
		t.Fatalf("SensorTypes gave %d types for %d sensors", len(got), c.Sensors)
	}
	if err := Print(c, io.Discard); err != nil {
		t.Fatalf("Print: %v", err)
	}
	Map(c)
}

// durationKeys are the keys whose values are durations, in each of the
// forms the configuration takes: Go durations (30s, 1h30m) and integers of
// a unit (milliseconds).
var durationKeys = []string{"DURATION", "WARMUP", "TEST_MAX_TIME", "WRITE_OPERATION_TIMEOUT_MS",
	"READ_OPERATION_TIMEOUT_MS", "OP_MIN_INTERVAL", "RETRY_BACKOFF_MS", "RETRY_MAX_BACKOFF_MS", "INIT_WAIT_TIME"}

// FuzzDurationValues gives every duration key the same arbitrary text: it
// is refused with a message naming the key, or gives a duration that is
// not negative (OP_MIN_INTERVAL's -1, "POINT_STEP", resolves to one).
func FuzzDurationValues(f *testing.F) {
	for _, s := range []string{"30s", "1h30m", "-1", "1000", "0", "9223372036854775807", "1e3", " 5m ", "-5s", "1.5h", "ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, k := range durationKeys {
			c := Default()
			if err := Set(c, k, v); err != nil {
				asError(t, err)
				if !strings.Contains(err.Error(), k) {
					t.Fatalf("%s = %q: the message does not name the key: %v", k, v, err)
				}
				continue
			}
			if err := Resolve(c); err != nil {
				asError(t, err)
				continue
			}
			for _, d := range []time.Duration{c.MaxTime, c.Warmup, c.WriteTimeout, c.ReadTimeout, c.OpMinInterval,
				c.RetryBackoff, c.RetryMaxBackoff, c.InitWait} {
				if d < 0 {
					t.Fatalf("%s = %q gave a negative duration %v", k, v, d)
				}
			}
		}
	})
}
