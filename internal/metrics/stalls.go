package metrics

import (
	"slices"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// shortInterval is the length under which an interval decides nothing
// about a stall: the last one of a run is often a sliver, and its rate is
// noise.
const shortInterval = 0.5

// Stalls lists the stretches of a run's per-second series where the rate of
// completed operations (every kind, succeeded or failed) stayed below frac
// times the run's median rate for at least minLen. Each says how many of
// the run's operations it held; see summary.Stall.
func Stalls(ivs []summary.Interval, minLen time.Duration, frac float64) []summary.Stall {
	rates := make([]float64, len(ivs))
	var full []float64
	var total int64
	for i, iv := range ivs {
		n := completed(iv)
		total += n
		rates[i] = -1
		if iv.Seconds >= shortInterval {
			rates[i] = float64(n) / iv.Seconds
			full = append(full, rates[i])
		}
	}
	if len(full) == 0 || total == 0 {
		return nil
	}
	median, longest := medianOf(full), maxLatencyMS(ivs)
	low := func(i int) bool { return rates[i] >= 0 && rates[i] < frac*median }
	var out []summary.Stall
	for i := 0; i < len(ivs); {
		if !low(i) {
			i++
			continue
		}
		j := i
		for j < len(ivs) && low(j) {
			j++
		}
		s := stallOf(ivs, i, j, median, total, longest)
		// Interval lengths wobble around a second with the ticker.
		if s.Seconds >= minLen.Seconds()-0.05 {
			out = append(out, s)
		}
		i = j
	}
	return out
}

// stallOf describes the stall made of intervals [i, j).
func stallOf(ivs []summary.Interval, i, j int, median float64, total int64, longestMS float64) summary.Stall {
	start := ivs[i].Start
	end := ivs[j-1].Start + ivs[j-1].Seconds
	s := summary.Stall{Start: start, Seconds: end - start, MedianOpsPerSecond: median, AtEnd: true}
	var inside int64
	for k := i; k < j; k++ {
		inside += completed(ivs[k])
		for _, o := range ivs[k].Ops {
			s.MaxMS = max(s.MaxMS, o.MaxMS)
		}
	}
	s.OpsPerSecond = float64(inside) / s.Seconds
	held := inside
	for k := j; k < len(ivs); k++ {
		if ivs[k].Seconds >= shortInterval {
			s.AtEnd = false
		}
		// An operation completed by the end of interval k overlapped the
		// stall for certain when its latency is longer than the time from
		// the stall's end to that interval's end.
		since := ivs[k].Start + ivs[k].Seconds - end
		n, longest := longerThan(ivs[k], since)
		if since*1000 > longestMS {
			break
		}
		held += n
		s.MaxMS = max(s.MaxMS, longest)
	}
	s.HeldOperations = held
	s.Share = float64(held) / float64(total)
	return s
}

// completed counts the operations that ended in iv.
func completed(iv summary.Interval) int64 {
	var n int64
	for _, o := range iv.Ops {
		n += o.OKOps + o.FailOps
	}
	return n
}

// longerThan counts iv's succeeded operations whose latency was surely
// longer than sec seconds (whole histogram buckets above it), with the
// longest of them.
func longerThan(iv summary.Interval, sec float64) (n int64, longestMS float64) {
	limit := int64(sec * 1e6)
	for _, o := range iv.Ops {
		if o.MaxMS*1000 <= float64(limit) || o.Histogram == "" {
			continue
		}
		h, err := Decode(o.Histogram)
		if err != nil {
			continue
		}
		for _, b := range h.Distribution() {
			if b.From > limit {
				n += b.Count
			}
		}
		longestMS = max(longestMS, o.MaxMS)
	}
	return n, longestMS
}

func maxLatencyMS(ivs []summary.Interval) float64 {
	var m float64
	for _, iv := range ivs {
		for _, o := range iv.Ops {
			m = max(m, o.MaxMS)
		}
	}
	return m
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
