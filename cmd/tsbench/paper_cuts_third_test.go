package main

// Paper cuts, third round (issue 67): an own query's inline list read as
// YAML reads a flow sequence.

import (
	"encoding/json"
	"strings"
	"testing"
)

// The issue's inline list, quotes of both kinds and YAML's \" escape,
// runs: every answer is the value drawn, bound as a value, and the data
// is intact after the run.
func TestInlineChoiceListRuns(t *testing.T) {
	_, s := runOwnQueries(t, t.TempDir(), "sqlite", `queries:
  - name: echo
    params:
      t: choice ["o'neil", "a\"b", "x; DROP TABLE points; --"]
    sql: SELECT {{t}}
`, "--loop", "60", "--devices", "2", "--clients", "2", "--sensors", "3", "--set", "QUERY_CHECKS=12")
	if op := s.Op("echo"); op == nil || op.OKOperations == 0 || op.FailOperations != 0 {
		t.Fatalf("echo: %+v", op)
	}
	if s.Verify == nil || !s.Verify.OK {
		t.Fatalf("the data did not survive the run: %+v", s.Verify)
	}
	want := map[string]bool{"o'neil": true, `a"b`: true, "x; DROP TABLE points; --": true}
	seen := map[string]bool{}
	for _, a := range ownQuery(t, s, "echo").Answers {
		var drawn string
		if err := json.Unmarshal([]byte(a.Params["t"]), &drawn); err != nil || !want[drawn] {
			t.Fatalf("t = %s (%v): not one of the list's values", a.Params["t"], err)
		}
		if got, _ := a.Sample[0][0].(string); a.Error != "" || got != drawn {
			t.Errorf("t = %q answered %v (%s), want the value itself", drawn, a.Sample, a.Error)
		}
		seen[drawn] = true
	}
	if len(seen) < 2 {
		t.Errorf("12 checked answers drew only %v", seen)
	}
}

// An inline list YAML cannot read is refused with exit 2, its file:line,
// and the {choice: [...]} form named.
func TestInlineChoiceListRefusedNamesTheMappingForm(t *testing.T) {
	dir := t.TempDir()
	q := writeInputFile(t, dir, "q.yaml", "queries:\n  - name: echo\n    params:\n      t: choice [\"a, b]\n    sql: SELECT {{t}}\n")
	r := tsbench(t, nil, "run", "--target", "sqlite", "--queries", q, "--data-dir", dir, "--loop", "10", "--quiet")
	if r.code != 2 || !strings.Contains(r.stderr, "q.yaml:4: query echo: parameter t:") ||
		!strings.Contains(r.stderr, "{choice: [...]}") {
		t.Errorf("exit %d, stderr:\n%s\nwant 2, the line and the {choice: [...]} form", r.code, r.stderr)
	}
}
