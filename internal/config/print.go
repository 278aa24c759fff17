package config

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// Print writes the effective configuration as YAML: every key by its
// tsbench name where it has one (the flag's: clients, batch_size), else its
// YAML name, in table order, under comment headings, proportions as
// mappings ({write: 10, Q1: 1}), then the
// accepted-but-ignored keys that were set. Secrets show as "***". The
// output is itself a valid tsbench configuration: LoadYAML reads it back to
// the same Config, secrets aside. OP_MIN_INTERVAL shows -1 as written, with
// the resolved value in a comment.
func Print(c *Config, w io.Writer) error {
	root := &yaml.Node{Kind: yaml.MappingNode}
	group := ""
	for _, e := range shownEntries(c, true) {
		k := &yaml.Node{Kind: yaml.ScalarNode, Value: e.name}
		if e.group != group {
			k.HeadComment = e.group
			group = e.group
		}
		v := &yaml.Node{}
		if err := v.Encode(e.value); err != nil {
			return fmt.Errorf("printing %s: %w", e.name, err)
		}
		v.LineComment = e.comment
		root.Content = append(root.Content, k, v)
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root},
		HeadComment: "tsbench effective configuration (secrets shown as " + Redacted + ")"}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(spaceGroups(buf.Bytes()))
	return err
}

// spaceGroups puts a blank line before each group heading. A line starting
// with "# " at column 0 can only be a comment: values are indented or
// quoted by the encoder.
func spaceGroups(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var out bytes.Buffer
	for i, l := range lines {
		if i > 0 && bytes.HasPrefix(l, []byte("# ")) && len(bytes.TrimSpace(lines[i-1])) > 0 {
			out.WriteByte('\n')
		}
		out.Write(l)
	}
	return out.Bytes()
}

// Map returns the effective configuration as YAML name -> value (the
// IoT-benchmark names, as stored runs have always had them), secrets
// redacted, for the JSON summary. Values are strings, numbers, booleans and,
// for target_options, a map of strings.
func Map(c *Config) map[string]any {
	out := map[string]any{}
	for _, e := range shownEntries(c, false) {
		out[e.name] = e.value
	}
	return out
}

// FromMap rebuilds a configuration from what Map made of it (a stored
// run's configuration), source naming it in errors. Secrets are not in the
// map: a redacted password or token is left empty, for the caller to give.
func FromMap(m map[string]any, source string) (*Config, error) {
	text, err := yaml.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	c := Default()
	if _, err := LoadYAML(c, bytes.NewReader(text), source); err != nil {
		return nil, err
	}
	if c.Password == Redacted {
		c.Password = ""
	}
	if c.Token == Redacted {
		c.Token = ""
	}
	if err := Resolve(c); err != nil {
		return nil, err
	}
	return c, nil
}

// shown is one key as Print and Map show it.
type shown struct {
	group, name string
	value       any
	comment     string
}

const ignoredGroup = "Accepted for IoT-benchmark compatibility, not used"

// shownEntries lists the keys to show; own says in tsbench's vocabulary
// (Print) rather than IoT-benchmark's (Map).
func shownEntries(c *Config, own bool) []shown {
	var out []shown
	done := map[string]bool{}
	for i := range keyTable {
		k := &keyTable[i]
		switch {
		case k.Hidden:
		case k.Ignored != "":
			for _, name := range extraNames(c, k, done) {
				out = append(out, shown{group: k.Group, name: strings.ToLower(name), value: redact(name, c.Extra[name])})
			}
		case own && k.Name == "LOOP" && c.LoopUnbounded:
			// duration alone sets the run's length; a loop read back
			// would bound it again.
		case own:
			out = append(out, ownEntry(c, k))
		default:
			out = append(out, shown{group: k.Group, name: k.YAMLName(), value: shownValue(c, k), comment: comment(c, k)})
		}
	}
	// Extra entries no table key claims (put there by code) are shown too.
	for _, name := range sortedKeys(c.Extra) {
		if !done[name] {
			out = append(out, shown{group: ignoredGroup, name: strings.ToLower(name), value: redact(name, c.Extra[name])})
		}
	}
	return out
}

// extraNames lists the Config.Extra names an ignored key covers: itself, or
// for a family every name with its prefix, in order.
func extraNames(c *Config, k *Key, done map[string]bool) []string {
	var names []string
	for _, name := range sortedKeys(c.Extra) {
		match := name == k.Name || (k.family() && strings.HasPrefix(name, strings.TrimSuffix(k.Name, "*")))
		if match && !done[name] {
			done[name] = true
			names = append(names, name)
		}
	}
	return names
}

// ownEntry shows a key in tsbench's vocabulary. A run length given as a
// duration is shown as one (duration: 30s), which reads back to the same
// run: test_max_time would end it at LOOP too.
func ownEntry(c *Config, k *Key) shown {
	if k.Name == "TEST_MAX_TIME" && c.RunFor {
		k = lookup("DURATION")
	}
	e := shown{group: k.Group, name: k.PrintName(), value: shownValue(c, k), comment: comment(c, k)}
	if k.Name == "DURATION" {
		e.group, e.comment = lookup("TEST_MAX_TIME").Group, ""
	}
	if fieldsOf(k) != nil {
		e.value = proportionMap(k, fmt.Sprint(e.value))
	}
	return e
}

func shownValue(c *Config, k *Key) any {
	v := k.get(c)
	if s, ok := v.(string); ok && (k.Secret || isURLName(k.Name)) {
		return redact(k.Name, s)
	}
	return v
}

func comment(c *Config, k *Key) string {
	if k.Name == "OP_MIN_INTERVAL" && c.OpMinIntervalStep {
		return fmt.Sprintf("-1 = POINT_STEP (%d ms)", c.PointStep)
	}
	return k.unit
}
