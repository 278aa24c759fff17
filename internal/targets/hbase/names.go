package hbase

import (
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// maxRowKey is HBase's longest row key (Short.MAX_VALUE bytes).
const maxRowKey = 32767

// rowRule is how a device name starts its rows' keys. Sensors are indexes
// in the qualifiers, so only device names reach the server, as bytes: any
// name is carried, but one holding 0x00 (which ends the name in a key: the
// rows of "a\x00b" would lie in the range of "a"'s) or too long for a row
// key with its 9 bytes of bucket takes a targets.NameMap form instead.
var rowRule = targets.NameRule{Target: "hbase", What: "device (row key prefix)",
	Keep: func(r rune) bool { return r != 0 }, MaxBytes: maxRowKey - 9}

// rowNames maps the devices of s.
func rowNames(s *ts.Schema) (*targets.NameMap, error) {
	return rowRule.Map(targets.DeviceNames(s))
}

// rowName is device's name in its row keys.
func (t *Target) rowName(device string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rows.Server(device)
}

// NameMapping implements targets.NameMapper: the devices whose row keys
// start with another name (nil before Setup or Bind).
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return targets.Mapping(map[string]*targets.NameMap{"device": t.rows})
}
