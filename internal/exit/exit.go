// Package exit holds tsbench's exit statuses and the error that carries one
// from where a run decides it up to the command line, which prints the
// error and returns the status. It stands apart from internal/cli because
// the run layer decides most statuses and must not import the command line.
package exit

import "fmt"

// Exit statuses. They are part of the interface: CI pipelines depend on them.
const (
	OK          = 0
	Failure     = 1   // the run could not complete, or operations failed
	Usage       = 2   // bad input: flag, key or value
	Verify      = 3   // stored points differ from acknowledged points
	Threshold   = 99  // a --threshold failed (k6's status for the same)
	Interrupted = 130 // stopped by SIGINT/SIGTERM; results were still saved
)

// Error carries an exit status; Err is printed unless nil (when the report
// already said why).
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// With is err carrying status code; err may be nil.
func With(code int, err error) error { return &Error{Code: code, Err: err} }

// Usagef is a usage error (status Usage) with a formatted message.
func Usagef(format string, args ...any) error {
	return &Error{Code: Usage, Err: fmt.Errorf(format, args...)}
}
