package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tsbench/tsbench/internal/suggest"
	"github.com/tsbench/tsbench/internal/ts"
)

// proportionFields names the fields of a proportion key, in order: each
// field's names, the first being the one Print writes. A YAML mapping
// ({write: 1, Q1: 1}) says the same as the ':'-separated text that names
// nothing, with unnamed fields 0.
type proportionFields struct {
	names [][]string
	// short is how many leading fields make the short form; a mapping
	// naming none beyond them is written in it (the 6 types of
	// BOOLEAN:...:TEXT rather than 11).
	short int
}

var operationFields = func() proportionFields {
	names := [][]string{{"write", "INGESTION"}}
	for _, k := range ts.QueryKinds {
		names = append(names, []string{k.Short(), k.String()})
	}
	// Q11 and Q12 of newer IoT-benchmark releases: named so that a weight
	// of 0 is taken and another refused by the setter, as in the text form.
	names = append(names, []string{"Q11", "GROUP_BY_DESC"}, []string{"Q12", "SET_OPERATION"})
	return proportionFields{names: names, short: 11}
}()

var typeFields = proportionFields{
	names: [][]string{{"BOOLEAN"}, {"INT32"}, {"INT64"}, {"FLOAT"}, {"DOUBLE"}, {"TEXT"},
		{"STRING"}, {"BLOB"}, {"TIMESTAMP"}, {"DATE"}, {"OBJECT"}},
	short: 6,
}

// fieldsOf returns the named fields of a proportion key, or nil.
func fieldsOf(k *Key) *proportionFields {
	switch k.Name {
	case "OPERATION_PROPORTION":
		return &operationFields
	case "INSERT_DATATYPE_PROPORTION":
		return &typeFields
	}
	return nil
}

// index finds a field by any of its names, in any case.
func (p *proportionFields) index(name string) int {
	for i, names := range p.names {
		for _, n := range names {
			if strings.EqualFold(strings.TrimSpace(name), n) {
				return i
			}
		}
	}
	return -1
}

func (p *proportionFields) allowed() string {
	var out []string
	for _, names := range p.names {
		out = append(out, strings.Join(names, " or "))
	}
	return "names " + strings.Join(out, ", ") + " (any letter case), each with a non-negative weight"
}

func (p *proportionFields) all() []string {
	var out []string
	for _, names := range p.names {
		out = append(out, names...)
	}
	return out
}

// proportionText turns a YAML mapping of a proportion key into the
// ':'-separated text its setter parses. A name no field has, or two names
// of one field, is an *Error naming the key, the name and the names
// allowed.
func proportionText(k *Key, m *yaml.Node, file string) (string, error) {
	p := fieldsOf(k)
	weights := make([]string, len(p.names))
	given := make([]string, len(p.names))
	last := p.short
	for i := 0; i+1 < len(m.Content); i += 2 {
		name, v := m.Content[i], resolveAlias(m.Content[i+1])
		src := fmt.Sprintf("%s:%d", file, name.Line)
		f := p.index(name.Value)
		switch {
		case f < 0:
			reason := "no such name in the mapping"
			if s := suggest.Closest(name.Value, p.all()); s != "" {
				reason += fmt.Sprintf(" (did you mean %s?)", s)
			}
			return "", &Error{Source: src, Key: k.Name, Value: name.Value, Reason: reason, Allowed: p.allowed()}
		case given[f] != "":
			return "", &Error{Source: src, Key: k.Name, Value: name.Value,
				Reason: fmt.Sprintf("names the same field as %s: keep one", given[f])}
		case v.Kind != yaml.ScalarNode || isNull(v):
			return "", &Error{Source: src, Key: k.Name, Value: name.Value + ": <" + kindName(v.Kind) + ">",
				Reason: "each name takes one weight", Allowed: p.allowed()}
		}
		given[f], weights[f] = name.Value, strings.TrimSpace(v.Value)
		last = max(last, f+1)
	}
	if last > p.short {
		last = len(p.names) // the long form has every field
	}
	for i := range weights {
		if weights[i] == "" {
			weights[i] = "0"
		}
	}
	return strings.Join(weights[:last], ":"), nil
}

// proportionMap is a proportion as Print writes it in the flag vocabulary:
// a mapping of the fields with a weight, in field order.
func proportionMap(k *Key, text string) any {
	p := fieldsOf(k)
	fields := strings.Split(text, ":")
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i, w := range fields {
		if w == "0" || i >= len(p.names) {
			continue
		}
		m.Content = append(m.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: p.names[i][0]},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: w})
	}
	return m
}
