// Package scenario holds named workloads: a scenario is a set of
// configuration values (the keys of IoT-benchmark's config.properties) with a
// description and, for published studies, where the figures come from. A new
// scenario is one new file that calls Register.
package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// Scenario is a named workload.
type Scenario struct {
	Name        string
	Description string
	Source      string            // the study or document it reproduces, if any
	Settings    map[string]string // configuration keys and values
	Published   []string          // published figures, as text, for the listing
}

var registry = map[string]*Scenario{}

// Register makes a scenario known; scenario files call it from init.
func Register(s *Scenario) {
	if _, dup := registry[s.Name]; dup {
		panic("scenario: registered twice: " + s.Name) // programming error
	}
	registry[s.Name] = s
}

// All returns every scenario sorted by name.
func All() []*Scenario {
	out := make([]*Scenario, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a scenario by name.
func Lookup(name string) (*Scenario, error) {
	if s, ok := registry[name]; ok {
		return s, nil
	}
	var names []string
	for _, s := range All() {
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("unknown scenario %q (available: %s)", name, strings.Join(names, ", "))
}

// Keys returns the scenario's setting keys in a stable order.
func (s *Scenario) Keys() []string {
	keys := make([]string, 0, len(s.Settings))
	for k := range s.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
