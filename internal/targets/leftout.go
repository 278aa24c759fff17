package targets

import (
	"fmt"
	"slices"
	"strings"
)

// LeftOut is a target whose package a build left out of the binary: it is
// linked in only with a build tag (DuckDB, whose prebuilt C++ library
// would double a first build's download and add its cgo compile and
// external link). Lookup refuses its name saying how to build a binary
// that has it, and `tsbench targets` lists it so, instead of calling it an
// unknown database.
type LeftOut struct {
	Name    string   // the target's registry name, e.g. "duckdb"
	Aliases []string // its DB_SWITCH spellings
	Tag     string   // the build tag that links it in
	// Needs is what such a build needs besides the tag ("cgo and a C
	// compiler"), or "".
	Needs string
}

// Build is the command that builds a binary with the target.
func (l LeftOut) Build() string {
	return "go build -tags " + l.Tag + " -o tsbench ./cmd/tsbench"
}

// Err is the refusal of a run that names the target.
func (l LeftOut) Err() error {
	needs := ""
	if l.Needs != "" {
		needs = "; it needs " + l.Needs
	}
	return fmt.Errorf("the %s target is not in this binary: it is built in only with the build tag %q (%s%s)",
		l.Name, l.Tag, l.Build(), needs)
}

var leftOut []LeftOut

// RegisterLeftOut records a target this build left out; the file that
// would link it in has the opposite build constraint and calls it from
// init.
func RegisterLeftOut(l LeftOut) {
	mu.Lock()
	defer mu.Unlock()
	leftOut = append(leftOut, l)
	slices.SortFunc(leftOut, func(a, b LeftOut) int { return strings.Compare(a.Name, b.Name) })
}

// LeftOuts lists the targets this build left out, by name.
func LeftOuts() []LeftOut {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(leftOut)
}

// leftOutLocked is the left-out target name (or base, its part before
// the first dash) names, if any; the caller holds the registry's lock.
func leftOutLocked(name, base string) (LeftOut, bool) {
	for _, l := range leftOut {
		for _, n := range append([]string{l.Name}, l.Aliases...) {
			if strings.EqualFold(n, name) || strings.EqualFold(n, base) {
				return l, true
			}
		}
	}
	return LeftOut{}, false
}
