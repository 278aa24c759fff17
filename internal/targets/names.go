package targets

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/ts"
)

// NameRule is how a server takes one kind of name (a column, a metric, a
// tag value, a path node) where it cannot take every name as it is, even
// quoted: which characters it keeps, how long a name may be, whether it
// compares names without regard to case. Targets whose language can quote
// or escape any name need no rule.
type NameRule struct {
	Target string // the target's name, for messages
	What   string // the kind of name, e.g. "column name"
	// Keep reports whether the server takes r in a name as it is; any
	// other character becomes '_'. Nil keeps every character.
	Keep func(r rune) bool
	// MaxBytes is the longest name the server takes, in bytes (0: no limit).
	MaxBytes int
	// FoldCase says the server treats names that differ only in case as
	// one name (MySQL's columns, QuestDB's).
	FoldCase bool
	// Reserved lists names the server refuses (compared case-insensitively);
	// they are mapped as a name with a refused character is.
	Reserved []string
	// Takes, when set, decides instead of Keep whether the server takes a
	// whole name as it is, for a rule that depends on where a character
	// stands (InfluxDB's line protocol reads a backslash as written only
	// before an ordinary character). Keep still makes the allowed form of
	// a name Takes refuses, so it must refuse every character Takes may.
	Takes func(name string) bool
}

// NameMap is a NameRule applied to the names of one run: injective (two
// names never map to one server name), stable (a name maps to the same
// server name in every run with the same names), and readable (a name the
// server takes as it is stays as it is).
type NameMap struct {
	rule   NameRule
	server map[string]string // original -> server
	orig   map[string]string // folded server -> original
}

// hashLen is the hex digits of the suffix that tells mapped names apart.
const hashLen = 8

// Map maps names by the rule. A name the server takes as it is keeps its
// form unless another name already took it (compared as the server
// compares); any other name becomes its allowed form plus "_" and a hash of
// the original, shortened to fit MaxBytes. An empty name, or a rule too
// tight to carry a name at all, is bad input naming the name and the rule.
func (r NameRule) Map(names []string) (*NameMap, error) {
	m := &NameMap{rule: r, server: make(map[string]string, len(names)), orig: make(map[string]string, len(names))}
	uniq := make([]string, 0, len(names))
	for _, n := range names {
		if _, dup := m.server[n]; !dup {
			m.server[n] = ""
			uniq = append(uniq, n)
		}
	}
	// Sorted, so that which of two names that fold to one keeps its form
	// does not depend on the order they arrive in.
	sort.Strings(uniq)
	var mapped []string
	for _, n := range uniq {
		if n == "" {
			return nil, badinput.Errorf("%s: %s %q: a name cannot be empty (rule: %s)", r.Target, r.What, n, r.describe())
		}
		if r.takes(n) {
			if _, taken := m.orig[r.fold(n)]; !taken {
				m.claim(n, n)
				continue
			}
		}
		mapped = append(mapped, n)
	}
	for _, n := range mapped {
		s, err := r.carry(n, m.orig)
		if err != nil {
			return nil, err
		}
		m.claim(n, s)
	}
	return m, nil
}

func (m *NameMap) claim(name, server string) {
	m.server[name] = server
	m.orig[m.rule.fold(server)] = name
}

// Server is the server's form of name (name itself for a name Map was not
// given, and for every name with no map at all: a nil NameMap, a kind a
// target has not mapped yet, keeps names as they are).
func (m *NameMap) Server(name string) string {
	if m == nil {
		return name
	}
	if s, ok := m.server[name]; ok && s != "" {
		return s
	}
	return name
}

// Original is the name whose server form is server, and whether there is one.
func (m *NameMap) Original(server string) (string, bool) {
	n, ok := m.orig[m.rule.fold(server)]
	return n, ok
}

// Changed lists the names whose server form differs, sorted: what a run
// keeps and reports as its mapping.
func (m *NameMap) Changed() map[string]string {
	out := map[string]string{}
	for n, s := range m.server {
		if s != n {
			out[n] = s
		}
	}
	return out
}

