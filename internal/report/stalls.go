package report

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// writeStalls lists the stretches where throughput fell below a share of
// the run's median (summary.Stall): a mean throughput or a p99 they decide
// is then read as what it is.
func writeStalls(b *strings.Builder, stalls []summary.Stall) {
	if len(stalls) == 0 {
		return
	}
	var held float64
	for _, s := range stalls {
		held += s.Share
	}
	fmt.Fprintf(b, "Stalls: %d, holding %s of the operations (seconds below STALL_FRACTION of the median throughput, for STALL_MIN or longer):\n",
		len(stalls), percent(held))
	for _, s := range stalls {
		b.WriteString("  " + stallLine(s) + "\n")
	}
}

func stallLine(s summary.Stall) string {
	text := fmt.Sprintf("at %.0f s for %.0f s: %s ops/s against a median of %s; %s operations held (%s), the longest %s ms",
		s.Start, s.Seconds, GroupThousands(fmt.Sprintf("%.0f", s.OpsPerSecond)),
		GroupThousands(fmt.Sprintf("%.0f", s.MedianOpsPerSecond)), GroupThousands(fmt.Sprint(s.HeldOperations)), percent(s.Share),
		GroupThousands(fmt.Sprintf("%.0f", s.MaxMS)))
	if s.AtEnd {
		text += "; it lasts to the run's end (clients that finished their LOOP early leave the rest alone)"
	}
	return text
}

func percent(share float64) string {
	if share > 0 && share < 0.001 {
		return "<0.1 %"
	}
	return fmt.Sprintf("%.1f %%", share*100)
}
