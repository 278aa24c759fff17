package config

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// LoadProperties reads an IoT-benchmark config.properties file into c,
// which normally starts as Default(). name labels messages (file:line).
//
// The syntax is Java's java.util.Properties: '#' and '!' start comment
// lines; a key ends at the first unescaped '=', ':' or whitespace, so
// "KEY=VALUE", "KEY: VALUE" and "KEY VALUE" all work; a line ending in an odd
// number of backslashes continues on the next line, whose leading
// whitespace is dropped; \t, \n, \uXXXX and other backslash escapes are
// decoded. As in Java, a '#' after a value is part of the value. Unlike Java,
// values are also trimmed at the end (even of an escaped blank), because a
// trailing blank in "LOOP=100 " is never meant.
//
// Unknown keys and keys tsbench accepts but does not use come back as
// warnings; every bad value is reported, joined into err (each an *Error).
func LoadProperties(c *Config, r io.Reader, name string) (warnings []string, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	entries, err := parseProperties(string(data), name)
	if err != nil {
		return nil, err
	}
	l := newFileLoader(c)
	for _, e := range dataClientsLast(entries) {
		l.assign(e.key, e.value, fmt.Sprintf("%s:%d", name, e.line))
	}
	return l.result()
}

// dataClientsLast moves DATA_CLIENT_NUMBER after every other key: in
// IoT-benchmark it wins over CLIENT_NUMBER wherever each stands in the
// file (CLIENT_NUMBER is only its fallback), while tsbench, which takes
// both as one key, would let the later line win.
func dataClientsLast(entries []propEntry) []propEntry {
	out := make([]propEntry, 0, len(entries))
	var last []propEntry
	for _, e := range entries {
		if strings.EqualFold(strings.TrimSpace(e.key), "DATA_CLIENT_NUMBER") {
			last = append(last, e)
			continue
		}
		out = append(out, e)
	}
	return append(out, last...)
}

// propEntry is one key/value pair and the line its logical line starts on.
type propEntry struct {
	line       int
	key, value string
}

// propSpace is what Java's Properties counts as whitespace.
const propSpace = " \t\f"

func parseProperties(text, name string) ([]propEntry, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.TrimPrefix(text, "\ufeff") // a BOM from Windows editors
	lines := strings.Split(text, "\n")
	var out []propEntry
	for i := 0; i < len(lines); i++ {
		start := i + 1
		s := strings.TrimLeft(lines[i], propSpace)
		if s == "" || s[0] == '#' || s[0] == '!' {
			continue // comment lines cannot be continued, as in Java
		}
		for continued(s) {
			s = s[:len(s)-1]
			if i+1 >= len(lines) {
				break
			}
			i++
			s += strings.TrimLeft(lines[i], propSpace)
		}
		rawKey, rawValue := splitProperty(s)
		key, err := unescape(rawKey)
		if err == nil {
			var v string
			v, err = unescape(strings.TrimRight(rawValue, propSpace))
			if err == nil {
				out = append(out, propEntry{line: start, key: key, value: v})
				continue
			}
		}
		return nil, &Error{Source: fmt.Sprintf("%s:%d", name, start), Reason: err.Error()}
	}
	return out, nil
}

// continued reports whether a line ends in an odd number of backslashes,
// i.e. in a backslash that is not itself escaped.
func continued(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty splits a logical line into its raw (still escaped) key and
// value: the key ends at the first unescaped '=', ':' or whitespace; then
// whitespace, at most one '=' or ':', and whitespace again are skipped.
func splitProperty(s string) (key, value string) {
	end := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '=' || s[i] == ':' || strings.IndexByte(propSpace, s[i]) >= 0 {
			end = i
			break
		}
	}
	rest := strings.TrimLeft(s[end:], propSpace)
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], propSpace)
	}
	return s[:end], rest
}

// unescape decodes Java's escapes: \t \n \r \f, \uXXXX, and \x for any other
// x. A lone backslash at the very end disappears, as in Java.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) {
			break
		}
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf("malformed \\uXXXX escape in %q", s)
			}
			r, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf("malformed \\uXXXX escape in %q", s)
			}
			b.WriteRune(rune(r))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
