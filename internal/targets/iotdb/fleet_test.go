package iotdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/ts"
)

// IoTDB's GROUP BY windows start at the given start: a window that starts
// inside a period groups from that period's epoch-aligned start, and WHERE
// keeps the rows to [Start, End). (TestFleetQuestions checks the answers
// on the real server; with the window's own start as the GROUP BY's, the
// long-session questions at 07:00:30 count one driving period too few.)
func TestFleetPeriods(t *testing.T) {
	f := &fleetSQL{q: &ts.Query{Start: 1_451_631_630_000, End: 1_451_646_030_000}, from: []string{"root.t.trucks.truck_0"}}
	got := f.statement([]string{"count(velocity)"}, f.window()+f.periods()+" HAVING avg(velocity) > 1")
	want := "SELECT count(velocity) FROM root.t.trucks.truck_0 WHERE time >= 1451631630000 AND time < 1451646030000" +
		" GROUP BY ([1451631600000, 1451646030000), 600000ms) HAVING avg(velocity) > 1 ALIGN BY DEVICE"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, c := range []struct{ t, want int64 }{{0, 0}, {599_999, 0}, {600_000, 600_000}, {-1, -600_000}, {-600_000, -600_000}} {
		if got := fleet.Floor(c.t, 600_000); got != c.want {
			t.Errorf("fleet.Floor(%d) = %d, want %d", c.t, got, c.want)
		}
	}
}
