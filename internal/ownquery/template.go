package ownquery

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
)

// Template is a query text with its parameter references: {{name}},
// {{name.start}} and {{name.end}} for a window, and a filter after a bar:
// {{name|ident}} (an identifier, quoted as the language quotes names),
// {{w.start|ms}}, |s, |ns, |rfc3339 (a time in that form rather than the
// target's own).
type Template struct {
	Text string
	segs []segment
	// bound is the text rendered for a language that binds every value,
	// kept once made: without identifiers it is the same for every
	// parameter set, and a measured execution need not write it again.
	bound atomic.Pointer[boundText]
}

// boundText is a template's text with every value bound in lang.
type boundText struct {
	lang *targets.Language
	text string
}

type segment struct {
	lit string // literal text, when ref is nil
	ref *ref
}

type ref struct {
	param  string
	field  string // "", "start" or "end"
	filter string // "", "ident", "ms", "s", "ns", "rfc3339"
	pos    int    // byte offset in the text
}

var filters = map[string]bool{"ident": true, "ms": true, "s": true, "ns": true, "rfc3339": true}

// parseTemplate splits text into literal parts and references.
func parseTemplate(text string) (*Template, error) {
	t := &Template{Text: text}
	rest, off := text, 0
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			t.segs = append(t.segs, segment{lit: rest})
			return t, nil
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("%q opens {{ at byte %d and never closes it", short(text), off+i)
		}
		r, err := parseRef(strings.TrimSpace(rest[i+2 : i+j]))
		if err != nil {
			return nil, err
		}
		r.pos = off + i
		if quotedByHand(rest[:i], rest[i+j+2:]) {
			return nil, fmt.Errorf("{{%s}} is inside quotes: write it bare, tsbench binds or quotes each value itself", rest[i+2:i+j])
		}
		t.segs = append(t.segs, segment{lit: rest[:i]}, segment{ref: r})
		off += i + j + 2
		rest = rest[i+j+2:]
	}
}

func parseRef(s string) (*ref, error) {
	r := &ref{}
	name, filter, hasFilter := strings.Cut(s, "|")
	if hasFilter {
		r.filter = strings.TrimSpace(filter)
		if !filters[r.filter] {
			return nil, fmt.Errorf("{{%s}}: unknown filter %q (allowed: ident, ms, s, ns, rfc3339)", s, r.filter)
		}
	}
	name = strings.TrimSpace(name)
	if p, f, ok := strings.Cut(name, "."); ok {
		if f != "start" && f != "end" {
			return nil, fmt.Errorf("{{%s}}: a window has .start and .end, not .%s", s, f)
		}
		name, r.field = p, f
	}
	if !isName(name) {
		return nil, fmt.Errorf("{{%s}}: %q is not a parameter name (letters, digits and _)", s, name)
	}
	r.param = name
	return r, nil
}

