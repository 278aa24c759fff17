// Package ownquery reads a query file (--queries, QUERY_FILE): the user's
// own named queries, each with a weight in the run's mix, parameters drawn
// from the run's data or from distributions, and its text per target or
// per query language. It renders a query for a target (parameters bound
// where the language binds, quoted by the language's rules where it
// cannot) and compares two targets' answers to the same parameter sets.
//
// What runs the queries, times them and records their answers is the
// runner's; this package knows the file, the drawing and the comparison.
package ownquery

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/targets"
)

// File is a parsed query file.
type File struct {
	Path    string
	Queries []*Query
}

// Query is one named query of the file.
type Query struct {
	Name   string
	Weight int64
	Params []*Param
	Texts  []Text // by key: a target's name or a language's
	Line   int
}

// Text is a query's text for one key, as the file wrote it.
type Text struct {
	Key  string
	Tmpl *Template
	Line int
}

// reservedNames are the operation names a query may not take: the
// matrices' rows of the built-in operations.
var reservedNames = []string{"INGESTION", "PRECISE_POINT", "TIME_RANGE", "VALUE_RANGE", "AGG_RANGE",
	"AGG_VALUE", "AGG_RANGE_VALUE", "GROUP_BY", "LATEST_POINT", "RANGE_QUERY_DESC", "VALUE_RANGE_QUERY_DESC",
	"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10", "WRITE", "ERRORS"}

// queryName is what a query's name may be: it names a row of the matrices
// and the left side of a threshold (NAME.p99<50ms).
var queryName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// MaxQueries bounds a file's queries: each is an operation kind of the
// run, beside the write and Q1..Q10.
const MaxQueries = 16

// Load reads and checks a query file. Every error is bad input naming
// file:line.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badinput.Errorf("QUERY_FILE = %q: %v", path, err)
	}
	f, err := Parse(path, data)
	if err != nil {
		return nil, badinput.Wrap(err)
	}
	return f, nil
}

// Parse reads a query file's contents; path names it in errors.
func Parse(path string, data []byte) (*File, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s%s", path, yamlError(err))
	}
	if len(root.Content) == 0 {
		return nil, fmt.Errorf("%s: the file is empty: want `queries:` and a list of queries", path)
	}
	doc := root.Content[0]
	list := mapValue(doc, "queries")
	if doc.Kind != yaml.MappingNode || list == nil || list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s:%d: want `queries:` and a list of queries", path, doc.Line)
	}
	if err := onlyKeys(path, doc, "queries"); err != nil {
		return nil, err
	}
	f := &File{Path: path}
	seen := map[string]int{}
	for _, n := range list.Content {
		q, err := parseQuery(path, n)
		if err != nil {
			return nil, err
		}
		if line, dup := seen[strings.ToLower(q.Name)]; dup {
			return nil, fmt.Errorf("%s:%d: name %q: the query of line %d has it already", path, q.Line, q.Name, line)
		}
		seen[strings.ToLower(q.Name)] = q.Line
		f.Queries = append(f.Queries, q)
	}
	if len(f.Queries) == 0 {
		return nil, fmt.Errorf("%s:%d: queries: the list is empty", path, list.Line)
	}
	if len(f.Queries) > MaxQueries {
		return nil, fmt.Errorf("%s:%d: queries: %d queries, at most %d in one file", path, list.Line, len(f.Queries), MaxQueries)
	}
	return f, nil
}

// yamlError is a YAML error after its file's name: ":LINE: what", as the
// parser says it ("yaml: line 3: did not find expected node content").
func yamlError(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return ": " + strings.Join(te.Errors, "; ")
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, what, ok := strings.Cut(rest, ": "); ok {
			return ":" + n + ": " + what
		}
	}
	return ": " + msg
}

// queryKeys are a query's keys besides its texts.
var queryKeys = []string{"name", "weight", "params"}

