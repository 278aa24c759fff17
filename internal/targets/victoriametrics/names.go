package victoriametrics

import (
	"github.com/tsbench/tsbench/internal/targets"
)

// Names. VictoriaMetrics stores any label name and value as it is given:
// /api/v1/import reads them as JSON strings (jsonenc.AppendString), and
// the queries name them in MetricsQL string literals (promql.Quote and
// promql.MatchAny: MetricsQL reads PromQL's), which take any text escaped. Device, sensor and tag names are therefore stored
// unchanged, with one exception: a tag key that is one of the labels
// tsbench itself puts on every series (tagRule).

// ownLabels are the labels tsbench puts on every series (tsbench_part on
// the answers of an average across devices, see groupByExpr): a device's
// tag of the same key would overwrite one, so such a key is renamed.
var ownLabels = []string{"__name__", "db", "gen", "device", "group", groupByPart}

// tagRule renames a tag key that is one of ownLabels (compared without
// regard to case, so "Device" is renamed too) to "<key>_<hash>".
var tagRule = targets.NameRule{Target: "victoriametrics", What: "tag key", Reserved: ownLabels}
