package kairosdb

import (
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Names. KairosDB takes any metric name, tag key and tag value in its JSON
// bodies, and stores them as they are; but its H2 datastore builds the SQL
// of a query's tag filter by pasting each value between single quotes, not
// escaping them: a device name with a quote made every query of the device
// a 500 (a syntax error), and left H2's connections stuck, so that the
// server answered no metric query at all afterwards. A device name is the
// only tag value tsbench filters by, so device names are the only names
// mapped: one holding a single quote takes its deviceRule form. The
// metric name goes in as a bound parameter, and other tags are only
// written, so sensor names, tag keys and tag values are stored as given.

// deviceRule keeps every character of a device name but the single quote.
var deviceRule = targets.NameRule{Target: "kairosdb", What: "device name", Keep: func(r rune) bool { return r != '\'' }}

// ownTags are the tags tsbench puts on every series: a device's tag of the
// same key would overwrite one, so such a key is renamed.
var ownTags = []string{"device", "group"}

// tagRule renames a tag key that is one of ownTags (compared without regard
// to case) to "<key>_<hash>".
var tagRule = targets.NameRule{Target: "kairosdb", What: "tag key", Reserved: ownTags}

// serverNames are a schema's device names and tag keys as KairosDB stores them.
type serverNames struct {
	devices, tagKeys *targets.NameMap
}

// mapNames maps the schema's device names and tag keys; an empty name is
// bad input.
func mapNames(s *ts.Schema) (serverNames, error) {
	devs := make([]string, len(s.Devices))
	var keys []string
	seen := map[string]bool{}
	for i, d := range s.Devices {
		devs[i] = d.Name
		for _, tg := range d.Tags {
			if !seen[tg.Key] {
				seen[tg.Key] = true
				keys = append(keys, tg.Key)
			}
		}
	}
	var n serverNames
	var err error
	if n.devices, err = deviceRule.Map(devs); err != nil {
		return n, err
	}
	n.tagKeys, err = tagRule.Map(keys)
	return n, err
}

// device is the server's form of a device's name.
func (n serverNames) device(name string) string { return n.devices.Server(name) }

// tagKey is the server's form of a tag key.
func (n serverNames) tagKey(key string) string { return n.tagKeys.Server(key) }

// NameMapping implements targets.NameMapper: the device names and tag keys
// stored in another form.
func (t *Target) NameMapping() map[string]string {
	t.Mu.Lock()
	defer t.Mu.Unlock()
	return targets.Mapping(map[string]*targets.NameMap{"device": t.names.devices, "tag key": t.names.tagKeys})
}
