package workload

import (
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/ts"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// tsbsPhase is a TSBS query phase's configuration, as the tsbs-* scenarios
// give it.
func tsbsPhase(t *testing.T, useCase, phase string) *config.Config {
	t.Helper()
	c := config.Default()
	for k, v := range map[string]string{"TSBS_USE_CASE": useCase, "TSBS_PHASE": phase, "TSBS_SCALE": "12",
		"TSBS_LOG_INTERVAL": "10s", "TSBS_START": "2016-01-01T00:00:00Z", "TSBS_END": "2016-01-02T00:00:00Z",
		"TSBS_QUERIES": "40", "CLIENT_NUMBER": "2"} {
		if err := config.Set(c, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := tsbs.Apply(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// last-loc asks, as TSBS's, every truck of one fleet drawn per query: each
// query's trucks are exactly one fleet's, and the draws reach several
// fleets.
func TestTSBSLastLocAsksOneFleet(t *testing.T) {
	c := tsbsPhase(t, "iot", "last-loc")
	s := Schema(c)
	fleetOf := func(d *ts.Device) string {
		for _, tg := range d.Tags {
			if tg.Key == "fleet" {
				return tg.Value
			}
		}
		return ""
	}
	trucks := map[string]int{}
	for i := range s.Devices {
		trucks[fleetOf(&s.Devices[i])]++
	}
	asked := map[string]bool{}
	q := NewQueries(c, s, 0)
	var dst ts.Query
	for range 40 {
		q.Next(ts.LatestPoint, &dst)
		f := fleetOf(dst.Devices[0])
		for _, d := range dst.Devices {
			if fleetOf(d) != f {
				t.Fatalf("one query asks trucks of fleets %s and %s", f, fleetOf(d))
			}
		}
		if len(dst.Devices) != trucks[f] {
			t.Fatalf("fleet %s: %d trucks asked of its %d", f, len(dst.Devices), trucks[f])
		}
		asked[f] = true
	}
	if len(asked) < 2 {
		t.Errorf("40 queries asked %d fleet(s) of %d", len(asked), len(trucks))
	}
}

// A TSBS query phase draws each window's start at random within the data,
// as TSBS's RandWindow, and asks [s, e) with buckets on the clock as TSBS
// does, whatever the kind (high-cpu's VALUE_RANGE too): every window ends
// by TSBS_END, and the starts are not a few repeated ones.
func TestTSBSWindowsDrawn(t *testing.T) {
	for _, tc := range []struct {
		phase string
		kind  ts.QueryKind
	}{{"single-groupby-1-1-1", ts.GroupBy}, {"high-cpu-1", ts.ValueRange}} {
		c := tsbsPhase(t, "cpu-only", tc.phase)
		s := Schema(c)
		end := s.StartTime + 86_400_000
		starts := map[int64]bool{}
		q := NewQueries(c, s, 1)
		var dst ts.Query
		for range 40 {
			q.Next(tc.kind, &dst)
			if !dst.ClockBuckets {
				t.Fatalf("%s: buckets from the window's start, want TSBS's on the clock", tc.phase)
			}
			if dst.Start < s.StartTime || dst.End != dst.Start+c.QueryInterval || dst.End > end {
				t.Fatalf("%s: window [%d, %d) is not [s, s+%d) within the data [%d, %d)", tc.phase, dst.Start, dst.End,
					c.QueryInterval, s.StartTime, end)
			}
			starts[dst.Start] = true
		}
		if len(starts) < 38 {
			t.Errorf("%s: 40 windows start at %d times", tc.phase, len(starts))
		}
	}
}
