package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCommandFileLines keeps internal/cli a thin layer (issue 31): a command
// file that grows past it holds logic that belongs in a package of its own.
const maxCommandFileLines = 400

func TestCommandFilesStaySmall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n > maxCommandFileLines {
			t.Errorf("internal/cli/%s has %d lines, more than %d: move what is not flag parsing or wiring into a package with one job, or split the command", f, n, maxCommandFileLines)
		}
	}
}
