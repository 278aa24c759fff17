package ownquery

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	_ "github.com/tsbench/tsbench/internal/targets/postgres"
	_ "github.com/tsbench/tsbench/internal/targets/sqlite"
)

const good = `queries:
  - name: hourly_max
    weight: 3
    params:
      dev: device
      s: sensor numeric
      w: window 1h
      n: int 1..100
      c: choice [a, "b, c", 7]
      z: zipf 1..1000 s=1.2
    sql: SELECT max(v) FROM t WHERE device = {{dev}} AND sensor = {{s}} AND t >= {{w.start}} AND t < {{w.end}} LIMIT {{n}}
    postgres: SELECT {{c}}, {{z}}, {{s|ident}}
  - name: plus_one
    params:
      n: int 1..100
    sql: SELECT {{n}} + 1
`

func TestParseGood(t *testing.T) {
	f, err := Parse("q.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Names(); strings.Join(got, ",") != "hourly_max,plus_one" {
		t.Fatalf("names %v", got)
	}
	q := f.Queries[0]
	if q.Weight != 3 || len(q.Params) != 6 || f.Queries[1].Weight != 1 {
		t.Fatalf("weights/params: %+v", q)
	}
	c := q.Param("c")
	if len(c.Choices) != 3 || c.Choices[1].Text != "b, c" || !c.Choices[2].IsText {
		t.Errorf("choice: %+v (a list that is not all numbers is text)", c.Choices)
	}
	if z := q.Param("z"); z.Lo != 1 || z.Hi != 1000 || z.S != 1.2 {
		t.Errorf("zipf: %+v", z)
	}
	pg, _ := targets.Lookup("postgres")
	lite, _ := targets.Lookup("sqlite")
	if txt, _ := q.For(pg); txt.Key != "postgres" {
		t.Errorf("postgres takes its own text first, got %q", txt.Key)
	}
	if txt, _ := q.For(lite); txt.Key != "sql" {
		t.Errorf("sqlite takes the language's text, got %q", txt.Key)
	}
}

// Every mistake in a file is refused with its file:line and what is wrong.
func TestParseErrors(t *testing.T) {
	cases := []struct{ name, file, want string }{
		{"yaml", "queries:\n  - name: [\n", "q.yaml:"},
		{"no queries", "query: []\n", "q.yaml:1: want `queries:`"},
		{"unknown kind", "queries:\n  - name: a\n    params:\n      n: integer 1..3\n    sql: SELECT {{n}}\n", `q.yaml:4: query a: parameter n: unknown kind "integer"`},
		{"no parameter", "queries:\n  - name: a\n    sql: SELECT {{n}}\n", "q.yaml:3: query a: sql: {{n}} names no parameter"},
		{"unknown key", "queries:\n  - name: a\n    sqll: SELECT 1\n", `q.yaml:3: query a: unknown key "sqll"`},
		{"no text", "queries:\n  - name: a\n    weight: 2\n", "q.yaml:2: query a has no text"},
		{"window bare", "queries:\n  - name: a\n    params:\n      w: window 1h\n    sql: SELECT {{w}}\n", "q.yaml:5: query a: sql: {{w}} is a window"},
		{"quoted by hand", "queries:\n  - name: a\n    params:\n      d: device\n    sql: SELECT '{{d}}'\n", "q.yaml:5: query a: sql: {{d}} is inside quotes"},
		{"bad range", "queries:\n  - name: a\n    params:\n      n: int 9..1\n    sql: SELECT {{n}}\n", "HI (1) is below LO (9)"},
		{"zipf s", "queries:\n  - name: a\n    params:\n      n: zipf 1..9 s=0.5\n    sql: SELECT {{n}}\n", "must be a number > 1"},
		{"reserved", "queries:\n  - name: INGESTION\n    sql: SELECT 1\n", "q.yaml:2: name \"INGESTION\" is a built-in"},
		{"duplicate", "queries:\n  - name: a\n    sql: SELECT 1\n  - name: A\n    sql: SELECT 2\n", "q.yaml:4: name \"A\": the query of line 2"},
		{"weight", "queries:\n  - name: a\n    weight: -1\n    sql: SELECT 1\n", "q.yaml:3: query a: weight"},
		{"unclosed", "queries:\n  - name: a\n    sql: SELECT {{n\n", "never closes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("q.yaml", []byte(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestCheckTarget(t *testing.T) {
	f, err := Parse("q.yaml", []byte("queries:\n  - name: a\n    params:\n      d: device\n    postgres: SELECT {{d}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	lite, _ := targets.Lookup("sqlite")
	if err := f.Check(lite, false); err == nil || !strings.Contains(err.Error(), `q.yaml:2: query a has no text for target sqlite: add a key "sql"`) {
		t.Errorf("no text for the target: %v", err)
	}
	pg, _ := targets.Lookup("postgres")
	if err := f.Check(pg, true); err == nil || !strings.Contains(err.Error(), "q.yaml:4: query a: parameter d is a device") {
		t.Errorf("a device parameter in a query-only run: %v", err)
	}
}

// A text keyed by a target this binary was built without (duckdb without
// its build tag) is kept, not refused as an unknown key: the same file
// serves binaries with and without it.
func TestTextForLeftOutTarget(t *testing.T) {
	targets.RegisterLeftOut(targets.LeftOut{Name: "leftoutdb", Tag: "leftoutdb"})
	if _, err := Parse("q.yaml", []byte("queries:\n  - name: a\n    sql: SELECT 1\n    leftoutdb: SELECT 2\n")); err != nil {
		t.Fatal(err)
	}
}
