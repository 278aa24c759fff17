package victoriametrics

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// Names. VictoriaMetrics stores any label name and value as it is given:
// /api/v1/import reads them as JSON strings (jsonenc.AppendString), and
// the queries name them in MetricsQL string literals (quote), which take
// any text escaped. Device, sensor and tag names are therefore stored
// unchanged, with one exception: a tag key that is one of the labels
// tsbench itself puts on every series (tagRule).

// quote renders s as a MetricsQL string literal. MetricsQL and PromQL read
// a double-quoted literal as a Go string literal (strconv.Unquote), so Go's
// quoting escapes exactly what they need: quotes, backslashes, control
// characters and invalid UTF-8.
func quote(s string) string { return strconv.Quote(s) }

// matchAny is the string literal of a regular expression matching exactly
// the given names (VictoriaMetrics anchors label regexps at both ends). The
// regexp's escapes (regexp.QuoteMeta's `\.`) are text inside the literal,
// so quote doubles their backslashes: a bare `\.` in a literal is an
// invalid escape, which the server refuses with a 422.
func matchAny(names []string) string {
	alts := make([]string, len(names))
	for i, n := range names {
		alts[i] = regexp.QuoteMeta(n)
	}
	return quote(strings.Join(alts, "|"))
}

// ownLabels are the labels tsbench puts on every series (tsbench_part on
// the answers of an average across devices, see groupByExpr): a device's
// tag of the same key would overwrite one, so such a key is renamed.
var ownLabels = []string{"__name__", "db", "gen", "device", "group", groupByPart}

// tagRule renames a tag key that is one of ownLabels (compared without
// regard to case, so "Device" is renamed too) to "<key>_<hash>".
var tagRule = targets.NameRule{Target: "victoriametrics", What: "tag key", Reserved: ownLabels}
