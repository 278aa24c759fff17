package testenv

import (
	"os"
	"testing"
)

// ReadText returns the file name's contents as text, failing the test if
// it cannot be read: the golden files, documents and outputs many tests
// compare hold nothing a test could go on without.
func ReadText(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
