package targets

import (
	"strings"
	"testing"
	"unicode"

	"github.com/tsbench/tsbench/internal/badinput"
)

func asciiWord(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

func TestNameRuleMap(t *testing.T) {
	rule := NameRule{Target: "test", What: "column name", Keep: asciiWord, MaxBytes: 20, FoldCase: true, Reserved: []string{"select"}}
	tests := []struct {
		name  string
		names []string
		want  map[string]string // expected server names; "" = changed (suffix), checked by pattern
	}{
		{"kept as they are", []string{"a", "b_1"}, map[string]string{"a": "a", "b_1": "b_1"}},
		{"dot mapped with a suffix", []string{"web01.ex"}, map[string]string{"web01.ex": "web01_ex_"}},
		{"the taken form keeps it; the mapped one moves", []string{"a.b", "a_b"}, map[string]string{"a_b": "a_b", "a.b": "a_b_"}},
		{"folded case: the first in order keeps it", []string{"temp", "Temp"}, map[string]string{"Temp": "Temp", "temp": "temp_"}},
		{"reserved", []string{"SELECT"}, map[string]string{"SELECT": "SELECT_"}},
		{"long", []string{strings.Repeat("x", 30)}, map[string]string{strings.Repeat("x", 30): strings.Repeat("x", 11) + "_"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := rule.Map(tt.names)
			if err != nil {
				t.Fatal(err)
			}
			for n, want := range tt.want {
				got := m.Server(n)
				if strings.HasSuffix(want, "_") && want != n {
					if !strings.HasPrefix(got, want) || len(got) != len(want)+hashLen {
						t.Errorf("Server(%q) = %q, want %q + %d hex digits", n, got, want, hashLen)
					}
				} else if got != want {
					t.Errorf("Server(%q) = %q, want %q", n, got, want)
				}
				if o, ok := m.Original(got); !ok || o != n {
					t.Errorf("Original(%q) = %q, %v; want %q", got, o, ok, n)
				}
			}
			checkInjective(t, rule, tt.names, m)
		})
	}
}

func TestNameRuleRefuses(t *testing.T) {
	for _, tt := range []struct {
		rule  NameRule
		names []string
		want  string
	}{
		{NameRule{Target: "t", What: "tag value"}, []string{"ok", ""}, `t: tag value "": a name cannot be empty`},
		{NameRule{Target: "t", What: "column name", MaxBytes: 5}, []string{"abcdefgh"}, `at most 5 bytes`},
	} {
		_, err := tt.rule.Map(tt.names)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !badinput.Is(err) {
			t.Errorf("Map(%q) = %v, want bad input containing %q", tt.names, err, tt.want)
		}
	}
}

func TestNameRuleStable(t *testing.T) {
	rule := NameRule{Target: "t", What: "name", Keep: asciiWord, FoldCase: true}
	a, _ := rule.Map([]string{"x.y", "X.y", "x_y", "q"})
	b, _ := rule.Map([]string{"q", "x_y", "X.y", "x.y"})
	for _, n := range []string{"x.y", "X.y", "x_y", "q"} {
		if a.Server(n) != b.Server(n) {
			t.Errorf("%q maps to %q and %q in two orders", n, a.Server(n), b.Server(n))
		}
	}
}

// checkInjective checks that every name has a server form the rule takes,
// and that no two names share one (as the server compares).
func checkInjective(t *testing.T, rule NameRule, names []string, m *NameMap) {
	t.Helper()
	seen := map[string]string{}
	for _, n := range names {
		s := m.Server(n)
		if !rule.takes(s) && !(len(rule.Reserved) > 0 && s == n) {
			t.Errorf("%q maps to %q, which the rule does not take", n, s)
		}
		k := rule.fold(s)
		if o, dup := seen[k]; dup && o != n {
			t.Errorf("%q and %q both map to %q", o, n, s)
		}
		seen[k] = n
		if o, ok := m.Original(s); !ok || o != n {
			t.Errorf("Original(Server(%q)) = %q, %v", n, o, ok)
		}
	}
}

func FuzzNameRuleMap(f *testing.F) {
	f.Add("web01.example.com", "web01_example_com", "Web01.Example.com")
	f.Add("cpu usage [%]", "cpu_usage____", "select")
	f.Add("Zürich/温度", "   ", strings.Repeat("n", 70))
	rule := NameRule{Target: "fuzz", What: "name", Keep: asciiWord, MaxBytes: 64, FoldCase: true, Reserved: []string{"select", "from"}}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		names := []string{a, b, c}
		m, err := rule.Map(names)
		if err != nil {
			if a == "" || b == "" || c == "" {
				return
			}
			t.Fatalf("Map(%q): %v", names, err)
		}
		checkInjective(t, rule, names, m)
	})
}

// With Takes, a character is kept or not by where it stands: a name Takes
// accepts keeps its form whatever Keep says of its characters, and one it
// refuses takes Keep's form, which Takes accepts.
func TestNameRuleTakes(t *testing.T) {
	noTrailingBackslash := func(n string) bool { return !strings.HasSuffix(n, `\`) }
	rule := NameRule{Target: "t", What: "tag value", Keep: func(r rune) bool { return r != '\\' }, Takes: noTrailingBackslash}
	m, err := rule.Map([]string{`C:\data`, `end\`})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Server(`C:\data`); got != `C:\data` {
		t.Errorf(`Server(C:\data) = %q, want it kept`, got)
	}
	if got := m.Server(`end\`); !strings.HasPrefix(got, "end__") || !noTrailingBackslash(got) {
		t.Errorf(`Server(end\) = %q, want end_ and a hash`, got)
	}
	checkInjective(t, rule, []string{`C:\data`, `end\`}, m)
}
