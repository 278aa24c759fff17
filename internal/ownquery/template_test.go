package ownquery

import (
	"reflect"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
)

var (
	dollar  = &targets.Language{Name: "sql", Bind: "$", Literal: targets.SQLLiteral, Ident: targets.SQLIdent, Time: targets.UnixMillis}
	literal = &targets.Language{Name: "x", Literal: targets.SQLLiteral, Ident: targets.SQLIdent, Time: targets.UnixMillis}
)

func TestRender(t *testing.T) {
	tmpl, err := parseTemplate("SELECT {{s|ident}} FROM t WHERE d = {{d}} AND t >= {{w.start}} AND t < {{w.end|ms}} LIMIT {{n}} -- {{w.end|rfc3339}}")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.UnixMilli(1_700_000_000_000)
	vals := Values{"s": {Text: `cpu "x"`, IsText: true}, "d": {Text: "it's; DROP TABLE t; --", IsText: true},
		"w": {Start: t0, End: t0.Add(time.Hour), IsWindow: true}, "n": {Int: 5}}
	st, err := tmpl.Render(vals, dollar)
	if err != nil {
		t.Fatal(err)
	}
	wantText := `SELECT "cpu ""x""" FROM t WHERE d = $1 AND t >= $2 AND t < $3 LIMIT $4 -- $5`
	if st.Text != wantText {
		t.Errorf("bound text\n got %s\nwant %s", st.Text, wantText)
	}
	wantArgs := []any{"it's; DROP TABLE t; --", int64(1_700_000_000_000), int64(1_700_003_600_000), int64(5), "2023-11-14T23:13:20Z"}
	if !reflect.DeepEqual(st.Args, wantArgs) {
		t.Errorf("args %#v, want %#v", st.Args, wantArgs)
	}
	if !st.At.Equal(t0.Add(time.Hour)) {
		t.Errorf("At %v", st.At)
	}
	st, _ = tmpl.Render(vals, literal)
	if want := `SELECT "cpu ""x""" FROM t WHERE d = 'it''s; DROP TABLE t; --' AND t >= 1700000000000 AND t < 1700003600000 LIMIT 5 -- '2023-11-14T23:13:20Z'`; st.Text != want || st.Args != nil {
		t.Errorf("literal text\n got %s\nwant %s (args %v)", st.Text, want, st.Args)
	}
}

// RenderTo renders into a reused statement what Render makes afresh, in
// any language and any order of languages, whether the text is kept (every
// value bound) or written anew (identifiers, literals), and reuses the
// statement's storage for the values.
func TestRenderTo(t *testing.T) {
	question := &targets.Language{Name: "q", Bind: "?", Literal: targets.SQLLiteral, Ident: targets.SQLIdent, Time: targets.UnixMillis}
	bound, err := parseTemplate("SELECT max(v) FROM t WHERE d = {{d}} AND t >= {{w.start}} AND t < {{w.end}}")
	if err != nil {
		t.Fatal(err)
	}
	named, err := parseTemplate("SELECT {{s|ident}} FROM t WHERE d = {{d}}")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.UnixMilli(1_700_000_000_000)
	sets := []Values{
		{"d": {Text: "d1", IsText: true}, "s": {Text: "a", IsText: true}, "w": {Start: t0, End: t0.Add(time.Hour), IsWindow: true}},
		{"d": {Text: "d2", IsText: true}, "s": {Text: "b", IsText: true}, "w": {Start: t0.Add(time.Hour), End: t0.Add(2 * time.Hour), IsWindow: true}},
	}
	var st targets.Statement
	for round := range 2 {
		for _, lang := range []*targets.Language{dollar, question, literal, dollar} {
			for _, tmpl := range []*Template{bound, named} {
				for _, vals := range sets {
					fresh, err := parseTemplate(tmpl.Text) // nothing kept
					if err != nil {
						t.Fatal(err)
					}
					want, err := fresh.Render(vals, lang)
					if err != nil {
						t.Fatal(err)
					}
					before := st.Args[:cap(st.Args)]
					if err := tmpl.RenderTo(&st, vals, lang); err != nil {
						t.Fatal(err)
					}
					if st.Text != want.Text || !reflect.DeepEqual(st.Args, want.Args) && len(st.Args)+len(want.Args) > 0 || !st.At.Equal(want.At) {
						t.Fatalf("round %d, %s, %q, %v: rendered into a reused statement %q %v, afresh %q %v",
							round, lang.Name, tmpl.Text, vals, st.Text, st.Args, want.Text, want.Args)
					}
					if len(st.Args) > 0 && len(before) >= len(st.Args) && &before[0] != &st.Args[0] {
						t.Errorf("%q: the values' storage was not reused", tmpl.Text)
					}
				}
			}
		}
	}
	if st, _ := named.Render(sets[1], dollar); st.Text != `SELECT "b" FROM t WHERE d = $1` {
		t.Errorf("an identifier's text after the kept ones: %q", st.Text)
	}
}