func parseQuery(path string, n *yaml.Node) (*Query, error) {
	at := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	if n.Kind != yaml.MappingNode {
		return nil, at(n.Line, "a query is a mapping with name, weight, params and its texts")
	}
	q := &Query{Line: n.Line, Weight: 1}
	name := mapValue(n, "name")
	if name == nil || name.Kind != yaml.ScalarNode || name.Value == "" {
		return nil, at(n.Line, "the query has no name")
	}
	q.Name = name.Value
	if !queryName.MatchString(q.Name) {
		return nil, at(name.Line, "name %q: a name is letters, digits and _, starting with a letter or _ (at most 64)", q.Name)
	}
	if slices.ContainsFunc(reservedNames, func(r string) bool { return strings.EqualFold(r, q.Name) }) {
		return nil, at(name.Line, "name %q is a built-in operation's: choose another", q.Name)
	}
	if w := mapValue(n, "weight"); w != nil {
		if err := w.Decode(&q.Weight); err != nil || q.Weight < 0 {
			return nil, at(w.Line, "query %s: weight = %q: must be a whole number >= 0", q.Name, w.Value)
		}
	}
	if err := q.parseParams(path, mapValue(n, "params")); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if slices.Contains(queryKeys, k.Value) {
			continue
		}
		if !knownKey(k.Value) {
			return nil, at(k.Line, "query %s: unknown key %q (allowed: %s, and a text keyed by a target (%s) or a language (%s))",
				q.Name, k.Value, strings.Join(queryKeys, ", "), strings.Join(targets.Names(), ", "), strings.Join(Languages(), ", "))
		}
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			return nil, at(v.Line, "query %s: %s: want the query's text", q.Name, k.Value)
		}
		tmpl, err := parseTemplate(strings.TrimSpace(v.Value))
		if err != nil {
			return nil, at(v.Line, "query %s: %s: %v", q.Name, k.Value, err)
		}
		if err := q.checkRefs(tmpl); err != nil {
			return nil, at(v.Line, "query %s: %s: %v", q.Name, k.Value, err)
		}
		q.Texts = append(q.Texts, Text{Key: k.Value, Tmpl: tmpl, Line: v.Line})
	}
	if len(q.Texts) == 0 {
		return nil, at(n.Line, "query %s has no text: write it under a language (%s) or a target's name",
			q.Name, strings.Join(Languages(), ", "))
	}
	return q, nil
}

func (q *Query) parseParams(path string, n *yaml.Node) error {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: query %s: params: want a mapping of NAME: KIND", path, n.Line, q.Name)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isName(k.Value) {
			return fmt.Errorf("%s:%d: query %s: parameter %q: a name is letters, digits and _", path, k.Line, q.Name, k.Value)
		}
		p, err := paramOf(k.Value, v)
		if err != nil {
			return fmt.Errorf("%s:%d: query %s: parameter %s: %w", path, v.Line, q.Name, k.Value, err)
		}
		p.Line = v.Line
		q.Params = append(q.Params, p)
	}
	return nil
}

// paramOf reads a parameter from its spec: a string ("int 1..100"), or a
// mapping {choice: [...]} whose list may hold any text (commas, quotes).
func paramOf(name string, v *yaml.Node) (*Param, error) {
	if v.Kind == yaml.ScalarNode {
		return parseParam(name, v.Value)
	}
	list := mapValue(v, "choice")
	if v.Kind != yaml.MappingNode || len(v.Content) != 2 || list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, fmt.Errorf("want a kind (%s) or {choice: [values]}", kinds)
	}
	vals, err := choicesOf(list)
	if err != nil {
		return nil, err
	}
	return &Param{Name: name, Kind: Choice, Choices: vals}, nil
}

// checkRefs refuses a reference to no parameter, and a window field of a
// parameter that is not a window.
func (q *Query) checkRefs(t *Template) error {
	for _, r := range t.refs() {
		p := q.Param(r.param)
		if p == nil {
			return fmt.Errorf("{{%s}} names no parameter (the query's: %s)", r.param, q.paramNames())
		}
		switch {
		case p.Kind == Window && r.field == "":
			return fmt.Errorf("{{%s}} is a window: write {{%s.start}} or {{%s.end}}", r.param, r.param, r.param)
		case p.Kind != Window && r.field != "":
			return fmt.Errorf("{{%s.%s}}: %s is a %s parameter, not a window", r.param, r.field, r.param, p.Kind)
		}
	}
	return nil
}

