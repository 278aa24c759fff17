package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/all"
	"github.com/tsbench/tsbench/internal/testenv"
)

// The README is one page; the guides are in docs/. These tests keep the two
// consistent: the README short, every guide linked from it, every relative
// link (and #anchor) resolving, the key reference equal to the key table,
// every target documented, and the README's test command the one CI runs.

const repoRoot = "../.."

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/configuration.md's key reference from the key table")

// keysRegenCommand is the command that regenerates docs/configuration.md's
// key reference; the page documents it too.
const keysRegenCommand = "go test ./internal/cli -run TestDocsKeyReferenceIsCurrent -update-docs"

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	return testenv.ReadText(t, filepath.Join(repoRoot, filepath.FromSlash(name)))
}

// docsPages lists README.md and every Markdown page under docs/, as
// slash-separated paths relative to the repository root.
func docsPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(repoRoot, p)
			if err != nil {
				return err
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages[1:])
	return pages
}

// docs/configuration.md embeds the key reference (tsbench keys --markdown)
// between markers; this keeps it equal to the key table. Regenerate with
// keysRegenCommand.
func TestDocsKeyReferenceIsCurrent(t *testing.T) {
	const page = "docs/configuration.md"
	s := readRepoFile(t, page)
	const begin, end = "<!-- keys:begin -->", "<!-- keys:end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the keys:begin/keys:end markers", page)
	}
	var want bytes.Buffer
	if err := KeysMarkdown(&want); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(s[i+len(begin) : j]); got == strings.TrimSpace(want.String()) {
		return
	}
	if *updateDocs {
		s = s[:i+len(begin)] + "\n" + strings.TrimSpace(want.String()) + "\n" + s[j:]
		if err := os.WriteFile(filepath.Join(repoRoot, page), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: key reference rewritten", page)
		return
	}
	t.Fatalf("%s's key reference is stale (it must equal 'go run ./cmd/tsbench keys --markdown'): regenerate it with\n\t%s", page, keysRegenCommand)
}

// Every registered target is documented in the target table of
// docs/targets.md, and the README links there.
func TestDocsListEveryTarget(t *testing.T) {
	const page = "docs/targets.md"
	s := readRepoFile(t, page)
	for _, d := range targets.Drivers() {
		if !strings.Contains(s, "| `"+d.Name+"` |") {
			t.Errorf("%s's target table lacks %s", page, d.Name)
		}
	}
	if !linksTo(t, "README.md", page) {
		t.Errorf("README.md does not link to %s", page)
	}
}

// The README fits on a page.
func TestREADMEIsShort(t *testing.T) {
	const max = 300
	s := readRepoFile(t, "README.md")
	if n := strings.Count(strings.TrimRight(s, "\n"), "\n") + 1; n > max {
		t.Errorf("README.md has %d lines, at most %d: move details into docs/", n, max)
	}
}

// Every guide in docs/ is linked from the README.
func TestREADMELinksEveryDocsPage(t *testing.T) {
	for _, p := range docsPages(t)[1:] {
		if !linksTo(t, "README.md", p) {
			t.Errorf("README.md does not link to %s", p)
		}
	}
}

