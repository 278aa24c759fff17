package promshape

import (
	"strconv"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Key renders labels sorted by name as PromQL writes a series,
// name{a="b",...} (a series without __name__ as {a="b",...}): a map key
// and what a checker compares a database's answer by.
func Key(ls []remotewrite.Label) string { return key(ls, true) }

// unnamedKey is Key of the labels without __name__ (dropName), made
// without them.
func unnamedKey(ls []remotewrite.Label) string { return key(ls, false) }

func key(ls []remotewrite.Label, named bool) string {
	n := 2
	for _, l := range ls {
		n += len(l.Name) + len(l.Value) + 4
	}
	b := make([]byte, 0, n)
	for _, l := range ls {
		if named && l.Name == remotewrite.MetricName {
			b = append(b, l.Value...)
		}
	}
	b = append(b, '{')
	first := true
	for _, l := range ls {
		if l.Name == remotewrite.MetricName {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, l.Name...)
		b = append(b, '=')
		b = appendQuoted(b, l.Value)
	}
	b = append(b, '}')
	return string(b)
}

// appendQuoted appends v quoted as strconv.Quote quotes it: as it is,
// between double quotes, where it is printable ASCII without a quote or a
// backslash (every value the model writes), else by strconv.
func appendQuoted(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, v)
		}
	}
	b = append(b, '"')
	b = append(b, v...)
	return append(b, '"')
}
