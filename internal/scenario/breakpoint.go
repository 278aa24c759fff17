package scenario

import (
	"math"
	"sort"
)

// BreakPoint is a sustained drop in a throughput series.
type BreakPoint struct {
	Index  int     // first interval after the drop
	Before float64 // median throughput before it
	After  float64 // median throughput after it
}

// FindBreakPoint looks for the point where throughput drops and stays down,
// like the one the DAS study saw near 30 million events on MySQL. A split at
// index i counts when the median of everything after i is below drop times
// the median of everything before, and the same holds for the windows right
// around i (so a late slump is placed where it starts). Medians make it
// robust to the spikes that a noisy but flat series has. Series shorter than
// 2*minSide are never flagged.
func FindBreakPoint(xs []float64, drop float64, minSide int) (BreakPoint, bool) {
	n := len(xs)
	if minSide < 2 {
		minSide = 2
	}
	if n < 2*minSide {
		return BreakPoint{}, false
	}
	best, found := BreakPoint{}, false
	bestRatio := drop
	for i := minSide; i <= n-minSide; i++ {
		before, after := median(xs[:i]), median(xs[i:])
		if before <= 0 {
			continue
		}
		r := after / before
		w := minSide
		local := median(xs[i:min(n, i+w)]) / math.Max(median(xs[max(0, i-w):i]), 1e-300)
		if r < bestRatio && local < drop {
			best, bestRatio, found = BreakPoint{Index: i, Before: before, After: after}, r, true
		}
	}
	return best, found
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
