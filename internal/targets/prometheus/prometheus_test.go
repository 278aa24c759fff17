package prometheus

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/promql"
	"github.com/tsbench/tsbench/internal/ts"
)

// span selects a range exactly: as it is up to promql.MaxExactWindow, a
// second further back from START_TIME, and not at all beyond (pieces cuts
// such a range in windows it can select).
func TestSpanAndPieces(t *testing.T) {
	s := &ts.Schema{StartTime: 1_000_000}
	max := promql.MaxExactWindow
	for _, c := range []struct {
		start, end int64
		want       string
		ok         bool
	}{
		{1_000_000, 1_037_500, "[37500ms]", true},
		{1_000_005, 1_000_005 + max, promql.Window(max), true},
		{1_000_000, 1_000_000 + max + 1, promql.Window(max + 1001), true},
		{900_000, 1_000_000 + max + 1, promql.Window(max + 100_001 + 1000), true},
		{1_000_001, 1_000_001 + max + 1, "", false},
	} {
		if got, ok := span(s, c.start, c.end); got != c.want || ok != c.ok {
			t.Errorf("span(%d, %d) = %q, %v; want %q, %v", c.start, c.end, got, ok, c.want, c.ok)
		}
	}
	var got [][2]int64
	pieces(s, 1_000_001, 1_000_001+2*max+5, func(from, to int64, window string) error {
		if want, _ := span(s, from, to); window != want {
			t.Errorf("piece [%d, %d): window %s, want %s", from, to, window, want)
		}
		got = append(got, [2]int64{from, to})
		return nil
	})
	want := [][2]int64{{1_000_001, 1_000_001 + max}, {1_000_001 + max, 1_000_001 + 2*max}, {1_000_001 + 2*max, 1_000_001 + 2*max + 5}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("pieces = %v, want %v", got, want)
	}
}
