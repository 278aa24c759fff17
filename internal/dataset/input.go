package dataset

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gzipExt marks a gzip-compressed file of any text format: weather.csv.gz
// is a CSV file, influx-data.gz a line-protocol file (by its content).
const gzipExt = ".gz"

// isGzip reports whether a file's name says it is gzip-compressed.
func isGzip(name string) bool { return strings.EqualFold(filepath.Ext(name), gzipExt) }

// innerName is a file's name without its .gz suffix: what its extension
// and its single device's name are taken from.
func innerName(name string) string {
	if isGzip(name) {
		return name[:len(name)-len(gzipExt)]
	}
	return name
}

// innerExt is the lower-case extension of a file's content (.csv of
// x.csv.gz).
func innerExt(name string) string { return strings.ToLower(filepath.Ext(innerName(name))) }

// stem is a file's base name without its extensions (x of x.csv.gz).
func stem(name string) string {
	base := filepath.Base(innerName(name))
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// inputFile is an input file opened for reading, decompressed as it is
// read when gzip-compressed: never whole in memory.
type inputFile struct {
	f  *os.File
	gz *gzip.Reader
	io.Reader
}

// openInput opens a file for reading, through gzip when its name ends in
// .gz. Errors are input errors naming the file.
func openInput(name string) (*inputFile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, &InputError{File: name, Msg: "cannot read it: " + strings.TrimPrefix(err.Error(), "open "+name+": ")}
	}
	in := &inputFile{f: f, Reader: f}
	if isGzip(name) {
		br := bufio.NewReaderSize(f, 256<<10)
		gz, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, &InputError{File: name, Msg: fmt.Sprintf("not a gzip file (its name ends in %s): %v", gzipExt, err)}
		}
		// One file may hold several gzip members (cat a.gz b.gz):
		// gzip.Reader reads them in turn by default.
		in.gz, in.Reader = gz, gz
	}
	return in, nil
}

// Read reads on; a corrupt or truncated gzip stream is an input error.
func (in *inputFile) Read(p []byte) (int, error) {
	n, err := in.Reader.Read(p)
	if err != nil && err != io.EOF && in.gz != nil {
		err = &InputError{File: in.f.Name(), Msg: "gzip: " + err.Error()}
	}
	return n, err
}

func (in *inputFile) Close() error {
	if in.gz != nil {
		in.gz.Close()
	}
	return in.f.Close()
}
