package targettest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/metrics"
)

// Classified is how a run counts a driver's error once the target has
// marked it: its cause, whether RETRIES sends the operation again, and
// whether its points are in doubt.
type Classified struct {
	Name      string
	Err       error // the driver's own error
	Cause     string
	Transient bool
	InDoubt   bool
}

// CheckClassified checks each case through classify, the target's marking
// of its driver's errors, wrapped as the target's operations wrap them:
// counted as the case says, with the driver's error still in the chain.
func CheckClassified(t *testing.T, classify func(error) error, cases []Classified) {
	t.Helper()
	for _, c := range cases {
		err := fmt.Errorf("target: write batch at 127.0.0.1:1: %w", classify(c.Err))
		if got := metrics.Cause(err); got != c.Cause {
			t.Errorf("%s: cause %q, want %q", c.Name, got, c.Cause)
		}
		if got := metrics.Transient(err); got != c.Transient {
			t.Errorf("%s: transient %v, want %v", c.Name, got, c.Transient)
		}
		if got := metrics.InDoubt(err); got != c.InDoubt {
			t.Errorf("%s: in doubt %v, want %v", c.Name, got, c.InDoubt)
		}
		if !errors.Is(err, c.Err) {
			t.Errorf("%s: the driver's error lost: %v", c.Name, err)
		}
	}
}
