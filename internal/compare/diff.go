package compare

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/tsbench/tsbench/internal/report"
	"github.com/tsbench/tsbench/internal/summary"
)

// Difference is one setting in which a run differs from the baseline: a
// figure is only comparable when the reader knows what else changed.
type Difference struct {
	// Key is "target", "server version", an environment field ("host",
	// "cpu", ...) or a configuration key as stored ("batch_size_per_write").
	Key      string `json:"key"`
	Baseline string `json:"baseline"` // NotSet when the baseline lacks it
	Value    string `json:"value"`
}

// NotSet stands for a setting one of the runs does not record (an older
// run, or a key a newer tsbench added).
const NotSet = "(not set)"

// setting is one named field of the run outside its configuration map.
type setting struct {
	key string
	get func(s *summary.Summary) string
}

// runSettings are the fields of a summary that change what a run measures
// besides its configuration: where it ran, against what, with which tool.
// The run id, start time and measured seconds differ between any two runs
// and are shown with each run instead.
var runSettings = []setting{
	{"target", func(s *summary.Summary) string { return s.Target }},
	{"scenario", func(s *summary.Summary) string { return s.Scenario }},
	{"server version", func(s *summary.Summary) string { return s.Environment.ServerVersion }},
	{"host", func(s *summary.Summary) string { return s.Environment.Hostname }},
	{"os", func(s *summary.Summary) string { return s.Environment.OS }},
	{"kernel", func(s *summary.Summary) string { return s.Environment.Kernel }},
	{"cpu", func(s *summary.Summary) string { return s.Environment.CPUModel }},
	{"cores", func(s *summary.Summary) string { return intText(s.Environment.Cores) }},
	{"memory", func(s *summary.Summary) string { return bytesText(s.Environment.MemoryBytes) }},
	{"go version", func(s *summary.Summary) string { return s.Environment.GoVersion }},
	{"tsbench version", func(s *summary.Summary) string { return s.Tool.Version }},
}

// outputKeys are the configuration keys that say where a run's results
// and files went, or how it printed them: two runs that differ only there
// measured the same thing, so they are not listed as differences.
var outputKeys = map[string]bool{
	"json":               true, // --json FILE
	"data_dir":           true, // --data-dir: embedded databases and run results
	"csv_output":         true,
	"is_quiet_mode":      true,
	"log_print_interval": true,
}

// OutputKey reports whether a configuration key only says where or how a
// run's results went (see outputKeys).
func OutputKey(key string) bool { return outputKeys[key] }

// Diff lists what differs between the baseline a and the run b: the run
// settings above, then the configuration keys in name order. Only the
// differing ones are listed; never nil, so that JSON shows [] rather than
// null for runs set up alike.
func Diff(a, b *summary.Summary) []Difference {
	out := []Difference{}
	for _, st := range runSettings {
		if va, vb := st.get(a), st.get(b); va != vb {
			out = append(out, Difference{Key: st.key, Baseline: orNotSet(va), Value: orNotSet(vb)})
		}
	}
	for _, k := range configKeys(a.Config, b.Config) {
		if OutputKey(k) {
			continue
		}
		va, oka := a.Config[k]
		vb, okb := b.Config[k]
		ta, tb := valueText(va, oka), valueText(vb, okb)
		if ta != tb {
			out = append(out, Difference{Key: k, Baseline: ta, Value: tb})
		}
	}
	return out
}

// configKeys is the union of both maps' keys, sorted.
func configKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// valueText prints a configuration value as a user would set it: strings
// bare, numbers without exponent, anything nested (target options) as
// compact JSON, whose map keys are sorted and so compare stably.
func valueText(v any, ok bool) string {
	if !ok {
		return NotSet
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case nil:
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func orNotSet(s string) string {
	if s == "" {
		return NotSet
	}
	return s
}

func intText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func bytesText(n uint64) string {
	if n == 0 {
		return ""
	}
	return report.HumanBytes(int64(n)) // decimal units, as the console and the report
}
