package htmlreport

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/summary"
)

// freshnessRow is one line of the freshness table: a distribution named
// by where its times start.
type freshnessRow struct {
	Name string
	summary.Distribution
}

// freshnessRows are the probe's distributions: from acknowledgment, from
// send, and the polls' own latency.
func freshnessRows(f *summary.Freshness) []freshnessRow {
	return []freshnessRow{{"acknowledged → visible", f.AfterAck}, {"sent → visible", f.AfterSend}, {"a poll", f.Polls}}
}

// freshnessNote says what the probe did and what it did not see.
func freshnessNote(f *summary.Freshness) string {
	notes := []string{fmt.Sprintf("%s writes/s in %s; %d of %d acknowledged points seen", f2(f.Rate), f.Database, f.Visible, f.Written)}
	if f.Unseen > 0 {
		notes = append(notes, fmt.Sprintf("%d never seen within %s s after the run", f.Unseen, f2(f.WaitS)))
	}
	if f.BeforeAck > 0 {
		notes = append(notes, fmt.Sprintf("%d seen before their acknowledgment", f.BeforeAck))
	}
	if f.FailedWrites > 0 {
		notes = append(notes, fmt.Sprintf("%d writes failed", f.FailedWrites))
	}
	if f.PollErrors > 0 {
		notes = append(notes, fmt.Sprintf("%d polls failed", f.PollErrors))
	}
	return strings.Join(notes, "; ")
}
