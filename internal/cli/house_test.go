package cli

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reservedDirNames are folder names that build tools write their output to
// and that common global ignore files list (Maven's and Cargo's target/): a
// tracked source folder of that name would vanish from structure drawings
// and, on a machine whose global gitignore lists it, leave new files
// silently untracked.
var reservedDirNames = []string{"target"}

// trackedPaths lists the repository's files: git's list in a checkout, the
// files below the root otherwise (a source archive).
func trackedPaths(t *testing.T, root string) []string {
	t.Helper()
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil && len(out) > 0 {
		return strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	}
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func TestNoTrackedPathNamedLikeBuildOutput(t *testing.T) {
	paths := trackedPaths(t, "../..")
	if len(paths) < 100 {
		t.Fatalf("found %d files below the repository root; expected the whole tree", len(paths))
	}
	for _, p := range paths {
		for _, part := range strings.Split(p, "/") {
			for _, name := range reservedDirNames {
				if part == name {
					t.Errorf("%s: a path component is named %q, which build tools reserve for their output", p, name)
				}
			}
		}
	}
}
