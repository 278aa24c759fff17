package config

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// This file holds the bindings that need more than a range check.

const workModeDefault = "testWithDefaultPath"

// unsupportedWorkModes are IoT-benchmark's other modes: named so that the
// error says "not supported" instead of "unknown value".
var unsupportedWorkModes = []string{"generateDataMode", "verificationWriteMode", "verificationQueryMode", "serverMODE"}

func workMode() binding {
	return binding{
		allowed: workModeDefault,
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if strings.EqualFold(v, workModeDefault) {
				c.WorkMode = workModeDefault
				return nil
			}
			for _, m := range unsupportedWorkModes {
				if strings.EqualFold(v, m) {
					return because("not supported: tsbench runs only the synthetic read/write workload")
				}
			}
			return badValue()
		},
		get: func(c *Config) any { return c.WorkMode },
	}
}

func precision() binding {
	return binding{
		allowed: "ms",
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			switch strings.ToLower(v) {
			case "ms":
				c.Precision = "ms"
				return nil
			case "us", "ns":
				return because("not supported: tsbench generates and writes millisecond timestamps; set TIMESTAMP_PRECISION = ms")
			}
			return badValue()
		},
		get: func(c *Config) any { return c.Precision },
	}
}

// timeLayout prints START_TIME with its offset and only as many fraction
// digits as it has, so that printing and reading back is lossless.
const timeLayout = "2006-01-02T15:04:05.999Z07:00"

// zoneless layouts are read as UTC: a time without a zone has to mean one
// fixed instant, not one that depends on the machine running the benchmark.
var zoneless = []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"}

func startTime() binding {
	return binding{
		allowed: "an RFC 3339 time such as 2022-01-01T00:00:00+08:00, " +
			"a date-time without zone (read as UTC), or epoch milliseconds",
		set: func(c *Config, v string) error {
			t, ok := parseTime(strings.TrimSpace(v))
			if !ok {
				return badValue()
			}
			if t.Nanosecond()%int(time.Millisecond) != 0 {
				return because("has a fraction of a millisecond; timestamps are whole milliseconds")
			}
			c.StartTime = t
			c.StartTimeZoneless = zonelessTime(strings.TrimSpace(v))
			return nil
		},
		get: func(c *Config) any { return c.StartTime.Format(timeLayout) },
	}
}

// dataTypes binds DATA_TYPES: sensor=TYPE pairs.
func dataTypes() binding {
	return binding{
		allowed: "SENSOR=TYPE pairs separated by commas, TYPE one of BOOLEAN, INT32, INT64, FLOAT, DOUBLE, TEXT",
		set: func(c *Config, v string) error {
			var out map[string]ts.DataType // nil when none: what Default has
			for _, pair := range strings.Split(v, ",") {
				pair = strings.TrimSpace(pair)
				if pair == "" {
					continue
				}
				name, typ, ok := strings.Cut(pair, "=")
				name = strings.TrimSpace(name)
				if !ok || name == "" {
					return because("%q is not SENSOR=TYPE", pair)
				}
				t, err := ts.ParseDataType(strings.TrimSpace(typ))
				if err != nil {
					return because("%s: %v", name, err)
				}
				if out == nil {
					out = map[string]ts.DataType{}
				}
				out[name] = t
			}
			c.DataTypes = out
			return nil
		},
		get: func(c *Config) any {
			var parts []string
			for _, k := range sortedKeys(c.DataTypes) {
				parts = append(parts, k+"="+c.DataTypes[k].String())
			}
			return strings.Join(parts, ",")
		},
	}
}

// startAt binds START_AT: empty (the store barrier decides) or a time.
func startAt() binding {
	return binding{
		allowed: "empty, or an RFC 3339 time such as 2026-11-23T10:00:00Z (or epoch milliseconds)",
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if v == "" {
				c.StartAt = time.Time{}
				return nil
			}
			t, ok := parseTime(v)
			if !ok {
				return badValue()
			}
			c.StartAt = t
			return nil
		},
		get: func(c *Config) any {
			if c.StartAt.IsZero() {
				return ""
			}
			return c.StartAt.Format(time.RFC3339Nano)
		},
	}
}