// quotedByHand tells whether a reference sits between two quote characters
// the user wrote ('{{x}}' or "{{x}}"): the value would then be quoted twice.
func quotedByHand(before, after string) bool {
	if before == "" || after == "" {
		return false
	}
	b, a := before[len(before)-1], after[0]
	return b == a && (b == '\'' || b == '"')
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func short(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// refs lists the template's references.
func (t *Template) refs() []*ref {
	var out []*ref
	for _, s := range t.segs {
		if s.ref != nil {
			out = append(out, s.ref)
		}
	}
	return out
}

// Render makes the statement of one parameter set in lang: each reference
// a placeholder with its value in Args where the language binds, else the
// value written as the language's literal; identifiers always written.
func (t *Template) Render(vals Values, lang *targets.Language) (targets.Statement, error) {
	var st targets.Statement
	err := t.RenderTo(&st, vals, lang)
	return st, err
}

// RenderTo is Render into st, reusing its Args' storage: a client renders
// each execution of its queries into one Statement, allocating nothing
// for the text or the list of values once the first is made.
func (t *Template) RenderTo(st *targets.Statement, vals Values, lang *targets.Language) error {
	*st = targets.Statement{Args: st.Args[:0]}
	kept := t.bound.Load()
	if kept != nil && kept.lang != lang {
		kept = nil
	}
	var b strings.Builder
	fixed := true // no value written into the text
	for _, s := range t.segs {
		if s.ref == nil {
			if kept == nil {
				b.WriteString(s.lit)
			}
			continue
		}
		v, ok := vals[s.ref.param]
		if !ok {
			return fmt.Errorf("no value for {{%s}}", s.ref.param)
		}
		x, err := v.form(s.ref, lang)
		if err != nil {
			return err
		}
		switch {
		case s.ref.filter == "ident":
			fixed = false
			b.WriteString(lang.Ident(fmt.Sprint(x)))
		case lang.Bind == "":
			fixed = false
			b.WriteString(lang.Literal(x))
		default:
			st.Args = append(st.Args, x)
			if kept == nil {
				b.WriteString(lang.Bind)
				if lang.Bind == "$" {
					b.WriteString(strconv.Itoa(len(st.Args)))
				}
			}
		}
	}
	switch {
	case !fixed:
		st.Text = b.String()
	case kept != nil:
		st.Text = kept.text
	default:
		st.Text = b.String()
		t.bound.Store(&boundText{lang: lang, text: st.Text})
	}
	st.At = vals.at()
	return nil
}

// Value is one drawn parameter: a number, a text, or a window.
type Value struct {
	Int        int64
	Float      float64
	IsFloat    bool
	Text       string
	IsText     bool
	Start, End time.Time // a window
	IsWindow   bool
}

// Values are one parameter set, by parameter name.
type Values map[string]Value

// at is the end of the set's first window (PromQL's evaluation instant).
func (vs Values) at() time.Time {
	var at time.Time
	for _, v := range vs {
		if v.IsWindow && v.End.After(at) {
			at = v.End
		}
	}
	return at
}

// form is the value as the reference asks for it in lang.
func (v Value) form(r *ref, lang *targets.Language) (any, error) {
	if v.IsWindow {
		t := v.Start
		switch r.field {
		case "end":
			t = v.End
		case "":
			return nil, fmt.Errorf("{{%s}} is a window: write {{%s.start}} or {{%s.end}}", r.param, r.param, r.param)
		}
		switch r.filter {
		case "ms":
			return t.UnixMilli(), nil
		case "s":
			return t.Unix(), nil
		case "ns":
			return t.UnixNano(), nil
		case "rfc3339":
			return t.UTC().Format(time.RFC3339Nano), nil
		}
		return lang.Time(t), nil
	}
	if r.field != "" {
		return nil, fmt.Errorf("{{%s.%s}}: %s is not a window", r.param, r.field, r.param)
	}
	switch {
	case v.IsText:
		return v.Text, nil
	case v.IsFloat && r.filter == "ident":
		return strconv.FormatFloat(v.Float, 'g', -1, 64), nil
	case v.IsFloat:
		return v.Float, nil
	}
	if r.filter == "ident" {
		return strconv.FormatInt(v.Int, 10), nil
	}
	return v.Int, nil
}

// String is the value as a report shows it.
func (v Value) String() string {
	switch {
	case v.IsWindow:
		return v.Start.UTC().Format(time.RFC3339Nano) + ".." + v.End.UTC().Format(time.RFC3339Nano)
	case v.IsText:
		return strconv.Quote(v.Text)
	case v.IsFloat:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	}
	return strconv.FormatInt(v.Int, 10)
}

// FromRows are a from parameter's values: the first column of every row
// of its query's answer (nulls left out).
func FromRows(rows targets.Rows) []Value {
	var out []Value
	for _, row := range rows.Values {
		if len(row) == 0 {
			continue
		}
		switch x := row[0].(type) {
		case nil:
		case int64:
			out = append(out, Value{Int: x})
		case float64:
			out = append(out, Value{Float: x, IsFloat: true})
		case string:
			out = append(out, Value{Text: x, IsText: true})
		default:
			out = append(out, Value{Text: fmt.Sprint(x), IsText: true})
		}
	}
	return out
}
