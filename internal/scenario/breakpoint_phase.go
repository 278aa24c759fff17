package scenario

import (
	"fmt"
	"io"

	"github.com/tsbench/tsbench/internal/summary"
)

// BreakPointResult is the search of a phase for a sustained ingest
// slowdown.
type BreakPointResult struct {
	Phase      string  `json:"phase"`
	Repetition int     `json:"repetition"`
	Seconds    int     `json:"seconds_searched"`
	Found      bool    `json:"found"`
	AtSecond   float64 `json:"at_s,omitempty"`
	AfterUnits float64 `json:"after_units,omitempty"` // events (or points) sent before the drop
	Before     float64 `json:"rate_before,omitempty"`
	After      float64 `json:"rate_after,omitempty"`
	Unit       string  `json:"unit"`
}

// BreakPointOf searches the per-second series of p's run s for a drop of
// 30 % or more that lasts, in p's unit.
func BreakPointOf(s *summary.Summary, p Phase) BreakPointResult {
	per := p.PerUnit
	if per == 0 {
		per = 1
	}
	unit := p.Published.Unit
	if unit == "" {
		unit = "points/s"
	}
	var rates, cum []float64
	var total float64
	for _, iv := range s.Intervals {
		var pts float64
		for _, o := range iv.Ops {
			if o.Name == p.Operation {
				pts += float64(o.OKPoints)
			}
		}
		if iv.Seconds > 0 {
			rates = append(rates, pts/per/iv.Seconds)
			cum = append(cum, total)
		}
		total += pts / per
	}
	r := BreakPointResult{Seconds: len(rates), Unit: unit}
	bp, ok := FindBreakPoint(rates, 0.7, max(5, len(rates)/10))
	if ok {
		r.Found, r.AtSecond, r.AfterUnits, r.Before, r.After = true, s.Intervals[bp.Index].Start, cum[bp.Index], bp.Before, bp.After
	}
	return r
}

// Print says in one line what the search found.
func (b BreakPointResult) Print(w io.Writer) {
	if b.Found {
		fmt.Fprintf(w, "Break point: throughput fell from %.0f to %.0f %s at %.0f s, after %.0f sent\n",
			b.Before, b.After, b.Unit, b.AtSecond, b.AfterUnits)
		return
	}
	fmt.Fprintf(w, "Break point: none (no sustained drop of 30%% or more in %d s of %s)\n", b.Seconds, b.Phase)
}
