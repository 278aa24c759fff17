package exit

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCarriesItsStatus(t *testing.T) {
	cause := errors.New("server gone")
	cases := []struct {
		name string
		err  error
		code int
		text string
	}{
		{"with a cause", With(Failure, cause), Failure, "server gone"},
		{"without one", With(Verify, nil), Verify, "exit status 3"},
		{"usage", Usagef("--rate %q: not a number", "x"), Usage, `--rate "x": not a number`},
		{"wrapped", fmt.Errorf("phase 2: %w", With(Threshold, cause)), Threshold, "phase 2: server gone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e *Error
			if !errors.As(c.err, &e) || e.Code != c.code {
				t.Fatalf("%v: status %+v, want %d", c.err, e, c.code)
			}
			if c.err.Error() != c.text {
				t.Errorf("text %q, want %q", c.err.Error(), c.text)
			}
		})
	}
	if !errors.Is(With(Failure, cause), cause) {
		t.Error("the cause is not reachable with errors.Is")
	}
}
