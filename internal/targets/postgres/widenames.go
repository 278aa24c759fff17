package postgres

import (
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// maxIdentifier is PostgreSQL's identifier limit (NAMEDATALEN - 1 bytes):
// a longer name is cut silently, so two long sensor names sharing a prefix
// would become one column.
const maxIdentifier = 63

// stagePrefix and widePrefix start the names of the wide layout's tables.
const (
	widePrefix  = "wide_"
	stagePrefix = "stage_"
)

// wideNames are the wide layout's server names: a column per sensor, a
// table per group. Quoted, a PostgreSQL identifier carries any character
// but NUL (and bytes that are not UTF-8, in a UTF8 database); only these,
// the length limit and the key columns device and t need a NameMap.
type wideNames struct {
	raw    []string // each sensor's column, unquoted
	cols   []string // each sensor's column, quoted
	tables []string // each group's table, unquoted
	sens   *targets.NameMap
	groups *targets.NameMap
}

// identChar tells whether a quoted identifier keeps r (a byte that is not
// UTF-8 reads as utf8.RuneError).
func identChar(r rune) bool { return r != 0 && r != utf8.RuneError }

// newWideNames maps the sensors and groups of s; the error is bad input
// naming a name that cannot be carried.
func newWideNames(target string, s *ts.Schema) (*wideNames, error) {
	sens, err := targets.NameRule{Target: target, What: "column name (layout=wide)", Keep: identChar,
		MaxBytes: maxIdentifier, Reserved: []string{"device", "t"}}.Map(targets.SensorNames(s))
	if err != nil {
		return nil, err
	}
	// The staging table of write_path=copy adds its prefix to the table's.
	groups, err := targets.NameRule{Target: target, What: "group (layout=wide table wide_<group>)", Keep: identChar,
		MaxBytes: maxIdentifier - len(stagePrefix) - len(widePrefix)}.Map(s.Groups)
	if err != nil {
		return nil, err
	}
	w := &wideNames{sens: sens, groups: groups}
	for _, sn := range s.Sensors {
		c := sens.Server(sn.Name)
		w.raw, w.cols = append(w.raw, c), append(w.cols, quoteIdent(c))
	}
	for _, g := range s.Groups {
		w.tables = append(w.tables, widePrefix+groups.Server(g))
	}
	return w, nil
}

// quoteIdent is name as a quoted identifier ("..." with quotes doubled).
func quoteIdent(name string) string { return pgx.Identifier{name}.Sanitize() }

// table is the unquoted table of group g ("wide_points" for a device
// outside the schema's groups).
func (w *wideNames) table(g int) string {
	if g >= 0 && g < len(w.tables) {
		return w.tables[g]
	}
	return widePrefix + "points"
}

// column is the quoted column of the sensor named name.
func (w *wideNames) column(name string) string { return quoteIdent(w.sens.Server(name)) }

// mapping is each changed name's server form, as targets.NameMapper has it.
func (w *wideNames) mapping() map[string]string {
	out := map[string]string{}
	for n, c := range w.sens.Changed() {
		out["sensor "+n] = c
	}
	for n, g := range w.groups.Changed() {
		out["group "+n] = widePrefix + g
	}
	return out
}

// NameMapping implements targets.NameMapper: the sensors and groups the
// wide layout stores under another column or table name (none on the
// narrow layout, which keeps names as data).
func (t *Target) NameMapping() map[string]string {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.names == nil {
		return nil
	}
	return t.names.mapping()
}

// checkText refuses, as bad input, a name PostgreSQL's text cannot hold: a
// NUL character, or bytes that are not UTF-8 (the database's encoding).
// Every device, sensor, group and tag is stored as text in the metadata
// tables (tags in JSONB, which refuses \u0000 too) on both layouts, so no
// NameMap can help; this runs before anything is written.
func checkText(target string, s *ts.Schema) error {
	return s.EachName(func(what, n string) error {
		if utf8.ValidString(n) && !strings.ContainsRune(n, 0) {
			return nil
		}
		return badinput.Errorf("%s: %s %q: PostgreSQL text holds no NUL character and only UTF-8 (rule: names are UTF-8 without NUL)",
			target, what, n)
	})
}
