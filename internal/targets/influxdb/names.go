package influxdb

import (
	"strings"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Line protocol escapes ',', '=' and ' ' in names with a backslash, but
// InfluxDB reads a backslash itself differently by version: 1.x keeps
// "\\" as two backslashes and cannot end a tag value with one, 2.x reads
// "\\" as one. A backslash before an ordinary character is read as
// written by both; a name with one before a special character ('"' and
// '\' included), or at its end, cannot be written so that every version
// stores it as it is, and takes a targets.NameMap form instead — as does a
// name with a control character (a newline ends the line) or a byte that
// is not UTF-8. InfluxQL quotes every name (ident, literal), so reserved
// words and any other character need nothing.

// lpSpecial are the characters after which a backslash is not read as
// written.
const lpSpecial = ",= \"\\"

// lpChar tells whether line protocol carries r anywhere in a name (a
// backslash only where lpTakes says).
func lpChar(r rune) bool { return r >= 0x20 && r != 0x7f && r != '\\' && r != utf8.RuneError }

// lpTakes tells whether line protocol carries name as it is.
func lpTakes(name string) bool {
	for i, r := range name {
		if r == '\\' {
			if i+1 == len(name) || strings.IndexByte(lpSpecial, name[i+1]) >= 0 {
				return false
			}
			continue
		}
		if !lpChar(r) {
			return false
		}
	}
	return true
}

// measurementChar is lpChar without '#': a line that starts with one is a
// comment, so a measurement cannot (the mapped form has none anywhere).
func measurementChar(r rune) bool { return r != '#' && lpChar(r) }

// rule is the NameRule of one kind of name; reserved are the keys the
// server or the target's own device tag keep for themselves.
func rule(what string, reserved ...string) targets.NameRule {
	return targets.NameRule{Target: "influxdb", What: what, Keep: lpChar, Takes: lpTakes, Reserved: reserved}
}

// keyReserved are the names InfluxDB refuses as tag and field keys ("time"
// in 1.x, the columns of 2.x's data model).
var keyReserved = []string{"time", "_field", "_measurement"}

// serverNames is a schema's names as the server stores them: each kind
// mapped by its rule, and the schema under those names (srv), which the
// lines and statements are made from.
type serverNames struct {
	groups, devices, keys, values, sensors *targets.NameMap
	srv                                    *ts.Schema
}

// newServerNames maps the names of s; a name no rule can carry (an empty
// one) is bad input. An empty tag value is no tag in InfluxDB: it is left
// out of the lines.
func newServerNames(s *ts.Schema) (*serverNames, error) {
	var devs, keys, values []string
	for _, d := range s.Devices {
		devs = append(devs, d.Name)
		for _, tg := range d.Tags {
			if tg.Value != "" {
				keys, values = append(keys, tg.Key), append(values, tg.Value)
			}
		}
	}
	n := &serverNames{}
	var err error
	measurement := rule("measurement (group)")
	measurement.Keep = measurementChar
	measurement.Takes = func(m string) bool { return !strings.HasPrefix(m, "#") && lpTakes(m) }
	for _, m := range []struct {
		dst   **targets.NameMap
		rule  targets.NameRule
		names []string
	}{
		{&n.groups, measurement, s.Groups},
		{&n.devices, rule("device (tag value)"), devs},
		// The device tag is the target's own.
		{&n.keys, rule("tag key", append([]string{"device"}, keyReserved...)...), keys},
		{&n.values, rule("tag value"), values},
		{&n.sensors, rule("sensor (field key)", keyReserved...), targets.SensorNames(s)},
	} {
		if *m.dst, err = m.rule.Map(m.names); err != nil {
			return nil, err
		}
	}
	n.srv = n.schema(s)
	return n, nil
}

// schema is s under the server's names.
func (n *serverNames) schema(s *ts.Schema) *ts.Schema {
	srv := *s
	srv.Groups = make([]string, len(s.Groups))
	for i, g := range s.Groups {
		srv.Groups[i] = n.groups.Server(g)
	}
	srv.Devices = make([]ts.Device, len(s.Devices))
	for i, d := range s.Devices {
		d.Name = n.devices.Server(d.Name)
		tags := make([]ts.Tag, 0, len(d.Tags))
		for _, tg := range d.Tags {
			if tg.Value != "" {
				tags = append(tags, ts.Tag{Key: n.keys.Server(tg.Key), Value: n.values.Server(tg.Value)})
			}
		}
		d.Tags = tags
		srv.Devices[i] = d
	}
	srv.Sensors = make([]ts.Sensor, len(s.Sensors))
	for i, sn := range s.Sensors {
		srv.Sensors[i] = ts.Sensor{Name: n.sensors.Server(sn.Name), Type: sn.Type}
	}
	return &srv
}

// serverDevices are devs as the server names them (a device not in the
// schema as it is: it names no series either way).
func (n *serverNames) serverDevices(devs []*ts.Device) []*ts.Device {
	out := make([]*ts.Device, len(devs))
	for i, d := range devs {
		out[i] = d
		if p := n.srv.DevicePos(d.Index); p >= 0 {
			out[i] = &n.srv.Devices[p]
		}
	}
	return out
}

// tagKey is the server's form of a tag key: the target's device tag as it
// is, any other by the rule.
func (n *serverNames) tagKey(k string) string {
	if k == "device" {
		return k
	}
	return n.keys.Server(k)
}

// originalTags are the tags of an answer's series under the user's names.
func (n *serverNames) originalTags(tags map[string]string) map[string]string {
	out := make(map[string]string, len(tags))
	for k, v := range tags {
		if k == "device" {
			if o, ok := n.devices.Original(v); ok {
				v = o
			}
			out[k] = v
			continue
		}
		// A user's tag named device stays under its server key: the
		// device tag is the target's own.
		if o, ok := n.keys.Original(k); ok && o != "device" {
			k = o
		}
		if o, ok := n.values.Original(v); ok {
			v = o
		}
		out[k] = v
	}
	return out
}

// mapping is every changed name's server form (targets.NameMapper).
func (n *serverNames) mapping() map[string]string {
	out := map[string]string{}
	for _, m := range []struct {
		kind string
		m    *targets.NameMap
	}{{"group", n.groups}, {"device", n.devices}, {"tag key", n.keys}, {"tag value", n.values}, {"sensor", n.sensors}} {
		for orig, srv := range m.m.Changed() {
			out[m.kind+" "+orig] = srv
		}
	}
	return out
}

// NameMapping implements targets.NameMapper: the names InfluxDB stores in
// another form (nil before Setup or Bind).
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names == nil {
		return nil
	}
	return t.names.mapping()
}

// server is the bound schema's names, read under the target's lock, as
// binding.SchemaUnder reads the schema.
func (t *Target) server() (*serverNames, error) {
	if _, err := t.binding.Lock(&t.mu); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	return t.names, nil
}

// onServer is q with its devices under the server's names.
func (n *serverNames) onServer(q *ts.Query) *ts.Query {
	sq := *q
	sq.Devices = n.serverDevices(q.Devices)
	return &sq
}
