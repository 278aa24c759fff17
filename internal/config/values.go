package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/output/spec"
	"github.com/tsbench/tsbench/internal/threshold"
)

// binding ties a key to a Config field: how to parse text into it, how to
// read it back, and what text is accepted. The builders below cover the
// common shapes so that the key table stays one line per key.
type binding struct {
	unit    string // shown by Print beside the value
	allowed string
	set     func(c *Config, v string) error
	get     func(c *Config) any
}

// maxCount caps counts (devices, clients, batch size...): larger values are
// certainly typos, and keeping counts in int32 range keeps products of two
// counts inside int64 everywhere downstream.
const maxCount = math.MaxInt32

type integer interface{ ~int | ~int64 }

// intField binds an integer field accepting [lo, hi]. A hi of maxCount or
// more is a sanity cap and is left out of the Allowed text.
func intField[T integer](field func(*Config) *T, lo, hi int64) binding {
	return binding{
		allowed: intText("an integer", lo, hi),
		set: func(c *Config, v string) error {
			n, err := parseInt(v, lo, hi)
			if err == nil {
				*field(c) = T(n)
			}
			return err
		},
		get: func(c *Config) any { return *field(c) },
	}
}

func parseInt(v string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	switch {
	case err != nil && strings.Contains(err.Error(), "out of range"):
		return 0, because("too large")
	case err != nil, n < lo:
		return 0, badValue()
	case n > hi && hi >= maxCount:
		return 0, because("too large (at most %d)", hi)
	case n > hi:
		return 0, badValue()
	}
	return n, nil
}

func intText(what string, lo, hi int64) string {
	switch {
	case lo == math.MinInt64 && hi >= maxCount:
		return what
	case hi >= maxCount:
		return fmt.Sprintf("%s >= %d", what, lo)
	default:
		return fmt.Sprintf("%s in [%d, %d]", what, lo, hi)
	}
}

// floatField binds a float64 field accepting [lo, hi], or (lo, hi] when
// loOpen. Infinite bounds mean no bound.
func floatField(field func(*Config) *float64, lo, hi float64, loOpen bool) binding {
	return binding{
		allowed: floatText(lo, hi, loOpen),
		set: func(c *Config, v string) error {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < lo || f > hi || (loOpen && f == lo) {
				return badValue()
			}
			*field(c) = f
			return nil
		},
		get: func(c *Config) any { return *field(c) },
	}
}

func floatText(lo, hi float64, loOpen bool) string {
	op := ">="
	if loOpen {
		op = ">"
	}
	switch {
	case math.IsInf(lo, -1) && math.IsInf(hi, 1):
		return "a number"
	case math.IsInf(hi, 1):
		return fmt.Sprintf("a number %s %g", op, lo)
	default:
		return fmt.Sprintf("a number in [%g, %g]", lo, hi)
	}
}

// parseBool reads a boolean setting: strconv.ParseBool's forms in any
// case (TRUE, False, 1), blanks around them ignored.
func parseBool(v string) (bool, error) {
	b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(v)))
	if err != nil {
		return false, badValue()
	}
	return b, nil
}

// parsedAs is the set of a binding whose text parse reads before apply
// takes the value: a parse error is the binding's error as it is, so each
// key's own checks start from a value already read.
func parsedAs[T any](parse func(string) (T, error), apply func(c *Config, v T) error) func(c *Config, v string) error {
	return func(c *Config, v string) error {
		x, err := parse(v)
		if err != nil {
			return err
		}
		return apply(c, x)
	}
}

func boolField(field func(*Config) *bool) binding {
	return binding{
		allowed: "true or false",
		set: parsedAs(parseBool, func(c *Config, b bool) error {
			*field(c) = b
			return nil
		}),
		get: func(c *Config) any { return *field(c) },
	}
}

// useSSL binds USE_SSL, IoT-benchmark's TLS switch: true turns TLS on
// (verifying the server), false leaves TLS as it is. A target that cannot
// connect over TLS then refuses the run, so that TLS asked for never
// becomes a plaintext connection carrying the password.
func useSSL() binding {
	return binding{
		allowed: "true or false",
		set: parsedAs(parseBool, func(c *Config, on bool) error {
			if on && c.TLS == "off" {
				c.TLS = "on"
			}
			return nil
		}),
		get: func(c *Config) any { return c.TLS != "off" },
	}
}

// textField binds a string field; values are trimmed like every other value.
func textField(field func(*Config) *string, nonEmpty bool) binding {
	b := binding{
		allowed: "any text",
		set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if nonEmpty && v == "" {
				return badValue()
			}
			*field(c) = v
			return nil
		},
		get: func(c *Config) any { return *field(c) },
	}
	if nonEmpty {
		b.allowed = "a non-empty string"
	}
	return b
}

