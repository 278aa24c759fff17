package ownquery

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Kind is what a parameter draws.
type Kind string

// The parameter kinds of a query file.
const (
	Device Kind = "device" // a device of the run's data
	Sensor Kind = "sensor" // a sensor of the run's data; "sensor numeric": a numeric one
	Window Kind = "window" // a window of the given length inside the written span
	Int    Kind = "int"    // an integer drawn uniformly from lo..hi
	Choice Kind = "choice" // one of a list, uniformly
	Zipf   Kind = "zipf"   // an integer from lo..hi, Zipf-distributed with exponent s (lo most often)
	From   Kind = "from"   // a value of the first column of a query's answer, read once at start
)

// kinds lists the kinds as an error message names them.
const kinds = `device, sensor, sensor numeric, window DURATION, int LO..HI, choice [A, B, ...], zipf LO..HI s=S, from "QUERY"`

// Param is one parameter of a query.
type Param struct {
	Name    string
	Kind    Kind
	Numeric bool          // sensor numeric
	Length  time.Duration // window
	Lo, Hi  int64         // int, zipf
	S       float64       // zipf's exponent (> 1)
	Choices []Value       // choice
	Query   string        // from
	Line    int
}

// NeedsData tells whether the parameter draws from the run's own data
// (its devices, sensors and span), which a query-only run does not have.
func (p *Param) NeedsData() bool { return p.Kind == Device || p.Kind == Sensor || p.Kind == Window }

// parseParam reads a parameter's spec, e.g. "int 1..100".
func parseParam(name, spec string) (*Param, error) {
	p := &Param{Name: name}
	word, rest, _ := strings.Cut(strings.TrimSpace(spec), " ")
	rest = strings.TrimSpace(rest)
	p.Kind = Kind(word)
	var err error
	switch p.Kind {
	case Device:
		err = noArgs(rest)
	case Sensor:
		if rest == "numeric" {
			p.Numeric = true
		} else {
			err = noArgs(rest)
		}
	case Window:
		p.Length, err = time.ParseDuration(rest)
		if err == nil && p.Length <= 0 {
			err = fmt.Errorf("a window's length must be > 0")
		}
	case Int:
		p.Lo, p.Hi, err = parseRange(rest)
	case Zipf:
		err = p.parseZipf(rest)
	case Choice:
		p.Choices, err = parseChoices(rest)
	case From:
		p.Query, err = unquote(rest)
		if err == nil && p.Query == "" {
			err = fmt.Errorf(`from needs a query: from "SELECT ..."`)
		}
	default:
		return nil, fmt.Errorf("unknown kind %q (allowed: %s)", word, kinds)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", p.Kind, rest, err)
	}
	return p, nil
}

func noArgs(rest string) error {
	if rest != "" {
		return fmt.Errorf("takes nothing after its kind")
	}
	return nil
}

// parseRange reads LO..HI.
func parseRange(s string) (lo, hi int64, err error) {
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		return 0, 0, fmt.Errorf("want LO..HI, e.g. 1..100")
	}
	if lo, err = strconv.ParseInt(strings.TrimSpace(a), 10, 64); err == nil {
		hi, err = strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("want whole numbers LO..HI, e.g. 1..100")
	}
	if hi < lo {
		return 0, 0, fmt.Errorf("HI (%d) is below LO (%d)", hi, lo)
	}
	return lo, hi, nil
}

// parseZipf reads LO..HI s=S.
func (p *Param) parseZipf(s string) error {
	rng, exp, _ := strings.Cut(s, " ")
	var err error
	if p.Lo, p.Hi, err = parseRange(rng); err != nil {
		return err
	}
	exp = strings.TrimSpace(exp)
	if exp == "" {
		p.S = 1.1
		return nil
	}
	v, ok := strings.CutPrefix(exp, "s=")
	if !ok {
		return fmt.Errorf("want LO..HI s=S, e.g. 1..1000 s=1.1")
	}
	if p.S, err = strconv.ParseFloat(v, 64); err != nil || p.S <= 1 {
		return fmt.Errorf("s = %q: must be a number > 1", v)
	}
	return nil
}

// parseChoices reads the list of choice [a, "b, c", 'd'] as YAML reads a
// flow sequence, so that an inline list takes what YAML users write in one:
// both kinds of quotes, YAML's escapes ("a\"b") and commas inside quotes.
// A list that is no such sequence is refused naming the {choice: [...]}
// form, which takes any text.
func parseChoices(s string) ([]Value, error) {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("want a list in brackets, e.g. [a, b, c]")
	}
	// A decoder, not yaml.Unmarshal: Unmarshal reads the first node and
	// takes "[a] [b]" as [a] without a word; the decoder's second read
	// meets what follows the list.
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc, more yaml.Node
	err := dec.Decode(&doc)
	if err == nil {
		if err = dec.Decode(&more); errors.Is(err, io.EOF) {
			err = nil
		} else if err == nil {
			err = fmt.Errorf("more than one list")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the list is not a YAML flow sequence (%v): quote an item holding a comma or a bracket, "+
			`as ["a, b", 'it''s', "a\"b"], or write the parameter as {choice: [...]}`, yamlReason(err))
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("want one list in brackets, e.g. [a, b, c], or the parameter as {choice: [...]}")
	}
	return choicesOf(doc.Content[0])
}

// yamlReason is a YAML error without the library's prefix and its line
// number, which counts lines of the list, not of the file.
func yamlReason(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if _, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "line ") {
		msg = rest
	}
	return msg
}

