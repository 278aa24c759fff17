package dataset

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/ts"
)

// Missing cells. An empty cell (or one of spaces) is always missing. The
// other ways files write "no value" come in two sets: texts no file
// writes as a value (null, NaN), missing in a column of any type; and
// markers that could be a word of a TEXT column (NA, --, NM, -), missing
// in a column that is otherwise numbers or booleans, kept as text in a
// TEXT column, where the import says so rather than store them silently.
// DATA_MISSING edits both sets or replaces them.

// alwaysMissing are missing in a column of any type, TEXT too.
var alwaysMissing = []string{"null", "NaN"}

// missingMarkers are missing in a column of numbers or booleans: R's NA,
// Python's None and <NA>, spreadsheets' #N/A, statistics agencies' --
// (not available) and NM (not meaningful), and a dash. Compared without
// case.
var missingMarkers = []string{"NA", "N/A", "#N/A", "None", "<NA>", "-NaN", "#NA", "--", "NM", "-"}

// markerSet is the missing-cell markers in force.
type markerSet struct {
	every   []string // missing in a column of any type
	numeric []string // missing in a column of numbers or booleans
	// named are the markers DATA_MISSING lists or adds: a Parquet file's
	// text columns take these alone (its nulls are its missing cells).
	named []string
	// values are the numeric markers' values, so that a sentinel -999
	// is missing written -999.0 too.
	values []float64
	// first marks the bytes a marker can start with (either case), so
	// that most cells are told apart from every marker by one lookup.
	first [256]bool
}

// defaultMarkers is the set without DATA_MISSING.
func defaultMarkers() *markerSet {
	m := &markerSet{every: slices.Clone(alwaysMissing), numeric: slices.Clone(missingMarkers)}
	m.index()
	return m
}

// missingSyntax is what DATA_MISSING allows, for its messages.
const missingSyntax = "allowed: markers that replace the defaults (NA,-999: missing in every column, besides null and NaN), " +
	"edits of the defaults, each item signed (+-999 adds -999, -NM removes NM; none,+-999 edits an empty set), or none"

// parseMissing reads DATA_MISSING: empty keeps the defaults; none drops
// every marker but null and NaN; items all signed edit the defaults (or
// an empty set after none): +X adds X, missing in every column, -X
// removes X; a list without signs replaces them (besides null and NaN),
// its markers missing in every column. A sign alone is a marker: "-".
func parseMissing(text string) (*markerSet, error) {
	items := SplitColumns(text)
	m := defaultMarkers()
	if len(items) == 0 {
		return m, nil
	}
	edits := items
	if strings.EqualFold(items[0], "none") {
		m.numeric, edits = nil, items[1:]
	}
	signed := 0
	for _, it := range edits {
		if isSigned(it) {
			signed++
		}
	}
	switch {
	case len(edits) == 0:
	case signed == len(edits):
		for _, it := range edits {
			if err := m.edit(text, it); err != nil {
				return nil, err
			}
		}
	case len(edits) < len(items) || slices.ContainsFunc(edits, func(it string) bool { return isSigned(it) && it[0] == '+' }):
		return nil, fmt.Errorf("DATA_MISSING %q mixes markers with signed edits: %s", text, missingSyntax)
	default:
		m.every, m.numeric, m.named = append(slices.Clone(alwaysMissing), items...), nil, items
	}
	m.index()
	return m, nil
}

// isSigned reports whether an item of DATA_MISSING edits the markers:
// a sign and a marker. A sign alone is a marker (a dash).
func isSigned(item string) bool { return len(item) > 1 && (item[0] == '+' || item[0] == '-') }

// edit applies one signed item of DATA_MISSING (text).
func (m *markerSet) edit(text, item string) error {
	x := strings.TrimSpace(item[1:])
	if item[0] == '+' {
		m.every, m.named = append(m.every, x), append(m.named, x)
		return nil
	}
	drop := func(list []string) []string {
		return slices.DeleteFunc(list, func(s string) bool { return strings.EqualFold(s, x) })
	}
	n := len(m.every) + len(m.numeric)
	m.every, m.numeric, m.named = drop(m.every), drop(m.numeric), drop(m.named)
	if len(m.every)+len(m.numeric) == n {
		// The item is likelier a negative sentinel (-999) than a removal:
		// say how to add it.
		return fmt.Errorf("DATA_MISSING %q: %q removes %q, which is not a marker (the markers: %s); "+
			"+%s adds %s, and a list without signs replaces the markers: %s",
			text, item, x, strings.Join(append(slices.Clone(m.every), m.numeric...), " "), item, item, missingSyntax)
	}
	return nil
}

