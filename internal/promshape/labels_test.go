package promshape

import (
	"strconv"
	"testing"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

// A label value is quoted as strconv.Quote quotes it, whatever it holds.
func TestAppendQuotedIsStrconv(t *testing.T) {
	for _, v := range []string{"", "node", "10.0.0.1:9100", "a b~", `say "hi"`, `C:\path`, "tab\there", "line\n",
		"\x7f", "ünïcödé", "日本", "\xff\xfe", "emoji 🙂", " ", "~"} {
		if got, want := string(appendQuoted(nil, v)), strconv.Quote(v); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", v, got, want)
		}
	}
}

func TestKey(t *testing.T) {
	for _, c := range []struct {
		ls   []remotewrite.Label
		want string
	}{
		{nil, "{}"},
		{[]remotewrite.Label{{Name: remotewrite.MetricName, Value: "up"}}, "up{}"},
		{[]remotewrite.Label{{Name: remotewrite.MetricName, Value: "up"}, {Name: "instance", Value: "h:9100"}, {Name: "job", Value: "node"}},
			`up{instance="h:9100",job="node"}`},
		{[]remotewrite.Label{{Name: "a", Value: `x"y`}, {Name: "b", Value: "é"}}, `{a="x\"y",b="é"}`},
	} {
		if got := Key(c.ls); got != c.want {
			t.Errorf("Key(%v) = %s, want %s", c.ls, got, c.want)
		}
	}
}

// The slab's label sets are copies that share no room: growing one never
// writes over the next, and a set larger than a chunk gets one of its own.
func TestLabelSlab(t *testing.T) {
	var slab labelSlab
	ls := []remotewrite.Label{{Name: remotewrite.MetricName, Value: "up"}, {Name: "job", Value: "node"}}
	a := slab.clone(ls)
	b := slab.dropName(ls)
	a = append(a, remotewrite.Label{Name: "z", Value: "grown"})
	a[0].Value = "changed"
	if ls[0].Value != "up" || len(b) != 1 || b[0] != ls[1] || len(a) != 3 {
		t.Fatalf("source %v, clone %v, dropName %v", ls, a, b)
	}
	big := slab.grab(slabChunk + 1)
	next := slab.grab(2)
	if len(big) != slabChunk+1 || cap(big) != slabChunk+1 || len(next) != 2 || cap(next) != 2 {
		t.Errorf("grab: len %d cap %d, then len %d cap %d", len(big), cap(big), len(next), cap(next))
	}
}
