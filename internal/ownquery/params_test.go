package ownquery

import (
	"strings"
	"testing"
)

// An inline choice [...] is read as YAML reads a flow sequence: both kinds
// of quotes, YAML's escapes, commas and semicolons inside quotes; a list
// of bare whole numbers is numbers. What is no such list is refused naming
// the {choice: [...]} form.
func TestInlineChoiceIsAYAMLFlowSequence(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		texts   []string // the items, when taken
		numbers bool
		err     string // else what the refusal says
	}{
		{spec: `choice ["o'neil", "a\"b", "x; DROP TABLE points; --"]`, texts: []string{"o'neil", `a"b`, "x; DROP TABLE points; --"}},
		{spec: `choice ['it''s', "tab\there", 'back\slash']`, texts: []string{"it's", "tab\there", `back\slash`}},
		{spec: `choice [a, "b, c", 7]`, texts: []string{"a", "b, c", "7"}},
		{spec: `choice [1, 2, 30]`, texts: []string{"1", "2", "30"}, numbers: true},
		{spec: `choice [1, "2"]`, texts: []string{"1", "2"}},
		{spec: `choice [ spaced out , x ]`, texts: []string{"spaced out", "x"}},
		{spec: `choice ["[x]", "{y}"]`, texts: []string{"[x]", "{y}"}},
		{spec: `choice [a, b,]`, texts: []string{"a", "b"}},
		{spec: `choice ["a, b]`, err: "not a YAML flow sequence"},
		{spec: `choice ["a, b]`, err: "{choice: [...]}"},
		{spec: `choice [a, [b, c]]`, err: "item 2 is not a single value"},
		{spec: `choice []`, err: "the list is empty"},
		{spec: `choice [a, ""]`, texts: []string{"a", ""}},
		{spec: `choice a, b`, err: "want a list in brackets"},
		{spec: `choice [a] [b]`, err: "{choice: [...]}"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			p, err := parseParam("t", tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Choices) != len(tc.texts) {
				t.Fatalf("choices %+v, want %q", p.Choices, tc.texts)
			}
			for i, v := range p.Choices {
				if v.Text != tc.texts[i] || v.IsText == tc.numbers {
					t.Errorf("item %d: %+v, want %q (numbers: %v)", i+1, v, tc.texts[i], tc.numbers)
				}
			}
		})
	}
}

// The inline list of the issue, written in a query file as a user writes
// it, reads the same as the {choice: [...]} form.
func TestInlineChoiceInAFile(t *testing.T) {
	const inline = `queries:
  - name: q
    params:
      t: choice ["o'neil", "a\"b", "x; DROP TABLE points; --"]
    sql: SELECT {{t}}
`
	const mapping = `queries:
  - name: q
    params:
      t: {choice: ["o'neil", "a\"b", "x; DROP TABLE points; --"]}
    sql: SELECT {{t}}
`
	var got [2][]Value
	for i, text := range []string{inline, mapping} {
		f, err := Parse("q.yaml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		got[i] = f.Queries[0].Param("t").Choices
	}
	if len(got[0]) != 3 || len(got[1]) != 3 {
		t.Fatalf("inline %+v, mapping %+v", got[0], got[1])
	}
	for i := range got[0] {
		if got[0][i] != got[1][i] {
			t.Errorf("item %d: inline %+v, mapping %+v", i+1, got[0][i], got[1][i])
		}
	}
}
