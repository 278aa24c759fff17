package htmlreport

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/compare"
	"github.com/tsbench/tsbench/internal/report"
)

// The page prints numbers as the console does, so that a figure read in the
// report can be searched for in a terminal log: thousands grouped, bytes in
// decimal units (report.HumanBytes: MB, not MiB), and the comparison's
// figures exactly as 'tsbench compare' prints them.

// f2 is the matrices' two-decimal format, with thousands grouped.
func f2(v float64) string { return report.GroupThousands(fmt.Sprintf("%.2f", v)) }
func f3(v float64) string { return report.GroupThousands(fmt.Sprintf("%.3f", v)) }

// count formats an integer count with thousands grouped.
func count(v int64) string { return report.GroupThousands(strconv.FormatInt(v, 10)) }

// ratioText is 'tsbench compare's B/A format; "—" when A is 0.
func ratioText(r float64) string {
	if r == 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return "—"
	}
	return fmt.Sprintf("%.3f", r)
}

// ratioOf is b/a, 0 (printed "—") when a is 0.
func ratioOf(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	return b / a
}

// pText is 'tsbench compare's p-value column: the adjusted p-value, or
// what stands for it when the figure was not tested.
func pText(m compare.Metric) string {
	switch {
	case m.PValue != nil && *m.PValue < 0.001:
		return "<0.001"
	case m.PValue != nil:
		return fmt.Sprintf("%.3f", *m.PValue)
	case m.Verdict == compare.VerdictTooShort:
		return compare.VerdictTooShort
	}
	return "—"
}

func bytesText(n int64) string { return report.HumanBytes(n) }

func timeText(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// identifierKeys end the names of configuration keys whose numbers are
// names, not quantities: a port or a seed reads wrong as "6,667".
var identifierKeys = []string{"port", "seed", "_index"}

// configValue formats a configuration value for people. Summaries read back
// from JSON hold float64s, maps and slices, which fmt.Sprint would print as
// "1e+06", "map[]" and "[a b]".
func configValue(key string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return configNumber(key, x)
	case float32:
		return configNumber(key, float64(x))
	case int:
		return configNumber(key, float64(x))
	case int64:
		return configNumber(key, float64(x))
	case map[string]any:
		return mapValue(key, x)
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return mapValue(key, m)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = configValue(key, e)
		}
		return strings.Join(parts, ", ")
	case []string:
		return strings.Join(x, ", ")
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

func configNumber(key string, v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	for _, suffix := range identifierKeys {
		if strings.HasSuffix(key, suffix) {
			return s
		}
	}
	return report.GroupThousands(s)
}

// mapValue prints a map as "k=v, k=v" in key order; empty, as nothing.
func mapValue(key string, m map[string]any) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + configValue(k, m[k])
	}
	return strings.Join(parts, ", ")
}
