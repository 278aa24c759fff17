package targets

import (
	"math"
	"testing"
	"time"
)

func TestJSONLiteral(t *testing.T) {
	stars := func(s string) string { return JSONString("<" + s + ">") }
	for _, c := range []struct {
		v    any
		str  func(string) string
		want string
	}{
		{`d"0\<&>`, JSONString, `"d\"0\\<&>"`},
		{"tab\there", JSONString, `"tab\there"`},
		{"x", stars, `"<x>"`},
		{int64(-42), JSONString, "-42"},
		{2.5, JSONString, "2.5"},
		{math.NaN(), JSONString, "null"},
		{math.Inf(-1), JSONString, "null"},
		{time.UnixMilli(1640966400123), JSONString, "1640966400123"},
		{true, JSONString, "true"},
		{[]string{"a"}, JSONString, `["a"]`},
	} {
		if got := JSONLiteral(c.v, c.str); got != c.want {
			t.Errorf("JSONLiteral(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}
