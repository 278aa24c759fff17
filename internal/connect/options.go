package connect

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"
)

// CheckTargetOptions refuses target options the chosen target does not read,
// and values it would refuse only once connected. skip names options a
// scenario sets for every target (hakom-compression's compression), which
// targets without the switch leave alone by design.
func CheckTargetOptions(d *targets.Driver, opts map[string]string, skip map[string]bool) error {
	known := d.Options
	var names []string
	for _, o := range known {
		names = append(names, o.Name)
	}
	for _, k := range sortedOptionNames(opts) {
		if skip[k] {
			continue
		}
		v := opts[k]
		o := findOption(known, k)
		if o == nil {
			return &config.Error{Key: "target." + k, Value: redactOption(k, v), Reason: unknownOptionReason(d.Name, k, names)}
		}
		if err := validateOption(o, v); err != nil {
			return &config.Error{Key: "target." + k, Value: v, Reason: fmt.Sprintf("%s: %v", d.Name, err)}
		}
	}
	return nil
}

func unknownOptionReason(targetName, k string, names []string) string {
	if len(names) == 0 {
		return fmt.Sprintf("target %s takes no target options", targetName)
	}
	msg := fmt.Sprintf("target %s has no option %s", targetName, k)
	if s := config.Closest(k, names); s != "" {
		msg += fmt.Sprintf(" (did you mean target.%s?)", s)
	}
	return msg + "; its options: " + strings.Join(names, ", ")
}

func validateOption(o *targets.Option, v string) error {
	if v == "" {
		return nil // the target's default
	}
	if o.Check != nil {
		return o.Check(v)
	}
	for _, a := range o.Values {
		if v == a {
			return nil
		}
	}
	if o.Values == nil {
		return nil
	}
	msg := "allowed: " + strings.Join(o.Values, ", ")
	if s := config.Closest(v, o.Values); s != "" {
		msg = fmt.Sprintf("did you mean %s? %s", s, msg)
	}
	return fmt.Errorf("%s", msg)
}

func findOption(known []targets.Option, name string) *targets.Option {
	for i := range known {
		if known[i].Name == name {
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

// ScenarioTargetOptions are the target options a scenario's settings set.
func ScenarioTargetOptions(layers []string) map[string]bool {
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
