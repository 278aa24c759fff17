package findmax

import (
	"fmt"
	"sort"

	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/threshold"
)

// burstsOf looks, in a step that broke a latency bound (OP.pXX < V), for
// the seconds in which OP's slowest operation took longer than V. When
// they are a minority of the step's seconds and recur (two bursts or
// more), something periodic in the server broke the objective (a
// checkpoint, a flush, a compaction) while its other seconds stayed
// within: lower rates will not meet it either. Nil otherwise.
func burstsOf(run *summary.Summary, o threshold.Threshold) *summary.Bursts {
	if !o.Latency() || (o.Op != "<" && o.Op != "<=") {
		return nil
	}
	b := &summary.Bursts{AboveMS: o.Value}
	var starts []float64
	inBurst := false
	for _, iv := range run.Intervals {
		var op *summary.IntervalOp
		for i := range iv.Ops {
			if iv.Ops[i].Name == o.Operation {
				op = &iv.Ops[i]
			}
		}
		if op == nil || op.OKOps == 0 {
			inBurst = false
			continue
		}
		b.OfSeconds++
		slow := op.MaxMS > o.Value
		if slow {
			b.Seconds++
			b.MaxMS = max(b.MaxMS, op.MaxMS)
			if !inBurst {
				starts = append(starts, iv.Start)
			}
		}
		inBurst = slow
	}
	b.Count = len(starts)
	if b.Count < 2 || 2*b.Seconds > b.OfSeconds {
		return nil
	}
	gaps := make([]float64, 0, len(starts)-1)
	for i := 1; i < len(starts); i++ {
		gaps = append(gaps, starts[i]-starts[i-1])
	}
	sort.Float64s(gaps)
	b.EveryS = gaps[len(gaps)/2]
	return b
}

// burstText describes a step's bursts in a reason.
func burstText(b *summary.Bursts) string {
	return fmt.Sprintf("%d bursts above %.4g ms in %d of %d s, about every %.1f s, the slowest %.4g ms",
		b.Count, b.AboveMS, b.Seconds, b.OfSeconds, b.EveryS, b.MaxMS)
}

// periodic reports whether every step the search offered a rate failed
// with bursts, and returns the lowest such rate: the objective is broken
// by the server's periodic work at any rate tried, not by the load.
func periodic(fm *summary.FindMax) (lowest float64, ok bool) {
	lowest = -1
	for _, st := range fm.Steps {
		if st.Offered <= 0 {
			continue
		}
		if st.Passed || st.Bursts == nil {
			return 0, false
		}
		if lowest < 0 || st.Offered < lowest {
			lowest = st.Offered
		}
	}
	return lowest, lowest > 0
}