// The README's test command is the one CI runs (.ci/inside, run by .ci/run).
func TestREADMETestCommandIsCIs(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	i := strings.Index(readme, "Run the tests")
	if i < 0 {
		t.Fatal("README.md lacks 'Run the tests'")
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(readme[i:])
	if block == nil {
		t.Fatal("README.md: no sh block after 'Run the tests'")
	}
	cmd := strings.TrimSpace(block[1])
	ci := readRepoFile(t, ".ci/inside")
	found := false
	for _, line := range strings.Split(ci, "\n") {
		// the command alone, or with -json, its events piped to a reader
		// (scripts/ci/testlog)
		line = strings.TrimSpace(line)
		withJSON := strings.Replace(cmd, "go test ", "go test -json ", 1)
		if line == cmd || strings.HasPrefix(line, withJSON+" | ") {
			found = true
		}
	}
	if !found {
		t.Errorf("README.md's test command %q is not a command of .ci/inside, which CI runs", cmd)
	}
	if !strings.Contains(readRepoFile(t, ".ci/run"), ".ci/inside") {
		t.Error(".ci/run no longer runs .ci/inside")
	}
	// The GOFLAGS the README says CI adds are the ones .ci/inside sets.
	if m := regexp.MustCompile("`GOFLAGS=([^`]*)`").FindStringSubmatch(readme); m != nil && !strings.Contains(ci, m[1]) {
		t.Errorf("README.md says CI runs the tests with GOFLAGS=%s; .ci/inside does not set that", m[1])
	}
}

// Every relative link in README.md and docs/**/*.md names an existing file
// or directory, and its #anchor, if any, a heading of the page it names.
func TestDocsLinksResolve(t *testing.T) {
	anchors := map[string]map[string]bool{}
	pageAnchors := func(p string) map[string]bool {
		if a, ok := anchors[p]; ok {
			return a
		}
		a := headingAnchors(readRepoFile(t, p))
		anchors[p] = a
		return a
	}
	for _, page := range docsPages(t) {
		for _, l := range markdownLinks(readRepoFile(t, page)) {
			if isExternal(l) {
				continue
			}
			target, anchor, _ := strings.Cut(l, "#")
			resolved := page
			if target != "" {
				resolved = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), target)))
				if strings.HasPrefix(resolved, "../") {
					t.Errorf("%s: link %q leaves the repository", page, l)
					continue
				}
				if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(resolved))); err != nil {
					t.Errorf("%s: link %q: no file %s", page, l, resolved)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not Markdown", page, l)
				continue
			}
			if !pageAnchors(resolved)[anchor] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", page, l, resolved, anchor)
			}
		}
	}
}

// The anchors GitHub gives headings, checked on headings of these pages.
func TestDocsHeadingAnchors(t *testing.T) {
	a := headingAnchors("# tsbench\n## TPC-C (`--workload tpcc`)\n```\n# not a heading\n```\n" +
		"## Keeping runs: store, report, compare\n## Analytics on Apache Spark (`--analytics-engine spark`)\n" +
		"### `tsbench run` flags\n## Keys\n## Keys\n## TSBS_SCALE and **bold** [link](x.md)\n")
	for _, want := range []string{"tsbench", "tpc-c---workload-tpcc", "keeping-runs-store-report-compare",
		"analytics-on-apache-spark---analytics-engine-spark", "tsbench-run-flags", "keys", "keys-1",
		"tsbs_scale-and-bold-link"} {
		if !a[want] {
			t.Errorf("no anchor %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a line in a code block made an anchor")
	}
}

func isExternal(link string) bool {
	for _, p := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(link, p) {
			return true
		}
	}
	return false
}

// linksTo says whether page has a relative link to target (both relative to
// the repository root).
func linksTo(t *testing.T, page, target string) bool {
	t.Helper()
	for _, l := range markdownLinks(readRepoFile(t, page)) {
		if isExternal(l) {
			continue
		}
		p, _, _ := strings.Cut(l, "#")
		if p != "" && filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), p))) == target {
			return true
		}
	}
	return false
}

var (
	linkRE       = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	codeSpanRE   = regexp.MustCompile("`[^`]*`")
	mdLinkRE     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	headingRE    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	fenceStartRE = regexp.MustCompile("^\\s*(```|~~~)")
)

// proseLines returns the lines of a Markdown text outside fenced code blocks.
func proseLines(text string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		if m := fenceStartRE.FindStringSubmatch(line); m != nil {
			if fence == "" {
				fence = m[1]
			} else if m[1] == fence {
				fence = ""
			}
			continue
		}
		if fence == "" {
			out = append(out, line)
		}
	}
	return out
}

// markdownLinks returns the destinations of the inline links and images of
// a Markdown text, outside code blocks and code spans.
func markdownLinks(text string) []string {
	var links []string
	for _, line := range proseLines(text) {
		line = codeSpanRE.ReplaceAllString(line, "")
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			links = append(links, m[1])
		}
	}
	return links
}

// headingAnchors returns the anchors GitHub makes for the ATX headings of a
// Markdown text: the heading's text (code spans and links reduced to their
// text, emphasis marks dropped), lower case, letters, digits, '_' and '-'
// kept, spaces made '-', all else dropped; a repeated anchor gets -1, -2, ...
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		h := mdLinkRE.ReplaceAllString(m[1], "$1")
		h = strings.NewReplacer("`", "", "*", "").Replace(h)
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a = a + "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}