func parseTime(v string) (time.Time, bool) {
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.UnixMilli(ms).UTC(), true
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05Z07:00"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	for _, layout := range zoneless {
		if t, err := time.ParseInLocation(layout, v, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// zonelessTime reports whether v is a date-time without a zone (read as
// UTC).
func zonelessTime(v string) bool {
	for _, layout := range zoneless {
		if _, err := time.Parse(layout, v); err == nil {
			return true
		}
	}
	return false
}

// opMinInterval keeps -1 as written (OpMinIntervalStep) and lets Resolve
// turn it into POINT_STEP, because POINT_STEP may come later in the file.
func opMinInterval() binding {
	return binding{
		allowed: "an integer number of milliseconds >= 0, or -1 for POINT_STEP",
		set: func(c *Config, v string) error {
			n, err := parseInt(v, -1, maxCount)
			if err != nil {
				return err
			}
			c.OpMinIntervalStep = n == -1
			c.OpMinInterval = 0
			if n >= 0 {
				c.OpMinInterval = time.Duration(n) * time.Millisecond
			}
			return nil
		},
		get: func(c *Config) any {
			if c.OpMinIntervalStep {
				return int64(-1)
			}
			return c.OpMinInterval.Milliseconds()
		},
	}
}

// outOfOrderMode takes the names and IoT-benchmark's older numeric codes.
func outOfOrderMode() binding {
	return binding{
		allowed: "POISSON or BATCH (or 0 = POISSON, 1 = BATCH)",
		set: func(c *Config, v string) error {
			switch strings.ToUpper(strings.TrimSpace(v)) {
			case "POISSON", "0":
				c.OutOfOrderMode = OutOfOrderPoisson
			case "BATCH", "1":
				c.OutOfOrderMode = OutOfOrderBatch
			default:
				return badValue()
			}
			return nil
		},
		get: func(c *Config) any { return string(c.OutOfOrderMode) },
	}
}

func aggregate() binding {
	return binding{
		allowed: "count, sum, avg, min or max (IoTDB's names max_value and min_value too)",
		set: func(c *Config, v string) error {
			v = strings.ToLower(strings.TrimSpace(v))
			switch v {
			case "max_value", "min_value": // IoTDB's names of max and min
				v = strings.TrimSuffix(v, "_value")
			case "first_value", "last_value", "max_time", "min_time", "extreme", "mode", "stddev", "variance":
				return because("IoTDB's %s is not supported: use count, sum, avg, min (min_value) or max (max_value)", v)
			}
			a, err := ts.ParseAggregate(v)
			if err != nil {
				return badValue()
			}
			c.QueryAggregate = a
			return nil
		},
		get: func(c *Config) any { return c.QueryAggregate.String() },
	}
}

// tagCardinality is one count per tag; Resolve checks there is one per tag.
func tagCardinality() binding {
	return binding{
		allowed: "a comma-separated list of integers >= 1, one per tag (empty: 10 each)",
		set: func(c *Config, v string) error {
			xs, err := parseList(v, ",", 1, maxCount)
			if err != nil {
				return err
			}
			c.TagCardinality = nil
			for _, x := range xs {
				c.TagCardinality = append(c.TagCardinality, int(x))
			}
			return nil
		},
		get: func(c *Config) any { return joinInts(c.TagCardinality, ",") },
	}
}

// targetOptions merges KEY=VALUE pairs; YAML gives a mapping and --set
// gives target.KEY=VALUE, both of which end in setTargetOption.
func targetOptions() binding {
	return binding{
		allowed: "comma-separated KEY=VALUE pairs (YAML: a mapping; flags: target.KEY=VALUE)",
		set: func(c *Config, v string) error {
			if strings.TrimSpace(v) == "" {
				return nil
			}
			for _, pair := range strings.Split(v, ",") {
				k, val, ok := strings.Cut(pair, "=")
				if !ok || strings.TrimSpace(k) == "" {
					return badValue()
				}
				setTargetOption(c, strings.TrimSpace(k), strings.TrimSpace(val))
			}
			return nil
		},
		get: func(c *Config) any { return redactedOptions(c.TargetOptions) },
	}
}

func setTargetOption(c *Config, k, v string) {
	if c.TargetOptions == nil {
		c.TargetOptions = map[string]string{}
	}
	c.TargetOptions[k] = v
}

// redactedOptions copies target options with secret-looking values hidden:
// a target may take a password or token this way.
func redactedOptions(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = redact(k, v)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// noCheck binds NO_CHECK, the --no-check flag as a key: true checks no
// query answers (QUERY_CHECKS = 0). false leaves QUERY_CHECKS alone, so
// that no_check: false in a file never undoes a query_checks it also sets.
func noCheck() binding {
	return binding{
		allowed: "true or false",
		set: func(c *Config, v string) error {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "true":
				c.QueryChecks = 0
			case "false":
			default:
				return because("want true or false")
			}
			return nil
		},
		get: func(c *Config) any { return c.QueryChecks == 0 },
	}
}

// delimiterField binds DATA_DELIMITER: a separator's name, or the
// character itself (a tab or a space would be trimmed away as a value:
// their names say them), stored by name.
func delimiterField(field func(*Config) *string) binding {
	names := []string{"auto", "comma", "semicolon", "tab", "pipe", "space"}
	chars := map[string]string{",": "comma", ";": "semicolon", "|": "pipe", `\t`: "tab"}
	return binding{
		allowed: orList(names) + " (or the character: , ; |)",
		set: func(c *Config, v string) error {
			t := strings.ToLower(strings.TrimSpace(v))
			if name, ok := chars[t]; ok {
				t = name
			}
			if t == "" {
				t = "auto"
			}
			if !slices.Contains(names, t) {
				return badValue()
			}
			*field(c) = t
			return nil
		},
		get: func(c *Config) any { return *field(c) },
	}
}
