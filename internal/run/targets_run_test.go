package run

import "testing"

func TestAnswersHeadline(t *testing.T) {
	for _, c := range []struct {
		n, agree, design int
		want             string
	}{
		{3, 3, 0, "ok: every target's run passed its checks, and the answers of all 3 query-target pairs agree with prometheus's"},
		{3, 2, 1, "ok: every target's run passed its checks; the answers of 2 of 3 query-target pairs agree with prometheus's, " +
			"1 differ by design (a known difference of their engines)"},
		{4, 2, 1, "ok: every target's run passed its checks; the answers of 2 of 4 query-target pairs agree with prometheus's, " +
			"1 differ by design (a known difference of their engines), the others were not compared"},
		{4, 3, 0, "ok: every target's run passed its checks; the answers of 3 of 4 query-target pairs agree with prometheus's, the others were not compared"},
	} {
		if got := answersHeadline(c.n, c.agree, c.design, "prometheus"); got != c.want {
			t.Errorf("%d pairs, %d agree, %d by design:\n got %q\nwant %q", c.n, c.agree, c.design, got, c.want)
		}
	}
}
