package badinput

import (
	"errors"
	"fmt"
	"testing"
)

func TestBadInput(t *testing.T) {
	err := Errorf("KEY = %q: allowed: a, b", "c")
	if !Is(err) || err.Error() != `KEY = "c": allowed: a, b` {
		t.Errorf("Errorf: %v", err)
	}
	if !Is(fmt.Errorf("phase x: %w", err)) {
		t.Error("a wrapped bad input is bad input")
	}
	if Is(errors.New("disk full")) || Wrap(nil) != nil {
		t.Error("a failure is not bad input")
	}
	base := errors.New("base")
	if w := Wrap(base); !Is(w) || !errors.Is(w, base) {
		t.Errorf("Wrap: %v", w)
	}
}
