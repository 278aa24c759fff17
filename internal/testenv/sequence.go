package testenv

import "testing"

// InSequence is a hook for a callback of the form func(seq int, v T), such
// as a recorder's samples or a runner's intervals handed over live: it
// appends each v to *got and fails t, naming what the values are, when seq
// is not the number of values handed over before it (0, 1, 2, ...).
func InSequence[T any](t testing.TB, what string, got *[]T) func(seq int, v T) {
	return func(seq int, v T) {
		if seq != len(*got) {
			t.Errorf("%s %d handed over as seq %d", what, len(*got), seq)
		}
		*got = append(*got, v)
	}
}