// oneOf binds a string field to a closed set of values, matched without
// regard to case and stored in the spelling given here.
func oneOf(field func(*Config) *string, values ...string) binding {
	return binding{
		allowed: orList(values),
		set: func(c *Config, v string) error {
			for _, a := range values {
				if strings.EqualFold(strings.TrimSpace(v), a) {
					*field(c) = a
					return nil
				}
			}
			return badValue()
		},
		get: func(c *Config) any { return *field(c) },
	}
}

func orList(values []string) string {
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// unitDuration binds a duration written as an integer count of unit, which
// is how IoT-benchmark spells times (INIT_WAIT_TIME in ms,
// LOG_PRINT_INTERVAL in s).
func unitDuration(field func(*Config) *time.Duration, unit time.Duration, lo int64) binding {
	name := map[time.Duration]string{time.Millisecond: "milliseconds", time.Second: "seconds"}[unit]
	hi := int64(math.MaxInt64 / unit)
	return binding{
		unit:    map[time.Duration]string{time.Millisecond: "ms", time.Second: "s"}[unit],
		allowed: intText("an integer number of "+name, lo, maxCount),
		set: func(c *Config, v string) error {
			n, err := parseInt(v, lo, hi)
			if err == nil {
				*field(c) = time.Duration(n) * unit
			}
			return err
		},
		get: func(c *Config) any { return int64(*field(c) / unit) },
	}
}

// goDuration binds a duration written the Go way (30s, 5m, 1h30m); these
// are tsbench's own keys, where a unit in the value beats a unit in the name.
func goDuration(field func(*Config) *time.Duration) binding {
	return binding{
		allowed: "a duration >= 0 such as 30s, 5m or 1h30m",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || d < 0 {
				return badValue()
			}
			*field(c) = d
			return nil
		},
		get: func(c *Config) any { return (*field(c)).String() },
	}
}

// maxTime binds TEST_MAX_TIME (runFor false: a cap on LOOP, as in
// IoT-benchmark) and DURATION (runFor true: the run lasts this long unless
// LOOP is also given, as k6 --duration and pgbench -T). The last one set
// decides.
func maxTime(b binding, runFor bool) binding {
	set := b.set
	b.set = func(c *Config, v string) error {
		if err := set(c, v); err != nil {
			return err
		}
		c.RunFor = runFor
		return nil
	}
	return b
}

// parseList splits a separated list of integers in [lo, hi]; an empty
// string is an empty list.
func parseList(v, sep string, lo, hi int64) ([]int64, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	parts := strings.Split(v, sep)
	out := make([]int64, len(parts))
	for i, p := range parts {
		n, err := parseInt(p, lo, hi)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func joinInts[T integer](xs []T, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(int64(x), 10)
	}
	return strings.Join(parts, sep)
}

// thresholdList binds THRESHOLDS (and FIND_MAX's objectives, to field):
// expressions separated by ';', each checked when read, so that a typo
// fails before a long run rather than after it.
func thresholdList(field func(*Config) *[]string) binding {
	return binding{
		allowed: threshold.Allowed + "; several separated by ';'",
		set: func(c *Config, v string) error {
			var exprs []string
			for _, e := range strings.Split(v, ";") {
				if e = strings.TrimSpace(e); e == "" {
					continue
				}
				if _, err := threshold.Syntax(e); err != nil { // operations: checked once QUERY_FILE is read
					return because("%v", err)
				}
				exprs = append(exprs, e)
			}
			*field(c) = exprs
			return nil
		},
		get: func(c *Config) any { return strings.Join(*field(c), "; ") },
	}
}

// outputList binds OUTPUTS: receivers KIND=WHERE separated by ';', each
// checked when read (internal/output/spec).
func outputList() binding {
	return binding{
		allowed: spec.Allowed + "; several separated by ';'",
		set: func(c *Config, v string) error {
			specs, err := spec.ParseList(v, ";")
			if err != nil {
				return because("%v", err)
			}
			c.Outputs = nil
			for _, s := range specs {
				c.Outputs = append(c.Outputs, s.Kind+"="+s.Where)
			}
			return nil
		},
		get: func(c *Config) any {
			shown := make([]string, len(c.Outputs))
			for i, o := range c.Outputs {
				shown[i] = o
				if s, err := spec.Parse(o); err == nil {
					shown[i] = s.String() // a password in a URL is masked
				}
			}
			return strings.Join(shown, "; ")
		},
	}
}
