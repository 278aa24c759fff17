package findmax

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tsbench/tsbench/internal/summary"
)

// Write prints the search: each step's offered and achieved rate, its
// latencies and verdict, then the highest sustainable rate.
func Write(w io.Writer, fm *summary.FindMax) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Find max: %s (each step held %s s, then measured %s s, up to %s s to complete %d operations; "+
		"a step also fails %.0f %% short of its rate)\n",
		strings.Join(fm.Objectives, ", "), trim(fm.SettleS), trim(fm.MeasureS), trim(max(fm.MaxMeasureS, fm.MeasureS)),
		fm.MinOperations, fm.MaxShortfall*100)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "Step\tOffered ops/s\tAchieved ops/s\tMeasured s\tOperations\tp50 ms\tp99 ms\t\tResult\n")
	for i, st := range fm.Steps {
		verdict := "pass"
		if !st.Passed {
			verdict = "fail: " + strings.Join(st.Reasons, "; ")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%.2f\t%.2f\t\t%s\n", i+1, Offered(st.Offered), Rate(st.Achieved),
			trim(st.MeasuredS), st.Operations, st.P50MS, st.P99MS, verdict)
	}
	tw.Flush()
	b.WriteString(Conclusion(fm) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Offered names a step's offered rate.
func Offered(rate float64) string {
	if rate <= 0 {
		return "closed loop"
	}
	return Rate(rate)
}

// Conclusion is the search's answer in one line.
func Conclusion(fm *summary.FindMax) string {
	if !fm.Found {
		return noneFound(fm)
	}
	best := fm.Steps[fm.Best]
	text := fmt.Sprintf("Highest sustainable rate: %s ops/s (%s p50 %.2f ms, p99 %.2f ms; run %s)",
		Rate(fm.Rate), best.Operation, best.P50MS, best.P99MS, best.RunID)
	switch {
	case fm.Bracketed:
		return text + fmt.Sprintf(", within %.0f %%: %s ops/s failed", fm.Precision*100, Rate(lowestFailing(fm)))
	case fm.Floor > 0:
		return text + fmt.Sprintf(", not bracketed: %s", floorText(fm))
	}
	return text + ", not bracketed: the search ran out of steps (FIND_MAX_STEPS) before a rate failed within the precision"
}

// noneFound says why no rate was found: the server's periodic work broke
// the objective at every rate, the rates low enough were too slow to
// measure, or no step met the objectives.
func noneFound(fm *summary.FindMax) string {
	if lowest, ok := periodic(fm); ok {
		b := fm.Steps[len(fm.Steps)-1].Bursts
		return fmt.Sprintf("Highest sustainable rate: none: at every rate offered, down to %s ops/s, the objective broke in "+
			"recurring bursts (the last step: %s) while most seconds met it: the server's periodic work "+
			"(checkpoints, flushes, compactions), not the rate, breaks it", Rate(lowest), burstText(b))
	}
	if fm.Floor > 0 {
		return "Highest sustainable rate: none: no step met every objective; " + floorText(fm)
	}
	return "Highest sustainable rate: none: no step met every objective"
}

func floorText(fm *summary.FindMax) string {
	return fmt.Sprintf("the search stopped at %s ops/s, where a step measured %s s (FIND_MAX_MAX_MEASURE) completes "+
		"too few operations to tell (%d needed; FIND_MAX_MIN_OPS)", Rate(fm.Floor), trim(fm.MaxMeasureS), fm.MinOperations)
}

func lowestFailing(fm *summary.FindMax) float64 {
	low := math.Inf(1)
	for _, st := range fm.Steps {
		if !st.Passed && st.Offered > fm.Rate {
			low = min(low, st.Offered)
		}
	}
	return low
}

func trim(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") }
