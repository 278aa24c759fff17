package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/testenv"
)

// maxCommandFileLines keeps internal/cli a thin layer (issue 31): a command
// file that grows past it holds logic that belongs in a package of its own.
const maxCommandFileLines = 400

// maxCommandLines keeps the whole command line thin (issue 82): a run's
// life belongs to internal/run, a command's work to the package of its job.
const maxCommandLines = 3000

func TestCommandFilesStaySmall(t *testing.T) {
	total := 0
	testenv.GoSources(t, ".", func(f string, b []byte) {
		n := bytes.Count(b, []byte("\n"))
		total += n
		if n > maxCommandFileLines {
			t.Errorf("internal/cli/%s has %d lines, more than %d: move what is not flag parsing or wiring into a package with one job, or split the command", f, n, maxCommandFileLines)
		}
	})
	if total >= maxCommandLines || total == 0 {
		t.Errorf("internal/cli has %d lines (its tests left out), want under %d: move what is not flag parsing into the package of its job (internal/run for a run's life)", total, maxCommandLines)
	}
}

// layerMap reads the layer map of docs/development.md: each package's line
// number in the block after the "layer map" marker (packages in braces
// share a line).
func layerMap(t *testing.T) map[string]int {
	t.Helper()
	doc, err := os.ReadFile("../../docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "<!-- layer map: TestLayerMap reads this block -->\n```\n")
	if !ok {
		t.Fatal("docs/development.md has no layer map (the marker and a code block after it)")
	}
	block, _, _ = strings.Cut(block, "```")
	lines := make(map[string]int)
	for n, line := range strings.Split(strings.TrimSpace(block), "\n") {
		for _, pkg := range expandBraces(strings.Fields(line)[0]) {
			if _, dup := lines[pkg]; dup {
				t.Errorf("the layer map names %s twice", pkg)
			}
			lines[pkg] = n
		}
	}
	return lines
}

// expandBraces turns internal/output/{csvout,otlp} into its two paths.
func expandBraces(path string) []string {
	prefix, rest, ok := strings.Cut(path, "{")
	if !ok {
		return []string{path}
	}
	var paths []string
	for _, name := range strings.Split(strings.TrimSuffix(rest, "}"), ",") {
		paths = append(paths, prefix+name)
	}
	return paths
}

// modulePackages lists the module's packages with the module's packages
// each imports (test files aside), as paths relative to the module root.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/tsbench/tsbench/"
	pkgs := make(map[string][]string)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		pkgs[pkg] = nil
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				pkgs[pkg] = append(pkgs[pkg], rel)
			}
		}
	}
	return pkgs
}

// TestLayerMap keeps docs/development.md's layer map true: it names every
// package of the module and nothing else, and every import goes down it.
func TestLayerMap(t *testing.T) {
	lines := layerMap(t)
	pkgs := modulePackages(t)
	if len(pkgs) < 50 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
	for pkg, imports := range pkgs {
		line, ok := lines[pkg]
		if !ok {
			t.Errorf("the layer map of docs/development.md does not name %s: add a line for it below every package that imports it", pkg)
			continue
		}
		for _, imp := range imports {
			if lines[imp] <= line {
				t.Errorf("%s imports %s, which the layer map puts on its line or above it: the import runs up the map", pkg, imp)
			}
		}
	}
	for pkg := range lines {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("the layer map of docs/development.md names %s, which is not a package of the module", pkg)
		}
	}
}

// smallPackageLines is issue 49's line for a package too small to stand on
// its own: one under it, imported by a single other package, belongs with
// that importer unless its package comment says why it stands apart.
const smallPackageLines = 200

// TestSmallPackagesSayWhy keeps that rule: a package of under
// smallPackageLines lines (tests aside) that one other package alone
// imports has a package comment saying why it stands "apart".
func TestSmallPackagesSayWhy(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .GoFiles \" \"}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	importers := make(map[string]int)
	for _, imports := range modulePackages(t) {
		for _, imp := range imports {
			importers[imp]++
		}
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.SplitN(line, "|", 3)
		pkg := strings.TrimPrefix(fields[0], "github.com/tsbench/tsbench/")
		if importers[pkg] != 1 {
			continue
		}
		lines, doc := 0, ""
		for _, f := range strings.Fields(fields[2]) {
			b, err := os.ReadFile(filepath.Join(fields[1], f))
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(b, []byte("\n"))
			if head, _, ok := strings.Cut(string(b), "\npackage "); ok && strings.Contains(head, "// Package ") {
				doc += head
			}
		}
		checked++
		if lines < smallPackageLines && !strings.Contains(doc, "apart") {
			t.Errorf("%s has %d lines and one importer: move it into that importer, or say in its package comment why it stands apart", pkg, lines)
		}
	}
	if checked == 0 {
		t.Fatal("no package has exactly one importer: the count of importers is broken")
	}
}
