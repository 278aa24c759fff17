package config

import "fmt"

// dependents are keys that tune a capability and mean nothing without it:
// each is refused when set while the key it depends on is off, rather than
// ignored (a user who tuned a crash they never asked for is misled about
// what ran).
var dependents = []struct {
	keys  []string
	needs string
	on    func(*Config) bool
}{
	{[]string{"FIND_MAX_START", "FIND_MAX_SETTLE", "FIND_MAX_MEASURE", "FIND_MAX_MIN_OPS", "FIND_MAX_MAX_MEASURE",
		"FIND_MAX_PRECISION", "FIND_MAX_STEPS"}, "FIND_MAX (--find-max)", func(c *Config) bool { return len(c.FindMax) > 0 }},
	{[]string{"CRASH_RESTART", "CRASH_DOWN", "CRASH_COMMAND", "CRASH_PAUSE", "CRASH_PARTITION", "CRASH_NODE"}, "CRASH_AT (--crash)", func(c *Config) bool { return c.CrashAt > 0 }},
	{[]string{"FRESHNESS_RATE", "FRESHNESS_POLL", "FRESHNESS_WAIT"}, "FRESHNESS (--freshness)", func(c *Config) bool { return c.Freshness }},
}

// checkDependents refuses a key of dependents set without its capability,
// and a find-max step's longest measure shorter than its usual one.
func checkDependents(c *Config) error {
	for _, d := range dependents {
		if d.on(c) {
			continue
		}
		for _, name := range d.keys {
			if v, ok := c.Changed(name); ok {
				return conflict(c, name, v, "only with "+d.needs, fmt.Sprintf("%s tunes what %s turns on, which this run does not", name, d.needs))
			}
		}
	}
	if len(c.FindMax) > 0 && c.FindMaxMaxMeasure < c.FindMaxMeasure {
		return conflict(c, "FIND_MAX_MAX_MEASURE", c.FindMaxMaxMeasure, fmt.Sprintf("at least FIND_MAX_MEASURE (%v)", c.FindMaxMeasure),
			"a step is never measured less than FIND_MAX_MEASURE")
	}
	return nil
}

// Changed reports whether key was set to other than its default, and its
// value. A stored configuration lists every key: its defaults are no
// request.
func (c *Config) Changed(key string) (string, bool) {
	k := lookup(key)
	if k == nil || c.origin[k.Name] == "" {
		return "", false
	}
	v := fmt.Sprint(k.get(c))
	return v, v != fmt.Sprint(k.get(Default()))
}
