package config

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// LoadYAML reads a tsbench YAML configuration into c, which normally starts
// as Default(). name labels messages (file:line).
//
// The document is one mapping. Keys are matched without regard to case
// against YAML names (device_number), canonical names (DEVICE_NUMBER) and
// aliases (target). Scalar values are taken as written and parsed by the
// key table, exactly as a .properties value would be, so YAML's own typing
// (yes/no, 0x10, timestamps) never changes a value behind the user's back.
// Keys may also be given by their tsbench names, the flags' (clients,
// batch_size or batch-size); a file giving one setting under both names
// is refused. Proportions may also be written as sequences, or as
// mappings of names to weights ({write: 1, Q1: 1}, {DOUBLE: 1});
// tag cardinalities as sequences; target_options is a mapping of strings.
//
// Unknown keys come back as warnings; every bad value is reported, joined
// into err (each an *Error).
func LoadYAML(c *Config, r io.Reader, name string) (warnings []string, err error) {
	root, err := decodeYAML(r, name)
	if err != nil || root == nil {
		return nil, err
	}
	l := newFileLoader(c)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolveAlias(root.Content[i+1])
		src := fmt.Sprintf("%s:%d", name, k.Line)
		if isTargetOptions(k.Value) && v.Kind == yaml.MappingNode {
			loadTargetOptions(l, v, name)
			continue
		}
		if key := lookup(k.Value); key != nil && fieldsOf(key) != nil && v.Kind == yaml.MappingNode {
			text, err := proportionText(key, v, name)
			if err != nil {
				l.errs = append(l.errs, err)
				continue
			}
			l.assign(k.Value, text, src)
			continue
		}
		if isNull(v) {
			l.errs = append(l.errs, nullValue(k.Value, v, src))
			continue
		}
		text, ok := yamlText(v, listSeparator(k.Value))
		if !ok {
			l.errs = append(l.errs, notScalar(k.Value, v, src))
			continue
		}
		l.assign(k.Value, text, src)
	}
	return l.result()
}

// decodeYAML returns the top-level mapping, or nil for an empty document.
func decodeYAML(r io.Reader, name string) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, &Error{Source: name, Reason: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &Error{Source: name, Reason: "want one YAML document, found more"}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := resolveAlias(doc.Content[0])
	switch {
	case root.Kind == yaml.MappingNode:
		return root, nil
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return nil, nil
	}
	return nil, &Error{Source: fmt.Sprintf("%s:%d", name, root.Line),
		Reason: "the configuration must be a mapping of keys to values, not a " + kindName(root.Kind)}
}

func loadTargetOptions(l *fileLoader, m *yaml.Node, name string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], resolveAlias(m.Content[i+1])
		src := fmt.Sprintf("%s:%d", name, k.Line)
		if isNull(v) {
			l.errs = append(l.errs, nullValue("target."+k.Value, v, src))
			continue
		}
		text, ok := yamlText(v, "")
		if !ok {
			l.errs = append(l.errs, notScalar("target."+k.Value, v, src))
			continue
		}
		l.assign("target."+k.Value, text, src)
	}
}

func isTargetOptions(name string) bool {
	k := lookup(name)
	return k != nil && k.Name == "TARGET_OPTIONS"
}

// listSeparator is the separator a key's YAML sequence is joined with, or
// "" when the key takes no sequence.
func listSeparator(name string) string {
	if k := lookup(name); k != nil {
		return k.listSep
	}
	return ""
}

// yamlText turns a value node into the text a setter parses: a scalar as
// written (null as ""), a sequence of scalars joined with sep when the key
// takes one.
func yamlText(v *yaml.Node, sep string) (string, bool) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return "", true
		}
		return v.Value, true
	case yaml.SequenceNode:
		if sep == "" {
			return "", false
		}
		parts := make([]string, len(v.Content))
		for i, e := range v.Content {
			e = resolveAlias(e)
			if e.Kind != yaml.ScalarNode {
				return "", false
			}
			parts[i] = e.Value
		}
		return strings.Join(parts, sep), true
	}
	return "", false
}

// isNull reports a value written as YAML's null (null, Null, NULL, ~). YAML
// reads it as "no value", which would quietly become "" or a default; an
// empty value (key:) is taken as "" on purpose and is not null here.
func isNull(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Value != "" && v.Style == 0
}

func nullValue(key string, v *yaml.Node, src string) *Error {
	return &Error{Source: src, Key: canonical(key), Value: v.Value,
		Reason: fmt.Sprintf("YAML reads %s as no value; to mean the text, quote it (%s: \"%s\"); "+
			"for the default, leave the key out", v.Value, key, v.Value)}
}

func notScalar(key string, v *yaml.Node, src string) *Error {
	return &Error{Source: src, Key: canonical(key), Value: "<" + kindName(v.Kind) + ">",
		Reason: "must be a single value"}
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		return "single value"
	}
	return "YAML node"
}