// Param is the query's parameter of that name, or nil.
func (q *Query) Param(name string) *Param {
	for _, p := range q.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (q *Query) paramNames() string {
	if len(q.Params) == 0 {
		return "none"
	}
	var names []string
	for _, p := range q.Params {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// For is the query's text for the target: under the target's own name, else
// under its language; ok is false when the file has neither.
func (q *Query) For(d *targets.Driver) (Text, bool) {
	for _, t := range q.Texts {
		if strings.EqualFold(t.Key, d.Name) {
			return t, true
		}
	}
	if d.Language != nil {
		for _, t := range q.Texts {
			if strings.EqualFold(t.Key, d.Language.Name) {
				return t, true
			}
		}
	}
	return Text{}, false
}

// Check refuses, before anything runs, a file that cannot run on the
// target: no language, a query without text for it, or (queryOnly) a
// parameter drawn from data the run does not write.
func (f *File) Check(d *targets.Driver, queryOnly bool) error {
	if d.Language == nil {
		return badinput.Errorf("QUERY_FILE = %q: the %s target runs no query text of its own (targets that do: %s)",
			f.Path, d.Name, strings.Join(WithLanguage(), ", "))
	}
	for _, q := range f.Queries {
		if _, ok := q.For(d); !ok {
			return badinput.Errorf("%s:%d: query %s has no text for target %s: add a key %q (its language) or %q",
				f.Path, q.Line, q.Name, d.Name, d.Language.Name, d.Name)
		}
		if !queryOnly {
			continue
		}
		for _, p := range q.Params {
			if p.NeedsData() {
				return badinput.Errorf("%s:%d: query %s: parameter %s is a %s, drawn from the data tsbench writes; "+
					"a query-only run (QUERY_ONLY) writes none: use from \"QUERY\", int, choice or zipf", f.Path, p.Line, q.Name, p.Name, p.Kind)
			}
		}
	}
	return nil
}

// Names are the queries' names, in the file's order.
func (f *File) Names() []string {
	out := make([]string, len(f.Queries))
	for i, q := range f.Queries {
		out[i] = q.Name
	}
	return out
}

// Weights are the queries' weights, in the file's order.
func (f *File) Weights() []int64 {
	out := make([]int64, len(f.Queries))
	for i, q := range f.Queries {
		out[i] = q.Weight
	}
	return out
}

// Languages lists the query languages of the registered targets.
func Languages() []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range targets.Drivers() {
		if d.Language != nil && !seen[d.Language.Name] {
			seen[d.Language.Name] = true
			out = append(out, d.Language.Name)
		}
	}
	sort.Strings(out)
	return out
}

// WithLanguage lists the targets that run own queries.
func WithLanguage() []string {
	var out []string
	for _, d := range targets.Drivers() {
		if d.Language != nil {
			out = append(out, d.Name)
		}
	}
	return out
}

func knownKey(k string) bool {
	for _, d := range targets.Drivers() {
		if strings.EqualFold(d.Name, k) || d.Language != nil && strings.EqualFold(d.Language.Name, k) {
			return true
		}
	}
	// A text for a target this binary was built without (duckdb without
	// its build tag) is no typo: the file stays good for binaries with it.
	for _, l := range targets.LeftOuts() {
		if strings.EqualFold(l.Name, k) {
			return true
		}
	}
	return false
}

// mapValue is the value of key in a mapping node, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// onlyKeys refuses a key of n other than those allowed.
func onlyKeys(path string, n *yaml.Node, allowed ...string) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(allowed, k.Value) {
			return fmt.Errorf("%s:%d: unknown key %q (allowed: %s)", path, k.Line, k.Value, strings.Join(allowed, ", "))
		}
	}
	return nil
}
