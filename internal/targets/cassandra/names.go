package cassandra

import (
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// A sensor is a column named after it, quoted (col: "..." with quotes
// doubled), which carries every UTF-8 name; only the key columns device,
// day and t, and a name that is not UTF-8 (CQL is), take a targets.NameMap
// form instead.
func columnRule() targets.NameRule {
	return targets.NameRule{Target: "cassandra", What: "column name (sensor)", Keep: func(r rune) bool { return r != utf8.RuneError },
		Reserved: []string{"device", "day", "t"}}
}

// columns maps the sensors of s: the map, and each sensor's quoted column.
func columns(s *ts.Schema) (*targets.NameMap, []string, error) {
	names := targets.SensorNames(s)
	m, err := columnRule().Map(names)
	if err != nil {
		return nil, nil, err
	}
	cols := make([]string, len(names))
	for i, n := range names {
		cols[i] = col(m.Server(n))
	}
	return m, cols, nil
}

// NameMapping implements targets.NameMapper: the sensors stored under
// another column name (nil before Setup or Bind).
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return targets.Mapping(map[string]*targets.NameMap{"sensor": t.names})
}

// checkDevices refuses, as bad input, a device name that is not UTF-8: the
// partition key's text column holds UTF-8 only, and the server would refuse
// the device's first write, after the schema was made.
func checkDevices(s *ts.Schema) error {
	for _, d := range s.Devices {
		if !utf8.ValidString(d.Name) {
			return badinput.Errorf("cassandra: device %q: the device column is CQL text, which holds UTF-8 only (rule: device names are UTF-8)", d.Name)
		}
	}
	return nil
}
