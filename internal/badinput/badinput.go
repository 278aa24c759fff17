// Package badinput marks errors that are the user's input rather than a
// failure: a value that does not fit, a file that is not what it should
// be. The command line turns them into exit status 2, the rest into 1.
package badinput

import (
	"errors"
	"fmt"
)

// Error is bad input; its message is the wrapped error's.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf is bad input described as fmt.Errorf describes an error.
func Errorf(format string, args ...any) error {
	return &Error{fmt.Errorf(format, args...)}
}

// Wrap marks err as bad input; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{err}
}

// Is reports whether err, or an error it wraps, is bad input.
func Is(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
