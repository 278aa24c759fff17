package dataset

import "errors"

// ErrReaderLeftOut marks a file whose reader this build left out (a build
// tag): no command of the same binary reads it, 'tsbench data inspect'
// included, so no message may suggest one.
var ErrReaderLeftOut = errors.New("the reader of this format is left out of this build")

// leftOutError is the refusal of such a file: bad input (an *InputError,
// naming the file and the build that reads it) that is also
// ErrReaderLeftOut.
type leftOutError struct{ in *InputError }

func (e *leftOutError) Error() string        { return e.in.Error() }
func (e *leftOutError) Unwrap() error        { return e.in }
func (e *leftOutError) Is(target error) bool { return target == ErrReaderLeftOut }
