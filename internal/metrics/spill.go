package metrics

import (
	"os"
	"runtime"

	"github.com/tsbench/tsbench/internal/summary"
)

// spill keeps the closed intervals' histograms in an unlinked temporary
// file instead of the heap. Each second adds one compressed histogram per
// operation kind — about 30 KB a second for the eleven time-series kinds —
// which over a ten-minute run would be the one thing that grows; on disk
// (in the page cache) it costs the process nothing. They are read back
// once, for the summary. Without a temporary directory they stay in memory.
type spill struct {
	f      *os.File
	off    int64
	failed bool // no file could be made: keep histograms in memory
	spans  [][]span
}

// span is where one interval operation's histogram is in the file; n = 0:
// it was never written (empty, or kept in memory).
type span struct{ off, n int64 }

// keep stores iv's histograms and returns iv without them (in a copy: iv
// itself goes to the interval callback whole).
func (s *spill) keep(owner *Run, iv summary.Interval) summary.Interval {
	spans := make([]span, len(iv.Ops))
	ops := append([]summary.IntervalOp(nil), iv.Ops...)
	for i := range ops {
		h := ops[i].Histogram
		if h == "" || !s.open(owner) {
			continue
		}
		if _, err := s.f.WriteAt([]byte(h), s.off); err != nil {
			continue // kept in memory
		}
		spans[i] = span{s.off, int64(len(h))}
		s.off += int64(len(h))
		ops[i].Histogram = ""
	}
	s.spans = append(s.spans, spans)
	iv.Ops = ops
	return iv
}

// open makes the file on first use; it is removed at once, so that nothing
// is left behind whatever ends the process, and closed when owner is
// garbage.
func (s *spill) open(owner *Run) bool {
	if s.f != nil || s.failed {
		return s.f != nil
	}
	f, err := os.CreateTemp("", "tsbench-intervals-*")
	if err != nil {
		s.failed = true
		return false
	}
	os.Remove(f.Name())
	s.f = f
	runtime.AddCleanup(owner, func(f *os.File) { f.Close() }, f)
	return true
}

// restore returns the intervals with their histograms read back.
func (s *spill) restore(ivs []summary.Interval) []summary.Interval {
	out := append([]summary.Interval(nil), ivs...)
	for i := range out {
		if i >= len(s.spans) {
			break
		}
		ops := append([]summary.IntervalOp(nil), out[i].Ops...)
		for j, sp := range s.spans[i] {
			if sp.n == 0 {
				continue
			}
			b := make([]byte, sp.n)
			if _, err := s.f.ReadAt(b, sp.off); err == nil {
				ops[j].Histogram = string(b)
			}
		}
		out[i].Ops = ops
	}
	return out
}
