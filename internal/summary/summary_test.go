package summary

import (
	"slices"
	"testing"
)

// The fallbacks note lists each reason with its count, in a stable order,
// and says nothing when no query took another way.
func TestFallbacksNote(t *testing.T) {
	var s Summary
	if got := s.FallbacksNote(); got != "" {
		t.Errorf("no fallbacks: %q", got)
	}
	s.Fallbacks = map[string]int64{"b way": 2, "a way": 5}
	want := "Answered another way (their latency measures that way): 5 a way; 2 b way"
	if got := s.FallbacksNote(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// OperationNames keeps the first run's order and appends what later runs
// add, each name once.
func TestOperationNames(t *testing.T) {
	runs := []*Summary{
		{Operations: []Operation{{Name: "write"}, {Name: "query"}}},
		{Operations: []Operation{{Name: "query"}, {Name: "delete"}, {Name: "write"}}},
	}
	want := []string{"write", "query", "delete"}
	if got := OperationNames(runs); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := OperationNames(nil); got != nil {
		t.Errorf("no runs: %q", got)
	}
}
