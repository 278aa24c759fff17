package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the module may be without a
// reason (issue 82): past it, a function usually holds steps that read
// better as functions of their own.
const maxFuncLines = 80

// A function longer than maxFuncLines says why in a "long: ..." line of
// its doc comment (a table of flags or defaults, one case per question
// kind, a transaction's round trips in the specification's order).
func TestFunctionsStayShort(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	for _, root := range []string{"../../internal", "../../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				seen++
				lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				if lines > maxFuncLines && !saysWhyLong(fd.Doc) {
					t.Errorf("%s: %s has %d lines, more than %d: split it, or say why in a \"long: ...\" line of its doc comment",
						fset.Position(fd.Pos()), fd.Name.Name, lines, maxFuncLines)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if seen < 1000 {
		t.Fatalf("read %d functions: the walk missed the module's sources", seen)
	}
}

// saysWhyLong reports whether a doc comment has a "long: <reason>" line.
func saysWhyLong(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, line := range strings.Split(doc.Text(), "\n") {
		if reason, ok := strings.CutPrefix(line, "long: "); ok && strings.TrimSpace(reason) != "" {
			return true
		}
	}
	return false
}
