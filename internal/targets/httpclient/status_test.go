package httpclient

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

// A server error (5xx) may have applied part of the request, and Prometheus'
// remote write sends it again, as a 429; any other status refused it whole.
func TestStatusClasses(t *testing.T) {
	for _, c := range []struct {
		code                   int
		maybeApplied, sendable bool
	}{
		{500, true, true}, {503, true, true}, {429, false, true}, {400, false, false}, {409, false, false}, {404, false, false},
	} {
		err := fmt.Errorf("thanos: write batch: POST /api/v1/receive: %w", &StatusError{Code: c.code, Text: "x"})
		if got := errors.Is(err, targets.ErrMaybeApplied); got != c.maybeApplied {
			t.Errorf("%d: maybe applied %v, want %v", c.code, got, c.maybeApplied)
		}
		if got := Recoverable(err); got != c.sendable {
			t.Errorf("%d: recoverable %v, want %v", c.code, got, c.sendable)
		}
	}
}
