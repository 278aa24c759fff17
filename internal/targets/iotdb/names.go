package iotdb

import (
	"maps"
	"strings"
	"unicode"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// IoTDB's paths are nodes joined by dots. A node in backticks (a backtick
// inside doubled) may hold any character, dots, spaces and quotes
// included, in SQL and in the session API alike (createAlignedTimeseries,
// tablets), so every node tsbench builds is quoted (quoteNode) and a
// device name stays one node. What IoTDB refuses even quoted (seen on
// 2.0.1) gets a targets.NameMap form: the names time and timestamp, in any
// case, and tabs and line ends ("unsupported character"; every control
// character is mapped). Names are compared with regard to case.
var nodeRule = targets.NameRule{Target: "iotdb", Keep: func(r rune) bool { return !unicode.IsControl(r) },
	Reserved: []string{"time", "timestamp"}}

// quoteNode is name as a path node in backticks, a backtick inside
// doubled.
func quoteNode(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// splitPath is the nodes of a path as IoTDB writes it (a node in
// backticks where it needs them, a backtick inside doubled), unquoted.
func splitPath(p string) []string {
	var nodes []string
	var b strings.Builder
	quoted := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '`' && quoted && i+1 < len(p) && p[i+1] == '`':
			b.WriteByte('`')
			i++
		case c == '`':
			quoted = !quoted
		case c == '.' && !quoted:
			nodes = append(nodes, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(nodes, b.String())
}

// joinPath is the path of nodes as tsbench writes it: root as it is, every
// other node quoted.
func joinPath(nodes []string) string {
	var b strings.Builder
	for i, n := range nodes {
		if i > 0 {
			b.WriteByte('.')
		}
		if i == 0 && n == "root" {
			b.WriteString(n)
		} else {
			b.WriteString(quoteNode(n))
		}
	}
	return b.String()
}

// ownPath is a path IoTDB answered with (a device of ALIGN BY DEVICE, a
// series of SELECT LAST) as tsbench writes it, to look it up.
func ownPath(p string) string { return joinPath(splitPath(p)) }

// names are one schema's server names: a node per group and device, a
// measurement per sensor.
type names struct {
	sensors []string // per sensor position: its measurement, unquoted
	devices []string // per device position: its node, unquoted
	groups  []string // per group: its node, unquoted
	changed map[string]string
}

// mapping is the changed names' server forms, as targets.NameMapper has
// them: none before Setup or Bind (n nil).
func (n *names) mapping() map[string]string {
	if n == nil {
		return nil
	}
	return maps.Clone(n.changed)
}

// mapNames maps the names of s; an error is bad input naming a name IoTDB
// cannot carry (an empty one).
func mapNames(s *ts.Schema) (*names, error) {
	n := &names{changed: map[string]string{}}
	var err error
	if n.sensors, err = n.mapKind("sensor", "measurement", targets.SensorNames(s)); err != nil {
		return nil, err
	}
	if n.devices, err = n.mapKind("device", "device node", targets.DeviceNames(s)); err != nil {
		return nil, err
	}
	if n.groups, err = n.mapKind("group", "group node", s.Groups); err != nil {
		return nil, err
	}
	return n, nil
}

// mapKind maps one kind of name by nodeRule, noting the changed ones.
func (n *names) mapKind(kind, what string, orig []string) ([]string, error) {
	rule := nodeRule
	rule.What = what
	m, err := rule.Map(orig)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(orig))
	for i, o := range orig {
		out[i] = m.Server(o)
	}
	for o, srv := range m.Changed() {
		n.changed[kind+" "+o] = srv
	}
	return out, nil
}

// NameMapping implements targets.NameMapper: the sensors, devices and
// groups stored under another name than the schema's.
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.names.mapping()
}
