//go:build unix

package dataset

import (
	"os"
	"syscall"
)

// mapFile maps the data file read-only: batches are then decoded straight
// from the page cache, without a system call per batch (a one-row batch
// costs a read(2) otherwise, more than generating it). nil when mapping
// fails or the file is empty: reads fall back to ReadAt.
func mapFile(f *os.File) []byte {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 || st.Size() != int64(int(st.Size())) {
		return nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return b
}

func unmap(b []byte) {
	if b != nil {
		syscall.Munmap(b)
	}
}
