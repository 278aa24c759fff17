package monitor

import (
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// MergeWindow merges into s the samples samplesIn returns for its measured
// phase, a second wider on each side (the hosts' clocks and sampling ticks
// are not in step), and returns how many it merged. A run that never began
// measuring takes none, and samplesIn is not asked.
func MergeWindow(s *summary.Summary, samplesIn func(from, to time.Time) ([]summary.ResourceSample, error)) (int, error) {
	if s.MeasureStarted.IsZero() {
		return 0, nil
	}
	from := s.MeasureStarted.Add(-time.Second)
	to := s.MeasureStarted.Add(time.Duration(s.Elapsed*float64(time.Second)) + time.Second)
	samples, err := samplesIn(from, to)
	if err != nil {
		return 0, err
	}
	return Merge(s, samples), nil
}
