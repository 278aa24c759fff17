package targets

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestGroupName(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0", "g_1"}}
	cases := []struct {
		group int
		want  string
	}{
		{0, "g_0"},
		{1, "g_1"},
		{2, "fallback"},
		{-1, "fallback"},
	}
	for _, c := range cases {
		if got := GroupName(s, c.group, "fallback"); got != c.want {
			t.Errorf("GroupName(%d) = %q, want %q", c.group, got, c.want)
		}
	}
	if got := GroupName(&ts.Schema{}, 0, "points"); got != "points" {
		t.Errorf("without groups: %q, want the fallback", got)
	}
}
