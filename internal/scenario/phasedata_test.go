package scenario

import (
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// A verified, complete write phase makes its rows known to a query phase
// of the same data; a stopped one, or another series, does not.
func TestWrittenAfterAndPriorRows(t *testing.T) {
	write := config.Default()
	write.OperationOrder = workload.OrderSpread
	if err := config.Set(write, "OPERATION_PROPORTION", "1:0:0:0:0:0:0:0:0:0:0"); err != nil {
		t.Fatal(err)
	}
	query := config.Default()
	query.OperationOrder = workload.OrderSpread
	if err := config.Set(query, "OPERATION_PROPORTION", "0:1:0:0:0:0:0:0:0:0:0"); err != nil {
		t.Fatal(err)
	}
	done := &summary.Summary{StopReason: "loop", Verify: &summary.Verify{OK: true},
		Operations: []summary.Operation{{Name: workload.Write.String(), OKOperations: 5}}}
	w := Written{}.After(write, done)
	want := workload.NewPlan(write.Proportion[:], write.Loop).Counts()[workload.Write] * int64(write.BatchSize)
	if got := w.PriorRows(query); got != want || want == 0 {
		t.Errorf("prior rows %d, want %d", got, want)
	}
	if got := w.PriorRows(write); got != 0 {
		t.Errorf("a phase that writes checks against %d prior rows", got)
	}
	stopped := *done
	stopped.StopReason = "interrupted"
	if got := w.After(write, &stopped).PriorRows(query); got != 0 {
		t.Errorf("after a stopped write: %d", got)
	}
	other := *query
	other.Devices++
	if got := w.PriorRows(&other); got != 0 {
		t.Errorf("another series: %d", got)
	}
	// A phase that only queries leaves the data as it was.
	if got := w.After(query, &summary.Summary{}).PriorRows(query); got != want {
		t.Errorf("after a query phase: %d", got)
	}
}
