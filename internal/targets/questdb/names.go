package questdb

import (
	"fmt"
	"maps"
	"strings"
	"unicode"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// QuestDB names every column and table after a file on disk: even quoted,
// a name is at most 127 characters and holds none of the characters
// refusedInColumn (refusedInTable), nor control characters or a byte-order
// mark, and names that differ only in case are one column (or table).
// Names it cannot take get a targets.NameMap form; everything else (SYMBOL
// values, the device names) is data, quoted in SQL and escaped in ILP.
// Seen on 9.3.4: "new column name contains invalid characters", "invalid
// table name".
const (
	maxName         = 127
	refusedInColumn = `"%'()*+,-./:?\~`
	refusedInTable  = `"%'()*+,/:?\~`
)

func keepInColumn(r rune) bool { return !strings.ContainsRune(refusedInColumn, r) && keepAny(r) }

func keepInTable(r rune) bool { return !strings.ContainsRune(refusedInTable, r) && keepAny(r) }

// keepAny is false for what neither kind of name takes.
func keepAny(r rune) bool { return !unicode.IsControl(r) && r != '\ufeff' && r != utf8Error }

// utf8Error is what ranging over a string gives for an invalid byte; it
// is mapped rather than sent as a replacement the server would store.
const utf8Error = unicode.ReplacementChar

// Fixed columns of every table: the device's SYMBOL and the designated
// timestamp.
const (
	colDevice = "device"
	colTime   = "ts"
)

// names are one schema's server names: a column per sensor and tag key, a
// table per group.
type names struct {
	sensors []string          // per sensor position
	bySens  map[string]string // sensor name -> column
	tags    map[string]string // tag key -> column
	tagKeys []string          // the schema's tag keys, in order of first use
	tables  []string          // per group
	changed map[string]string // targets.NameMapper's form
}

// mapping is the changed names' server forms, as targets.NameMapper has
// them: none before Setup or Bind (n nil).
func (n *names) mapping() map[string]string {
	if n == nil {
		return nil
	}
	return maps.Clone(n.changed)
}

// mapNames maps the names of s for database db; an error is bad input
// naming a name QuestDB cannot carry.
func mapNames(db string, s *ts.Schema) (*names, error) {
	rule := targets.NameRule{Target: "questdb", What: "tag column", Keep: keepInColumn, MaxBytes: maxName,
		FoldCase: true, Reserved: []string{colDevice, colTime}}
	n := &names{bySens: map[string]string{}, tags: map[string]string{}, changed: map[string]string{}}
	n.tagKeys = s.TagKeys()
	tags, err := rule.Map(n.tagKeys)
	if err != nil {
		return nil, err
	}
	// A sensor and a tag are columns of one table: a sensor named as a
	// tag's column (in any case) takes another name.
	rule.What = "sensor column"
	for _, k := range n.tagKeys {
		n.tags[k] = tags.Server(k)
		rule.Reserved = append(rule.Reserved, n.tags[k])
	}
	sens, err := rule.Map(targets.SensorNames(s))
	if err != nil {
		return nil, err
	}
	for _, sn := range s.Sensors {
		c := sens.Server(sn.Name)
		if _, clash := tags.Original(c); clash {
			// A tag key of the same name, mapped too, took the same hash:
			// the sensor takes the hash of its name marked as a sensor's.
			if c, err = markedSensor(rule, sn.Name); err != nil {
				return nil, err
			}
		}
		n.sensors = append(n.sensors, c)
		n.bySens[sn.Name] = c
	}
	if err := n.distinct(); err != nil {
		return nil, err
	}
	tables, err := targets.NameRule{Target: "questdb", What: "table (<DB_NAME>_<group>)", Keep: keepInTable,
		MaxBytes: maxName, FoldCase: true}.Map(groupTables(db, s))
	if err != nil {
		return nil, err
	}
	for _, g := range groupTables(db, s) {
		tbl := tables.Server(g)
		// A table's name is a directory: QuestDB refuses one that starts
		// or ends with a space or a dot, or holds "..", which a rule of
		// characters cannot say (and DB_NAME and the groups are the
		// user's configuration, not data).
		if strings.TrimSpace(tbl) != tbl || strings.HasPrefix(tbl, ".") || strings.HasSuffix(tbl, ".") || strings.Contains(tbl, "..") {
			return nil, badinput.Errorf("questdb: table %q (<DB_NAME>_<group>): QuestDB takes no table name that starts or ends with a space or a dot, or holds \"..\"", tbl)
		}
		n.tables = append(n.tables, tbl)
	}
	for k, c := range tags.Changed() {
		n.changed["tag key "+k] = c
	}
	for i, sn := range s.Sensors {
		if n.sensors[i] != sn.Name {
			n.changed["sensor "+sn.Name] = n.sensors[i]
		}
	}
	for k, c := range tables.Changed() {
		n.changed["table "+k] = c
	}
	return n, nil
}

// NameMapping implements targets.NameMapper: the sensors, tag keys and
// tables stored under another name than the schema's.
func (t *Target) NameMapping() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.names.mapping()
}

