package targettest

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// TestFleetDataAnswers: the fleet dataset gives most questions a
// non-empty answer, so FleetQuestions cannot pass by agreeing on nothing.
func TestFleetDataAnswers(t *testing.T) {
	d, err := NewFleetData("fleet")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[ts.FleetKind]int{}
	for _, q := range d.Questions() {
		rows[q.Fleet.Kind] += len(d.Expect(&q))
	}
	nonEmpty := 0
	for _, k := range ts.FleetKinds {
		t.Logf("%-34s %5d rows", k, rows[k])
		if rows[k] > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 8 {
		t.Errorf("%d kinds answered, want at least 8", nonEmpty)
	}
}
