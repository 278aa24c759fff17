package testenv

import (
	"os"
	"path/filepath"
	"strings"
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

// GoSources calls f with each non-test Go file of dir (in name order) and
// its contents, failing the test if one cannot be read: the tests that keep
// a package's sources in shape (their length, the options they read) look
// at the code that ships, not at its tests.
func GoSources(t testing.TB, dir string, f func(name string, src []byte)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f(name, src)
	}
}
