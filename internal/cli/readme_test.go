package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/all"
)

// README.md embeds the key reference; this keeps it equal to the key table.
// Regenerate with: go run ./cmd/tsbench keys --markdown
func TestREADMEKeyReferenceIsCurrent(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	const begin, end = "<!-- keys:begin -->", "<!-- keys:end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md lacks the keys:begin/keys:end markers")
	}
	var want bytes.Buffer
	if err := KeysMarkdown(&want); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(s[i+len(begin) : j]); got != strings.TrimSpace(want.String()) {
		t.Fatal("README.md's key reference is stale: regenerate it with 'go run ./cmd/tsbench keys --markdown'")
	}
}

// Every registered target is documented in the README's target table.
func TestREADMEListsEveryTarget(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range targets.Drivers() {
		if !strings.Contains(string(readme), "| `"+d.Name+"` |") {
			t.Errorf("README.md's target table lacks %s", d.Name)
		}
	}
}
