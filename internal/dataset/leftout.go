package dataset

import "errors"

// ErrReaderLeftOut marks a file whose reader this build left out (a build
// tag): no command of the same binary reads it, 'tsbench data inspect'
// included, so no message may suggest one.
var ErrReaderLeftOut = errors.New("the reader of this format is left out of this build")
