// Package dollarparams numbers a statement's ? placeholders the way
// PostgreSQL wants them ($1, $2, ...), for the code that writes its SQL once
// with ? for both PostgreSQL and the databases that take ? as it is (the
// results store, TPC-C).
package dollarparams

import (
	"strconv"
	"strings"
)

// Number replaces each ? of q, in order, by $1, $2, ... The statements
// given here never hold a literal question mark (in a string or a
// comment), which would be replaced too.
func Number(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
