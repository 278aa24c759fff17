package monitor

import (
	"errors"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

func TestMergeWindow(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := &summary.Summary{MeasureStarted: start, Elapsed: 10}
	var asked [2]time.Time
	n, err := MergeWindow(s, func(from, to time.Time) ([]summary.ResourceSample, error) {
		asked = [2]time.Time{from, to}
		return []summary.ResourceSample{{Hostname: "db", Time: start.Add(5 * time.Second)}, {Hostname: "db", Time: start.Add(time.Minute)}}, nil
	})
	if err != nil || n != 1 {
		t.Errorf("merged %d, %v; want the one sample in the phase", n, err)
	}
	if !asked[0].Equal(start.Add(-time.Second)) || !asked[1].Equal(start.Add(11*time.Second)) {
		t.Errorf("asked for %v", asked)
	}
	boom := errors.New("boom")
	if _, err := MergeWindow(s, func(time.Time, time.Time) ([]summary.ResourceSample, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("error: %v", err)
	}
	if n, err := MergeWindow(&summary.Summary{}, nil); n != 0 || err != nil {
		t.Errorf("a run that never measured: %d %v", n, err)
	}
}