// Mapping is NameMapper's answer from a target's NameMaps, by the kind of
// name each maps ("sensor", "tag key"): every name a map stores in another
// form, under "<kind> <name>". A nil map (a kind not mapped yet) adds
// nothing, and with no map at all (before Setup or Bind) there is no
// mapping: nil.
func Mapping(byKind map[string]*NameMap) map[string]string {
	var out map[string]string
	for kind, m := range byKind {
		if m == nil {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		for n, srv := range m.Changed() {
			out[kind+" "+n] = srv
		}
	}
	return out
}

// SensorNames are the names of s's sensors, in order: what a target whose
// server names its columns or measurements by sensor maps (NameRule.Map).
func SensorNames(s *ts.Schema) []string {
	out := make([]string, len(s.Sensors))
	for i, sn := range s.Sensors {
		out[i] = sn.Name
	}
	return out
}

// DeviceNames are the names of s's devices, in order, as SensorNames are
// its sensors'.
func DeviceNames(s *ts.Schema) []string {
	out := make([]string, len(s.Devices))
	for i, d := range s.Devices {
		out[i] = d.Name
	}
	return out
}

// takes reports whether the server takes n as it is.
func (r NameRule) takes(n string) bool {
	if r.MaxBytes > 0 && len(n) > r.MaxBytes {
		return false
	}
	switch {
	case r.Takes != nil:
		if !r.Takes(n) {
			return false
		}
	case r.Keep != nil:
		for _, c := range n {
			if !r.Keep(c) {
				return false
			}
		}
	}
	for _, w := range r.Reserved {
		if strings.EqualFold(w, n) {
			return false
		}
	}
	return true
}

func (r NameRule) fold(n string) string {
	if r.FoldCase {
		return strings.ToLower(n)
	}
	return n
}

// carry is n's allowed form with a hash suffix, unique among taken.
func (r NameRule) carry(n string, taken map[string]string) (string, error) {
	var b strings.Builder
	for _, c := range n {
		if r.Keep == nil || r.Keep(c) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	base := b.String()
	for salt := 0; salt < 16; salt++ {
		suffix := "_" + nameHash(n, salt)
		if r.MaxBytes > 0 && len(suffix) >= r.MaxBytes {
			return "", badinput.Errorf("%s: %s %q cannot be carried: names are at most %d bytes (rule: %s)", r.Target, r.What, n, r.MaxBytes, r.describe())
		}
		s := truncateUTF8(base, r.MaxBytes-len(suffix)) + suffix
		if r.MaxBytes <= 0 {
			s = base + suffix
		}
		if _, clash := taken[r.fold(s)]; !clash {
			return s, nil
		}
	}
	return "", fmt.Errorf("%s: %s %q: no free server name after 16 tries", r.Target, r.What, n)
}

// nameHash is hashLen hex digits of n (and salt, past the first try).
func nameHash(n string, salt int) string {
	h := fnv.New64a()
	h.Write([]byte(n))
	if salt > 0 {
		fmt.Fprintf(h, "#%d", salt)
	}
	return fmt.Sprintf("%0*x", hashLen, h.Sum64()&(1<<(4*hashLen)-1))
}

// truncateUTF8 is s cut to at most max bytes on a character boundary.
func truncateUTF8(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// describe says the rule in words, for messages and docs.
func (r NameRule) describe() string {
	var parts []string
	if r.Keep != nil || r.Takes != nil {
		parts = append(parts, "other characters become _ with a hash suffix")
	}
	if r.MaxBytes > 0 {
		parts = append(parts, fmt.Sprintf("at most %d bytes", r.MaxBytes))
	}
	if r.FoldCase {
		parts = append(parts, "case-insensitive")
	}
	if len(r.Reserved) > 0 {
		parts = append(parts, "reserved: "+strings.Join(r.Reserved, ", "))
	}
	if len(parts) == 0 {
		return "any non-empty name"
	}
	return strings.Join(parts, "; ")
}

// NameMapper is implemented by targets that store some names in another
// form than the user's (a NameMap): the run keeps the mapping with its
// record, and reports only the original names.
type NameMapper interface {
	// NameMapping is each changed name's server form, keyed by what the
	// name is and the original: "sensor cpu usage [%]" -> "cpu_usage____1a2b3c4d".
	NameMapping() map[string]string
}
