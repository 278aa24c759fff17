package cli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/target"
)

// targetOption is one target-specific setting (target.NAME=VALUE, YAML
// target_options) that a target reads from target.Options.Extra.
type targetOption struct {
	name   string
	values []string // the accepted values; nil = free-form (see check)
	check  func(v string) error
}

// targetOptionTable lists, per registered target, the options its package
// reads from Options.Extra, so that a misspelt option (target.wrte_path)
// stops the run before it starts instead of being ignored. It mirrors the
// target packages (grep 'Extra\[' internal/target) and belongs there in
// the end; TestTargetOptionTableCoversEveryTarget keeps it complete: a new
// target needs an entry (nil when it takes no options).
var targetOptionTable = map[string][]targetOption{
	"cassandra":       {{name: "compression", values: []string{"on", "off"}}},
	"clickhouse":      nil,
	"duckdb":          nil,
	"hbase":           nil,
	"influxdb":        {{name: "gzip", values: []string{"true", "false"}}},
	"iotdb":           {{name: "compression", values: []string{"on", "off"}}},
	"kairosdb":        nil,
	"mysql":           {{name: "write_path", values: []string{"insert", "load"}}},
	"null":            nil,
	"opentsdb":        nil,
	"postgres":        postgresOptions,
	"questdb":         {{name: "http_port", check: portNumber}},
	"sqlite":          nil,
	"timescaledb":     postgresOptions,
	"victoriametrics": nil,
}

var postgresOptions = []targetOption{
	{name: "write_path", values: []string{"insert", "copy"}},
	{name: "layout", values: []string{"narrow", "wide"}},
}

func portNumber(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("must be a port number in [1, 65535]")
	}
	return nil
}

// checkTargetOptions refuses target options the chosen target does not read,
// and values it would refuse only once connected. skip names options a
// scenario sets for every target (hakom-compression's compression), which
// targets without the switch leave alone by design.
func checkTargetOptions(d *target.Driver, opts map[string]string, skip map[string]bool) error {
	known, listed := targetOptionTable[d.Name]
	var names []string
	for _, o := range known {
		names = append(names, o.name)
	}
	for _, k := range sortedOptionNames(opts) {
		if skip[k] {
			continue
		}
		v := opts[k]
		o := findOption(known, k)
		if o == nil {
			return &config.Error{Key: "target." + k, Value: redactOption(k, v), Reason: unknownOptionReason(d.Name, k, names, listed)}
		}
		if err := o.validate(v); err != nil {
			return &config.Error{Key: "target." + k, Value: v, Reason: fmt.Sprintf("%s: %v", d.Name, err)}
		}
	}
	return nil
}

func unknownOptionReason(targetName, k string, names []string, listed bool) string {
	switch {
	case !listed || len(names) == 0:
		return fmt.Sprintf("target %s takes no target options", targetName)
	}
	msg := fmt.Sprintf("target %s has no option %s", targetName, k)
	if s := config.Closest(k, names); s != "" {
		msg += fmt.Sprintf(" (did you mean target.%s?)", s)
	}
	return msg + "; its options: " + strings.Join(names, ", ")
}

func (o *targetOption) validate(v string) error {
	if v == "" {
		return nil // the target's default
	}
	if o.check != nil {
		return o.check(v)
	}
	for _, a := range o.values {
		if v == a {
			return nil
		}
	}
	if o.values == nil {
		return nil
	}
	msg := "allowed: " + strings.Join(o.values, ", ")
	if s := config.Closest(v, o.values); s != "" {
		msg = fmt.Sprintf("did you mean %s? %s", s, msg)
	}
	return fmt.Errorf("%s", msg)
}

func findOption(known []targetOption, name string) *targetOption {
	for i := range known {
		if known[i].name == name {
			return &known[i]
		}
	}
	return nil
}

func sortedOptionNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// redactOption hides the value of an option whose name looks secret.
func redactOption(k, v string) string {
	l := strings.ToLower(k)
	if strings.Contains(l, "pass") || strings.Contains(l, "token") || strings.Contains(l, "secret") || strings.Contains(l, "key") {
		return "***"
	}
	return v
}

// scenarioTargetOptions are the target options a scenario's settings set.
func scenarioTargetOptions(layers []string) map[string]bool {
	out := map[string]bool{}
	for _, k := range layers {
		l := strings.ToLower(strings.TrimSpace(k))
		for _, p := range []string{"target.", "target_options."} {
			if name, ok := strings.CutPrefix(l, p); ok && name != "" {
				out[strings.TrimSpace(k)[len(p):]] = true
			}
		}
	}
	return out
}
