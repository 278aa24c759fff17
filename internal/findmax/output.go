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
	fmt.Fprintf(&b, "Find max: %s (each step held %s s, then measured %s s; a step also fails %.0f %% short of its rate)\n",
		strings.Join(fm.Objectives, ", "), trim(fm.SettleS), trim(fm.MeasureS), fm.MaxShortfall*100)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "Step\tOffered ops/s\tAchieved ops/s\tp50 ms\tp99 ms\t\tResult\n")
	for i, st := range fm.Steps {
		offered := "closed loop"
		if st.Offered > 0 {
			offered = fmt.Sprintf("%.0f", st.Offered)
		}
		verdict := "pass"
		if !st.Passed {
			verdict = "fail: " + strings.Join(st.Reasons, "; ")
		}
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t%.2f\t%.2f\t\t%s\n", i+1, offered, st.Achieved, st.P50MS, st.P99MS, verdict)
	}
	tw.Flush()
	b.WriteString(Conclusion(fm) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Conclusion is the search's answer in one line.
func Conclusion(fm *summary.FindMax) string {
	if !fm.Found {
		return "Highest sustainable rate: none: no step met every objective"
	}
	best := fm.Steps[fm.Best]
	text := fmt.Sprintf("Highest sustainable rate: %.0f ops/s (%s p50 %.2f ms, p99 %.2f ms; run %s)",
		fm.Rate, best.Operation, best.P50MS, best.P99MS, best.RunID)
	if fm.Bracketed {
		return text + fmt.Sprintf(", within %.0f %%: %.0f ops/s failed", fm.Precision*100, lowestFailing(fm))
	}
	return text + ", not bracketed: the search ran out of steps (FIND_MAX_STEPS) before a rate failed within the precision"
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
