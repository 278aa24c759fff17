package promshape

import (
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// Key renders labels sorted by name as PromQL writes a series,
// name{a="b",...} (a series without __name__ as {a="b",...}): a map key
// and what a checker compares a database's answer by.
func Key(ls []remotewrite.Label) string {
	var b strings.Builder
	for _, l := range ls {
		if l.Name == remotewrite.MetricName {
			b.WriteString(l.Value)
		}
	}
	b.WriteByte('{')
	n := 0
	for _, l := range ls {
		if l.Name == remotewrite.MetricName {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(l.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(l.Value))
	}
	b.WriteByte('}')
	return b.String()
}
