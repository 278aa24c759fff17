package opentsdb

import (
	"unicode"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Names. OpenTSDB takes in metric names, tag keys and tag values only
// a-z, A-Z, 0-9, '-', '_', '.', '/' and letters (Tags.validateString),
// with no escape: any other character refused the point. tsbench used to
// turn each such character into '_', which merged names ("web01 example"
// and "web01_example" became one series, and 2,400 acknowledged points
// were counted as 2,100). Each kind of name now goes through its own
// targets.NameMap: a name OpenTSDB takes stays as it is, any other becomes
// its allowed form plus a hash, distinct from every other name of its
// kind. The queries filter by the mapped device names, and read each
// answer by its position, so the results are the schema's.

// allowed reports whether OpenTSDB takes r in a name and keeps it. It
// takes every letter, but stores a name's bytes in ISO-8859-1 (its UID
// table's charset): a letter beyond Latin-1 becomes '?', so that
// "Zürich/温度" and "Zürich/東京" would be one name ("Zürich/??", seen in
// 2.4.1's UID cache). Only Latin-1's letters are kept therefore; the
// others are mapped.
func allowed(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '/':
		return true
	}
	return r <= 0xFF && unicode.IsLetter(r)
}

// rule is the NameRule of a kind of name.
func rule(what string, reserved ...string) targets.NameRule {
	return targets.NameRule{Target: "opentsdb", What: what, Keep: allowed, Reserved: reserved}
}

// ownTags are the tags tsbench puts on every series: a device's tag of the
// same key would overwrite one, so such a key is renamed.
var ownTags = []string{"device", "group"}

// serverNames are a schema's names as OpenTSDB stores them.
type serverNames struct {
	devices   *targets.NameMap // tag values of "device"
	sensors   *targets.NameMap // the part of a metric name after "<db>."
	tagKeys   *targets.NameMap
	tagValues *targets.NameMap // the devices' own tags' values, and the group names
}

// mapNames maps every name of s. A name of no allowed character at all is
// still carried (by its hash); an empty name is bad input.
func mapNames(s *ts.Schema) (serverNames, error) {
	var devs, sensors, keys, values []string
	for _, sn := range s.Sensors {
		sensors = append(sensors, sn.Name)
	}
	for _, d := range s.Devices {
		devs = append(devs, d.Name)
		values = append(values, targets.GroupName(s, d.Group, "none"))
		for _, tg := range d.Tags {
			keys = append(keys, tg.Key)
			values = append(values, tg.Value)
		}
	}
	var n serverNames
	var err error
	if n.devices, err = rule("device name").Map(devs); err != nil {
		return n, err
	}
	if n.sensors, err = rule("sensor name").Map(sensors); err != nil {
		return n, err
	}
	if n.tagKeys, err = rule("tag key", ownTags...).Map(keys); err != nil {
		return n, err
	}
	n.tagValues, err = rule("tag value").Map(values)
	return n, err
}

// The server's form of each kind of name (the name itself without a map:
// the tests' plain names).
func (n serverNames) device(name string) string  { return n.devices.Server(name) }
func (n serverNames) sensor(name string) string  { return n.sensors.Server(name) }
func (n serverNames) tagKey(key string) string   { return n.tagKeys.Server(key) }
func (n serverNames) tagValue(val string) string { return n.tagValues.Server(val) }

// NameMapping implements targets.NameMapper: every name stored in another
// form, by kind.
func (t *Target) NameMapping() map[string]string {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	return targets.Mapping(map[string]*targets.NameMap{"device": t.names.devices, "sensor": t.names.sensors,
		"tag key": t.names.tagKeys, "tag value": t.names.tagValues})
}
