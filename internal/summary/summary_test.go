package summary

import "testing"

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
