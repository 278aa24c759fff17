package scenario

import (
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// A TSBS query type's row is in queries per second (its queries over the
// phase's time, as TSBS's runner reports them), not the points of its
// answers; the load's stays in points per second.
func TestTSBSQueryRowsAreQueriesPerSecond(t *testing.T) {
	s, err := Lookup("tsbs-cpu-only")
	if err != nil {
		t.Fatal(err)
	}
	measured := make([][]Measurement, len(s.Phases))
	for i, p := range s.Phases {
		if p.Name == "load" || p.Name == "lastpoint" {
			measured[i] = []Measurement{{Seconds: 2, Points: 4000, Operations: 40}}
		}
	}
	want := map[string]struct {
		unit string
		rate float64
	}{"load": {summary.UnitPoints, 2000}, "lastpoint": {summary.UnitQueries, 20}}
	rows := s.Table("", "sqlite", 1, measured, 2)
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want one for load and one for lastpoint", rows)
	}
	for _, r := range rows {
		if w := want[r.Phase]; r.Unit != w.unit || r.Rate.Mean != w.rate {
			t.Errorf("%s: %g %s, want %g %s", r.Phase, r.Rate.Mean, r.Unit, w.rate, w.unit)
		}
	}
}