// BenchmarkRender: a measured execution renders its statement into the
// client's reused one (RenderTo), against a new one each time (Render).
func BenchmarkRender(b *testing.B) {
	tmpl, err := parseTemplate("SELECT max(v) FROM t WHERE series = {{s}} AND t >= {{h}} * 3600000 AND t < ({{h}} + 1) * 3600000")
	if err != nil {
		b.Fatal(err)
	}
	vals := Values{"s": {Int: 7}, "h": {Int: 3}}
	b.Run("Render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tmpl.Render(vals, dollar); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("RenderTo", func(b *testing.B) {
		b.ReportAllocs()
		var st targets.Statement
		for b.Loop() {
			if err := tmpl.RenderTo(&st, vals, dollar); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The same seeds draw the same parameter sets; every draw is inside its
// domain; windows fall inside the span.
func TestDrawer(t *testing.T) {
	f, err := Parse("q.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	start := time.UnixMilli(1_600_000_000_000)
	u := &Universe{Devices: []string{"a", "b"}, Sensors: []SensorName{{"txt", false}, {"num", true}},
		Span: func() (time.Time, time.Time) { return start, start.Add(3 * time.Hour) }}
	q := f.Queries[0]
	d1, d2 := q.NewDrawer(u, 1, 2), q.NewDrawer(u, 1, 2)
	for range 200 {
		a, err := d1.Draw()
		if err != nil {
			t.Fatal(err)
		}
		as := ParamsText(textOf(a))
		b, _ := d2.Draw()
		if bs := ParamsText(textOf(b)); as != bs {
			t.Fatalf("same seeds, different sets: %s / %s", as, bs)
		}
		if a["s"].Text != "num" {
			t.Fatalf("sensor numeric drew %q", a["s"].Text)
		}
		if n := a["n"].Int; n < 1 || n > 100 {
			t.Fatalf("int 1..100 drew %d", n)
		}
		if z := a["z"].Int; z < 1 || z > 1000 {
			t.Fatalf("zipf 1..1000 drew %d", z)
		}
		w := a["w"]
		if w.Start.Before(start) || w.End.After(start.Add(3*time.Hour)) || w.End.Sub(w.Start) != time.Hour {
			t.Fatalf("window %v outside the span", w)
		}
	}
}

func textOf(v Values) map[string]string {
	out := map[string]string{}
	for k, x := range v {
		out[k] = x.String()
	}
	return out
}

func TestDiffer(t *testing.T) {
	// One value a side is shown bare, each named by its target: the issue's
	// own disagreement (issue 86).
	one := func(v any) targets.Rows { return targets.Rows{Count: 1, Values: [][]any{{v}}} }
	if got := Differ(one(int64(0)), one(-48071.16), "victoriametrics", "prometheus"); got != "victoriametrics: 0, prometheus: -48071.16" {
		t.Errorf("one value: %q", got)
	}
	a := targets.Rows{Count: 2, Values: [][]any{{int64(1), 2.5}, {int64(2), "x"}}}
	cases := []struct {
		b    targets.Rows
		want string
	}{
		{targets.Rows{Count: 2, Values: [][]any{{int64(2), "x"}, {1.0, 2.5 + 1e-12}}}, ""},
		{targets.Rows{Count: 3, Values: a.Values}, "sqlite: 2 rows, duckdb: 3 rows"},
		{targets.Rows{Count: 2, Values: [][]any{{int64(1), 2.6}, {int64(2), "x"}}}, "sqlite: (1, 2.5), duckdb: (1, 2.6)"},
		{targets.Rows{Count: 2, Values: [][]any{{int64(1), 2.5}, {int64(2), "y"}}}, `sqlite: (2, "x"), duckdb: (2, "y")`},
		{targets.Rows{Count: 2, Values: [][]any{{int64(1)}, {int64(2), "x"}}}, "sqlite: 2 columns, duckdb: 1 columns"},
	}
	for _, tc := range cases {
		if got := Differ(a, tc.b, "sqlite", "duckdb"); got != tc.want {
			t.Errorf("Differ = %q, want %q", got, tc.want)
		}
	}
}
