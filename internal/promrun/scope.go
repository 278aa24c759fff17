package promrun

import (
	"strings"

	"github.com/tsbench/tsbench/internal/targets/promql"
)

// Scope adds the matcher job="<job>" to every selector of the metrics
// named in expr, so that a query reads this run's series only: the
// metric names are node_exporter's, the same in every run, and a run
// within the hour before left series in the same time range.
func Scope(expr, job string, metrics map[string]bool) string {
	matcher := "job=" + promql.Quote(job)
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		if c == '"' || c == '\'' || c == '`' {
			end := stringEnd(expr, i)
			b.WriteString(expr[i:end])
			i = end
			continue
		}
		if !identStart(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i + 1
		for j < len(expr) && identPart(expr[j]) {
			j++
		}
		name := expr[i:j]
		b.WriteString(name)
		i = j
		if !metrics[name] {
			continue
		}
		k := j
		for k < len(expr) && expr[k] == ' ' {
			k++
		}
		if k < len(expr) && expr[k] == '{' {
			b.WriteString(expr[j:k+1] + matcher + ",")
			i = k + 1
		} else {
			b.WriteString("{" + matcher + "}")
		}
	}
	return b.String()
}

// stringEnd is the index after the string literal starting at i.
func stringEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && q != '`':
			j++
		case s[j] == q:
			return j + 1
		}
	}
	return len(s)
}

func identStart(c byte) bool {
	return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func identPart(c byte) bool { return identStart(c) || (c >= '0' && c <= '9') }