// choicesOf makes the values of a YAML sequence of single values: the
// list of {choice: [...]} and of an inline choice [...] alike.
func choicesOf(list *yaml.Node) ([]Value, error) {
	if len(list.Content) == 0 {
		return nil, fmt.Errorf("the list is empty: give at least one value")
	}
	items := make([]string, len(list.Content))
	quoted := make([]bool, len(list.Content))
	for i, c := range list.Content {
		if c.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("item %d is not a single value (a list or a mapping): quote it to take it as text", i+1)
		}
		items[i] = c.Value
		quoted[i] = c.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 || c.Tag == "!!str"
	}
	return choiceValues(items, quoted)
}

// choiceValues makes the values of a list: numbers when every item is a
// whole number written bare, else text.
func choiceValues(items []string, quoted []bool) ([]Value, error) {
	out := make([]Value, len(items))
	numbers := true
	for i, it := range items {
		if it == "" && !quoted[i] {
			return nil, fmt.Errorf("item %d is empty", i+1)
		}
		n, err := strconv.ParseInt(it, 10, 64)
		numbers = numbers && err == nil && !quoted[i]
		out[i] = Value{Int: n, Text: it, IsText: true}
	}
	if numbers {
		for i := range out {
			out[i].IsText = false
		}
	}
	return out, nil
}

// unquote takes a from query written in double or single quotes, or bare.
func unquote(s string) (string, error) {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') {
		if s[len(s)-1] != s[0] {
			return "", fmt.Errorf("the query's quote is never closed")
		}
		return s[1 : len(s)-1], nil
	}
	return s, nil
}

// Universe is what parameters draw from: the run's data (devices, sensors,
// the span written so far) and the answers of the from queries.
type Universe struct {
	Devices []string // as the server stores them
	Sensors []SensorName
	// Span is the time range written so far: windows fall inside it.
	Span func() (start, end time.Time)
	// From holds each from parameter's values, by parameter name.
	From map[string][]Value
}

// SensorName is a sensor as the server stores it, and whether it is numeric.
type SensorName struct {
	Name    string
	Numeric bool
}

// Drawer draws one query's parameter sets, deterministically from its seeds.
type Drawer struct {
	q     *Query
	u     *Universe
	rng   *rand.Rand
	zipfs map[string]*rand.Zipf
	vals  Values
}

// NewDrawer draws q's parameters from u, seeded with (a, b): the same seeds
// draw the same sets on every target.
func (q *Query) NewDrawer(u *Universe, a, b uint64) *Drawer {
	d := &Drawer{q: q, u: u, rng: rand.New(rand.NewPCG(a, b)), zipfs: map[string]*rand.Zipf{}, vals: Values{}}
	for _, p := range q.Params {
		if p.Kind == Zipf {
			d.zipfs[p.Name] = rand.NewZipf(d.rng, p.S, 1, uint64(p.Hi-p.Lo))
		}
	}
	return d
}

// Draw returns the next parameter set. It is reused by the next call.
func (d *Drawer) Draw() (Values, error) {
	for _, p := range d.q.Params {
		v, err := d.draw(p)
		if err != nil {
			return nil, err
		}
		d.vals[p.Name] = v
	}
	return d.vals, nil
}

func (d *Drawer) draw(p *Param) (Value, error) {
	switch p.Kind {
	case Device:
		if len(d.u.Devices) == 0 {
			return Value{}, fmt.Errorf("parameter %s: the run has no devices", p.Name)
		}
		return Value{Text: d.u.Devices[d.rng.IntN(len(d.u.Devices))], IsText: true}, nil
	case Sensor:
		return d.sensor(p)
	case Window:
		return d.window(p), nil
	case Int:
		return Value{Int: p.Lo + d.rng.Int64N(p.Hi-p.Lo+1)}, nil
	case Zipf:
		return Value{Int: p.Lo + int64(d.zipfs[p.Name].Uint64())}, nil
	case Choice:
		return p.Choices[d.rng.IntN(len(p.Choices))], nil
	case From:
		vals := d.u.From[p.Name]
		if len(vals) == 0 {
			return Value{}, fmt.Errorf("parameter %s: its query %q answered no rows", p.Name, short(p.Query))
		}
		return vals[d.rng.IntN(len(vals))], nil
	}
	return Value{}, fmt.Errorf("parameter %s: kind %q", p.Name, p.Kind)
}

func (d *Drawer) sensor(p *Param) (Value, error) {
	var pool []string
	for _, s := range d.u.Sensors {
		if s.Numeric || !p.Numeric {
			pool = append(pool, s.Name)
		}
	}
	if len(pool) == 0 {
		what := "sensors"
		if p.Numeric {
			what = "numeric sensors"
		}
		return Value{}, fmt.Errorf("parameter %s: the run has no %s", p.Name, what)
	}
	return Value{Text: pool[d.rng.IntN(len(pool))], IsText: true}, nil
}

// window draws a window of the parameter's length inside the span, its
// start on a whole millisecond; a span shorter than the length is the
// window.
func (d *Drawer) window(p *Param) Value {
	start, end := d.u.Span()
	room := end.Sub(start) - p.Length
	if room <= 0 {
		return Value{Start: start, End: end, IsWindow: true}
	}
	off := time.Duration(d.rng.Int64N(int64(room/time.Millisecond)+1)) * time.Millisecond
	return Value{Start: start.Add(off), End: start.Add(off + p.Length), IsWindow: true}
}