// markedSensor is the column of a sensor whose name is also a tag key's,
// both mapped: the form of the name with " (sensor)" added, which the
// rule always maps (it refuses parentheses) to a hash of its own.
func markedSensor(rule targets.NameRule, name string) (string, error) {
	marked := name + " (sensor)"
	m, err := rule.Map([]string{marked})
	if err != nil {
		return "", err
	}
	return m.Server(marked), nil
}

// distinct checks that no two columns of a table are one name to QuestDB
// (case-insensitive): the NameMaps see to it but for a hash that falls on
// another map's name, which would merge two series.
func (n *names) distinct() error {
	seen := map[string]string{colDevice: "the device column", colTime: "the time column"}
	add := func(what, col string) error {
		if other, dup := seen[strings.ToLower(col)]; dup {
			return fmt.Errorf("questdb: %s and %s both map to column %q", what, other, col)
		}
		seen[strings.ToLower(col)] = what
		return nil
	}
	for _, k := range n.tagKeys {
		if err := add(fmt.Sprintf("tag key %q", k), n.tags[k]); err != nil {
			return err
		}
	}
	for i, c := range n.sensors {
		if err := add(fmt.Sprintf("sensor %d", i), c); err != nil {
			return err
		}
	}
	return nil
}

// groupTables is each group's table before mapping: <db>_<group>.
func groupTables(db string, s *ts.Schema) []string {
	out := make([]string, len(s.Groups))
	for i, g := range s.Groups {
		out[i] = db + "_" + g
	}
	return out
}

// tag is the column of tag key k (k itself for a key outside the schema,
// e.g. a truck tag a fleet question asks of a schema without it).
func (n *names) tag(k string) string {
	if c, ok := n.tags[k]; ok {
		return c
	}
	return k
}

// sensor is the column of the sensor named name.
func (n *names) sensor(name string) string {
	if c, ok := n.bySens[name]; ok {
		return c
	}
	return name
}

// quote is name as a quoted SQL identifier: in double quotes, a quote
// inside doubled.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// literal is s as an SQL string literal: in single quotes, a quote inside
// doubled. QuestDB gives a backslash no meaning there.
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// ilpSpecial are the characters ILP escapes in a table name, tag key or
// tag value. QuestDB's ILP parser takes the character after a backslash
// as it is (\\ is one backslash, and a backslash before a letter is
// dropped), so the backslash is escaped too, and line ends, which would
// end the line.
const ilpSpecial = "\\,= \n\r"

// escapeILP backslash-escapes the ILP special characters of s.
func escapeILP(s string) string {
	if !strings.ContainsAny(s, ilpSpecial) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(ilpSpecial, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
