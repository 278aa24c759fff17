package summary

import "testing"

func TestJudge(t *testing.T) {
	cases := []struct {
		name                     string
		expected, inDoubt, store int64
		ok                       bool
	}{
		{"exact", 100, 0, 100, true},
		{"one lost", 100, 0, 99, false},
		{"one extra", 100, 0, 101, false},
		{"in doubt, none kept", 100, 50, 100, true},
		{"in doubt, all kept", 100, 50, 150, true},
		{"in doubt, part kept", 100, 50, 120, true},
		{"more than in doubt", 100, 50, 151, false},
		{"in doubt does not excuse a loss", 100, 50, 99, false},
	}
	for _, c := range cases {
		v := &Verify{ExpectedPoints: c.expected, InDoubtPoints: c.inDoubt}
		v.Judge(c.store)
		if v.OK != c.ok || v.StoredPoints != c.store {
			t.Errorf("%s: Judge(%d) gave OK %v, stored %d; want OK %v", c.name, c.store, v.OK, v.StoredPoints, c.ok)
		}
		if v.Mismatch() == c.ok {
			t.Errorf("%s: Mismatch() = %v with OK %v", c.name, v.Mismatch(), v.OK)
		}
	}
}
