package httpclient

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/tsbench/tsbench/internal/targets"
)

// StatusError is a server's answer other than a success: its status code
// and the start of its body.
type StatusError struct {
	Code int
	Text string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Code, http.StatusText(e.Code), e.Text)
}

// Is makes a server error (5xx) match targets.ErrMaybeApplied: the
// server failed somewhere in the request's way, maybe after applying part
// of it. Any other status refused the request before applying it.
func (e *StatusError) Is(target error) bool {
	return target == targets.ErrMaybeApplied && e.Code/100 == 5
}

// Recoverable reports whether err is an answer that Prometheus' remote
// write sends again: a server error (5xx) or too many requests (429).
// Any other status refuses the request for good.
func Recoverable(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Code/100 == 5 || se.Code == http.StatusTooManyRequests)
}
