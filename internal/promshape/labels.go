package promshape

import (
	"strconv"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Key renders labels sorted by name as PromQL writes a series,
// name{a="b",...} (a series without __name__ as {a="b",...}): a map key
// and what a checker compares a database's answer by.
func Key(ls []remotewrite.Label) string { return string(appendKey(nil, ls, true)) }

// appendKey appends Key of the labels, or of the labels without __name__
// (dropName) when named is false, made without them. The evaluation
// builds its keys in a buffer it reuses and looks maps up by
// string(buf), which Go does without copying: a string is made only for
// a key a map keeps.
func appendKey(b []byte, ls []remotewrite.Label, named bool) []byte {
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
	return append(b, '}')
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
