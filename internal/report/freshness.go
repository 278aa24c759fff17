package report

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// writeFreshness prints what the freshness probe measured: how long the
// server took to show a point it had acknowledged.
func writeFreshness(b *strings.Builder, f *summary.Freshness) {
	if f == nil {
		return
	}
	poll := "polled back to back"
	if f.PollMS > 0 {
		poll = "polled every " + msText(f.PollMS) + " ms"
	}
	fmt.Fprintf(b, "Freshness (a probe of %s writes/s in %s, %s): %s of %s acknowledged points seen\n",
		trimFloat(f.Rate), f.Database, poll, GroupThousands(fmt.Sprint(f.Visible)), GroupThousands(fmt.Sprint(f.Written)))
	if f.AfterAck.Count > 0 {
		b.WriteString("  acknowledged → visible: " + distributionText(f.AfterAck) + "\n")
		b.WriteString("  sent → visible:         " + distributionText(f.AfterSend) + "\n")
	}
	var notes []string
	if f.Polls.Count > 0 {
		notes = append(notes, fmt.Sprintf("a poll took p50 %s ms, p99 %s ms (the resolution of both)", msText(f.Polls.P50MS), msText(f.Polls.P99MS)))
	}
	if f.BeforeAck > 0 {
		notes = append(notes, fmt.Sprintf("%d seen before their write was acknowledged (counted as 0)", f.BeforeAck))
	}
	if f.Unseen > 0 {
		notes = append(notes, fmt.Sprintf("%s never seen, the probe waiting up to %s s after the run", GroupThousands(fmt.Sprint(f.Unseen)), trimFloat(f.WaitS)))
	}
	if f.FailedWrites > 0 {
		notes = append(notes, fmt.Sprintf("%d probe writes failed", f.FailedWrites))
	}
	if f.PollErrors > 0 {
		notes = append(notes, fmt.Sprintf("%d polls failed, the first: %s", f.PollErrors, clip(f.FirstError, exampleMax)))
	}
	if len(notes) > 0 {
		b.WriteString("  " + strings.Join(notes, "; ") + "\n")
	}
}

func distributionText(d summary.Distribution) string {
	return fmt.Sprintf("p50 %s ms, p90 %s ms, p99 %s ms, max %s ms", msText(d.P50MS), msText(d.P90MS), msText(d.P99MS), msText(d.MaxMS))
}

// msText prints milliseconds with the digits that matter at their size.
func msText(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.3f", ms)
	case ms < 10:
		return fmt.Sprintf("%.2f", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f", ms)
	}
	return GroupThousands(fmt.Sprintf("%.0f", ms))
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}
