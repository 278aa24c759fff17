package engine

import (
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// With EveryName the result keeps a row per operation, in the order of
// Names: the ones run as they were, zeros for the others.
func TestEveryName(t *testing.T) {
	names := []string{"INGESTION", "RULE", "ALERT", "DASHBOARD"}
	for _, tt := range []struct {
		ops  []summary.Operation
		want string
	}{
		{nil, "INGESTION:0 RULE:0 ALERT:0 DASHBOARD:0"},
		{[]summary.Operation{{Name: "INGESTION", OKOperations: 7}}, "INGESTION:7 RULE:0 ALERT:0 DASHBOARD:0"},
		{[]summary.Operation{{Name: "ALERT", OKOperations: 2}, {Name: "INGESTION", OKOperations: 7}},
			"INGESTION:7 RULE:0 ALERT:2 DASHBOARD:0"},
	} {
		got := ""
		for i, op := range everyName(tt.ops, names) {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%s:%d", op.Name, op.OKOperations)
		}
		if got != tt.want {
			t.Errorf("everyName(%v) = %s, want %s", tt.ops, got, tt.want)
		}
	}
}
