package iotdb

import (
	"errors"
	"fmt"
	"testing"
)

// Count's chunking: every path is counted exactly once, in chunks of at
// most per paths, and a chunk the server refuses for want of memory is
// split until it fits; any other error ends the count.
func TestCountInChunks(t *testing.T) {
	paths := make([]string, 10)
	for i := range paths {
		paths[i] = fmt.Sprintf("root.db.d_%d", i)
	}
	oom := errors.New("error code: 719, message: There is not enough memory to execute current fragment instance")
	tests := []struct {
		name   string
		per    int
		limit  int   // the server refuses chunks larger than this
		want   int64 // points: one per path here
		chunks int   // statements that succeeded
		err    bool
	}{
		{"one statement", 100, 100, 10, 1, false},
		{"chunks of three", 3, 100, 10, 4, false},
		{"halved until it fits", 10, 2, 10, 5, false},
		{"one path too many even alone", 10, 0, 0, 0, true},
	}
	for _, tt := range tests {
		ok := 0
		n, err := countInChunks(paths, tt.per, func(p []string) (int64, error) {
			if len(p) > tt.limit {
				return 0, oom
			}
			ok++
			return int64(len(p)), nil
		})
		if n != tt.want || ok != tt.chunks || (err != nil) != tt.err {
			t.Errorf("%s: %d points in %d statements, err %v; want %d in %d", tt.name, n, ok, err, tt.want, tt.chunks)
		}
	}
	if _, err := countInChunks(paths, 3, func([]string) (int64, error) { return 0, errors.New("connection refused") }); err == nil {
		t.Error("another error was not returned")
	}
}
