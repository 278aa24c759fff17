//go:build !parquet

package dataset

// Without the build tag parquet the reader is left out of the binary:
// parquet-go and its codecs (brotli, zstd, lz4, snappy) are 13 CPU-seconds
// of a first build and 80 MB of its downloads, which the README's first
// command would pay for even when no Parquet file is ever replayed. A
// Parquet file is then refused with the command that builds a binary that
// reads it, never misread as another format. CI builds with the tag.
func importParquet(files []string, _ string, _ ImportOptions) (*Manifest, error) {
	return nil, &leftOutError{&InputError{File: files[0], Msg: "this tsbench was built without the Parquet reader; " +
		"build one with it: go build -tags " + ParquetTag + " -o tsbench ./cmd/tsbench " +
		"(or export the file as CSV, which every build reads)"}}
}

// leftOutError is the refusal of such a file: bad input (an *InputError,
// naming the file and the build that reads it) that is also
// ErrReaderLeftOut.
type leftOutError struct{ in *InputError }

func (e *leftOutError) Error() string        { return e.in.Error() }
func (e *leftOutError) Unwrap() error        { return e.in }
func (e *leftOutError) Is(target error) bool { return target == ErrReaderLeftOut }
