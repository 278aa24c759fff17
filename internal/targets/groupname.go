package targets

import "github.com/tsbench/tsbench/internal/ts"

// GroupName is the name of group g of s, or fallback where g is no index
// of s.Groups (a schema made without groups): what a target names the
// measurement, table, path or tag of such a group's devices.
func GroupName(s *ts.Schema, g int, fallback string) string {
	if g >= 0 && g < len(s.Groups) {
		return s.Groups[g]
	}
	return fallback
}
