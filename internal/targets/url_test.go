package targets

import (
	"testing"
)

func TestSplitHostPort(t *testing.T) {
	for in, want := range map[string][2]any{
		"h": {"h", 0}, "h:5433": {"h", 5433}, "[::1]:8428": {"::1", 8428}, "::1": {"::1", 0}, "[::1]": {"::1", 0},
	} {
		h, p := SplitHostPort(in)
		if h != want[0] || p != want[1] {
			t.Errorf("SplitHostPort(%q) = %q, %d; want %v", in, h, p, want)
		}
	}
}

// A host list gives one Options per host, a port in the list overriding
// PORT; HostPort of the whole list is the first host's.
func TestPerHost(t *testing.T) {
	o := Options{Host: "a:5433, b,[::1]:7", Port: 5432, User: "u"}
	got := o.PerHost()
	want := [][2]any{{"a", 5433}, {"b", 5432}, {"::1", 7}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i, w := range want {
		if got[i].Host != w[0] || got[i].Port != w[1] || got[i].User != "u" {
			t.Errorf("host %d: %+v, want %v", i, got[i], w)
		}
	}
	if h, p := o.HostPort(1); h != "a" || p != 5433 {
		t.Errorf("HostPort of a list: %s %d", h, p)
	}
	if one := (Options{Host: "db", Port: 9}).PerHost(); len(one) != 1 || one[0].Host != "db" || one[0].Port != 9 {
		t.Errorf("one host: %+v", one)
	}
}