// index fills in values and first from the markers.
func (m *markerSet) index() {
	m.values, m.first = nil, [256]bool{}
	for _, s := range append(slices.Clone(m.every), m.numeric...) {
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			m.values = append(m.values, f)
		}
		if s != "" {
			m.first[lowerByte(s[0])], m.first[upperByte(s[0])] = true, true
		}
	}
}

func lowerByte(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func upperByte(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// match reports whether v (trimmed, not empty) is a marker, and whether
// only a column of numbers or booleans takes it as missing.
func (m *markerSet) match(v string) (numericOnly, ok bool) {
	if m.first[v[0]] {
		if has(m.every, v) {
			return false, true
		}
		if has(m.numeric, v) {
			return true, true
		}
	}
	if len(m.values) > 0 {
		if f, err := strconv.ParseFloat(v, 64); err == nil && slices.Contains(m.values, f) {
			return false, true
		}
	}
	return false, false
}

// has reports whether v is one of list, without case.
func has(list []string, v string) bool {
	for _, s := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// isAny reports whether a cell is empty or any marker: never a device's
// name.
func (m *markerSet) isAny(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	_, ok := m.match(v)
	return ok
}

// missing reports whether v is a missing cell of a column of type ty.
func (m *markerSet) missing(v string, ty ts.DataType) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	numericOnly, ok := m.match(v)
	return ok && (!numericOnly || ty != ts.Text)
}

// markers is the import's marker set: DATA_MISSING's, read by Import,
// else the defaults.
func (o ImportOptions) markers() *markerSet {
	if o.missing != nil {
		return o.missing
	}
	return defaultMarkers()
}

// markerKey counts the cells of one marker in one column.
type markerKey struct {
	column, marker string
	numericOnly    bool
}

// markerCounts are the markers a scan met, by column: what a note and
// an inspection list.
type markerCounts map[markerKey]int64

// MarkerFound is a marker met in a column, and its cells: missing, or
// kept as text (a TEXT column's cells written as a marker of numbers).
type MarkerFound struct {
	Marker string `json:"marker"`
	Column string `json:"column"`
	Cells  int64  `json:"cells"`
	Text   bool   `json:"kept_as_text,omitempty"`
}

// found lists the markers met, the TEXT columns' ones kept as text,
// sorted by marker, then by column.
func (mc markerCounts) found(types map[string]ts.DataType) []MarkerFound {
	var out []MarkerFound
	for _, k := range slices.SortedFunc(maps.Keys(mc), func(a, b markerKey) int {
		return strings.Compare(a.marker+"\x00"+a.column, b.marker+"\x00"+b.column)
	}) {
		out = append(out, MarkerFound{Marker: k.marker, Column: k.column, Cells: mc[k], Text: k.numericOnly && types[k.column] == ts.Text})
	}
	return out
}

// markerNotes say which markers were read as missing, and which kept as
// text, in which columns and how often.
func markerNotes(found []MarkerFound) []string {
	var missing, text []string
	for _, g := range groupMarkers(found) {
		part := fmt.Sprintf("%q x%d (%s)", g.marker, g.cells, columnsText(g.columns))
		if g.text {
			text = append(text, part)
		} else {
			missing = append(missing, part)
		}
	}
	var out []string
	if len(missing) > 0 {
		out = append(out, "missing cells written as "+strings.Join(missing, ", ")+" (DATA_MISSING lists the markers)")
	}
	if len(text) > 0 {
		out = append(out, "TEXT columns hold cells written as missing-value markers, kept as text values: "+strings.Join(text, ", ")+
			" (DATA_MISSING=+MARKER reads one as missing in every column)")
	}
	return out
}

// markerGroup is one marker's cells over the columns, missing or kept.
type markerGroup struct {
	marker  string
	text    bool
	cells   int64
	columns []string
}

// groupMarkers sums found by marker and by whether the cells were kept.
func groupMarkers(found []MarkerFound) []markerGroup {
	var out []markerGroup
	for _, f := range found {
		i := slices.IndexFunc(out, func(g markerGroup) bool { return g.marker == f.Marker && g.text == f.Text })
		if i < 0 {
			out = append(out, markerGroup{marker: f.Marker, text: f.Text})
			i = len(out) - 1
		}
		out[i].cells += f.Cells
		out[i].columns = append(out[i].columns, f.Column)
	}
	return out
}

// columnsText names a few columns, and counts the others.
func columnsText(cols []string) string {
	const shown = 4
	if len(cols) <= shown {
		return strings.Join(cols, ", ")
	}
	return fmt.Sprintf("%d columns: %s and %d more", len(cols), strings.Join(cols[:shown], ", "), len(cols)-shown)
}
