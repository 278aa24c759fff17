package targettest

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// The tests of the user's own statements (targets.StatementRunner, a
// target's Language): small known datasets written through the target's
// own Setup and Write, statements run against them and their answers
// compared, and the language's quoting checked case by case.

// OwnStart is the time of the first row of OwnData's dataset.
var OwnStart = time.UnixMilli(1_700_000_000_000)

// OwnSchema is a small dataset's schema in database db: group g_0, devices
// d_0 and d_1, sensors s_0, s_1, ... of types, a point a second from start
// (Unix milliseconds).
func OwnSchema(db string, start int64, types ...ts.DataType) *ts.Schema {
	s := &ts.Schema{Database: db, Groups: []string{"g_0"},
		Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
		StartTime: start, PointStep: 1000}
	for j, typ := range types {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: "s_" + strconv.Itoa(j), Type: typ})
	}
	return s
}

// OpenOwn opens drv with o (closed when the test ends), sets s up afresh
// and writes rows rows of each of its devices, a second apart from
// s.StartTime, one batch a device: sensor j of device d holds at row k
// value(d, j, k), a float64, int64 or string as its type takes, or nil for
// an empty cell.
func OpenOwn(ctx context.Context, t *testing.T, drv *targets.Driver, o targets.Options, s *ts.Schema, rows int64,
	value func(d, j int, k int64) any) targets.Target {
	t.Helper()
	conn := OpenSetUp(ctx, t, drv, o, s, true)
	for d := range s.Devices {
		b := &ts.Batch{Device: &s.Devices[d], Decimals: -1, Columns: make([]ts.Column, len(s.Sensors))}
		var empty [][2]int
		for k := int64(0); k < rows; k++ {
			b.Times = append(b.Times, s.StartTime+k*1000)
			b.Rows = append(b.Rows, k)
			for j := range s.Sensors {
				c := &b.Columns[j]
				c.Type = s.Sensors[j].Type
				switch v := value(d, j, k).(type) {
				case nil:
					empty = append(empty, [2]int{j, int(k)})
					appendZero(c)
				case float64:
					c.Doubles = append(c.Doubles, v)
				case int64:
					c.Int64s = append(c.Int64s, v)
				case string:
					c.Texts = append(c.Texts, v)
				default:
					t.Fatalf("value %#v (%T) of sensor %d", v, v, j)
				}
			}
		}
		for _, e := range empty {
			b.SetNull(e[0], e[1])
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// appendZero appends a zero value to a DOUBLE, INT64 or TEXT column.
func appendZero(c *ts.Column) {
	switch c.Type {
	case ts.Double:
		c.Doubles = append(c.Doubles, 0)
	case ts.Int64:
		c.Int64s = append(c.Int64s, 0)
	default:
		c.Texts = append(c.Texts, "")
	}
}

// OwnData is the dataset of most targets' statement tests, in database
// o.Database: devices d_0 and d_1, sensors s_0 (DOUBLE) and s_1 (of type
// s1), three rows a second apart from OwnStart; d_0's s_0 holds 10.5,
// 11.5, 12.5 and d_1's 20.25, 21.25, 22.25; s_1 of device d holds
// s1Value(d, k) at row k (nil: an empty cell).
func OwnData(ctx context.Context, t *testing.T, drv *targets.Driver, o targets.Options, s1 ts.DataType,
	s1Value func(d int, k int64) any) targets.Target {
	t.Helper()
	return OpenOwn(ctx, t, drv, o, OwnSchema(o.Database, OwnStart.UnixMilli(), ts.Double, s1), 3, func(d, j int, k int64) any {
		if j == 0 {
			return float64(10*(d+1)) + float64(k) + 0.5/float64(d+1)
		}
		return s1Value(d, k)
	})
}

// Texts are texts for OwnData's s_1 (OwnTexts), by device and row: one
// with a quote and one with a backslash on d_0.
var Texts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", "b2"}}

// Hostile are values that would change a statement's structure if they
// were spliced into its text unquoted or badly quoted: what every
// language's quoting (Literal) and binding must keep one value.
var Hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline", `\' OR 1=1 -- `}

// HostileAnd is Hostile and then more: a language's own hostile values.
func HostileAnd(more ...string) []string { return slices.Concat(Hostile, more) }

// OwnTexts is OwnData's s_1 of texts: texts[d][k] of device d at row k.
func OwnTexts(texts [2][3]string) func(d int, k int64) any {
	return func(d int, k int64) any { return texts[d][k] }
}

// OwnTexts requires the server and sets up OwnData there, in database db,
// with s_1 TEXT holding texts (OwnTexts).
func (s Server) OwnTexts(ctx context.Context, t *testing.T, drv *targets.Driver, db string, texts [2][3]string) targets.Target {
	t.Helper()
	s.Require(t)
	return OwnData(ctx, t, drv, s.Options(targets.Options{Database: db}), ts.Text, OwnTexts(texts))
}

// OwnSeries is the values of the window and aggregate tests' dataset
// (OpenOwn, five rows): s_0 (DOUBLE) holds 1.5 .. 5.5 on d_0 and 10.5 ..
// 14.5 on d_1, s_1 (INT64) 0, 10 .. 40 on d_0 and 100 .. 140 on d_1, and
// s_2 (TEXT) says which row ("row 2"), but d_1's rows of d1Texts hold
// their text there.
func OwnSeries(d1Texts map[int64]string) func(d, j int, k int64) any {
	return func(d, j int, k int64) any {
		switch {
		case j == 0:
			return float64(d*9) + 1.5 + float64(k)
		case j == 1:
			return int64(d*100) + k*10
		}
		if text, ok := d1Texts[k]; ok && d == 1 {
			return text
		}
		return "row " + strconv.FormatInt(k, 10)
	}
}

// RunOwn runs text with args bound on r; an error ends the test.
func RunOwn(ctx context.Context, t testing.TB, r targets.StatementRunner, text string, args ...any) targets.Rows {
	t.Helper()
	rows, err := r.RunStatement(ctx, &targets.Statement{Text: text, Args: args})
	if err != nil {
		t.Fatalf("%s %v: %v", text, args, err)
	}
	return rows
}

// Answer is one of the user's own statements (Text, its bound Args, and
// At for a language that evaluates at an instant) and what it must
// answer: the rows Values, none when empty, every one counted, under the
// column names Columns when they are set.
type Answer struct {
	Text    string
	Args    []any
	At      time.Time
	Columns []string
	Values  [][]any
}

// Check runs a's statement on r and fails the test unless it answers a
// (values compared as reflect.DeepEqual does, but NaN equal to NaN); an
// error running it ends the test.
func (a Answer) Check(ctx context.Context, t testing.TB, r targets.StatementRunner) {
	t.Helper()
	got, err := r.RunStatement(ctx, &targets.Statement{Text: a.Text, Args: a.Args, At: a.At})
	if err != nil {
		t.Fatalf("%s %v: %v", a.Text, a.Args, err)
	}
	if got.Count != int64(len(a.Values)) || !SameValues(got.Values, a.Values) ||
		a.Columns != nil && !reflect.DeepEqual(got.Columns, a.Columns) {
		t.Errorf("%s %v:\n got %q %#v (count %d)\nwant %q %#v", a.Text, a.Args, got.Columns, got.Values, got.Count, a.Columns, a.Values)
	}
}

// Answers checks each of answers on r (Answer.Check).
func Answers(ctx context.Context, t testing.TB, r targets.StatementRunner, answers ...Answer) {
	t.Helper()
	for _, a := range answers {
		a.Check(ctx, t, r)
	}
}

// Checker is Answer.Check on r of a statement written whole (no bound
// values) and evaluated at at: the answer want under the columns cols
// when they are set.
func Checker(ctx context.Context, t testing.TB, r targets.StatementRunner) func(text string, at time.Time, cols []string, want [][]any) {
	return func(text string, at time.Time, cols []string, want [][]any) {
		t.Helper()
		Answer{Text: text, At: at, Columns: cols, Values: want}.Check(ctx, t, r)
	}
}

// Refused fails the test unless each of texts, run on r (evaluated at at),
// is an error.
func Refused(ctx context.Context, t testing.TB, r targets.StatementRunner, at time.Time, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if _, err := r.RunStatement(ctx, &targets.Statement{Text: text, At: at}); err == nil {
			t.Errorf("%s: no error", text)
		}
	}
}

// SameValues is reflect.DeepEqual of two answers' rows, but NaN equal to
// NaN and no rows equal to none.
func SameValues(got, want [][]any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return false
		}
		for j := range got[i] {
			g, gf := got[i][j].(float64)
			w, wf := want[i][j].(float64)
			if gf && wf && math.IsNaN(g) && math.IsNaN(w) {
				continue
			}
			if !reflect.DeepEqual(got[i][j], want[i][j]) {
				return false
			}
		}
	}
	return true
}

// Ident is a name Render writes at a {ident} by the language's Ident.
type Ident string

// Render writes each value into text at its {} as tsbench's templates do
// where a language binds nothing (lang.Literal), and each Ident at its
// {ident} (lang.Ident).
func Render(lang *targets.Language, text string, vals ...any) string {
	for _, v := range vals {
		if name, ok := v.(Ident); ok {
			text = strings.Replace(text, "{ident}", lang.Ident(string(name)), 1)
			continue
		}
		text = strings.Replace(text, "{}", lang.Literal(v), 1)
	}
	return text
}

// Literals are values and the literal a language writes for each.
type Literals []struct {
	In   any
	Want string
}

// Idents are names and the identifier a language writes for each.
type Idents []struct{ In, Want string }

// SQLLiterals are the literals of an SQL whose strings take no backslash
// escape (targets.SQLLiteral): a quote doubled, a backslash and a newline
// as they are.
var SQLLiterals = Literals{
	{int64(-42), "-42"},
	{1.5, "1.5"},
	{"plain", "'plain'"},
	{"it's", "'it''s'"},
	{`trailing\`, `'trailing\'`},
	{"new\nline", "'new\nline'"},
	{"", "''"},
}

// JSONLiterals are the literals of a language whose text is a JSON body
// (targets.JSONLiteral): numbers as they are, null for one JSON has no
// form for, strings quoted with quotes, backslashes and control
// characters escaped and nothing else (no HTML escapes).
var JSONLiterals = Literals{
	{int64(-42), "-42"},
	{1.5, "1.5"},
	{math.NaN(), "null"},
	{math.Inf(1), "null"},
	{math.Inf(-1), "null"},
	{"plain", `"plain"`},
	{`a"b`, `"a\"b"`},
	{`trailing\`, `"trailing\\"`},
	{"new\nline", `"new\nline"`},
	{"<&>", `"<&>"`},
	{"", `""`},
}

// Language is what a target's language must be: named Name, binding with
// Bind as its placeholder ("" where it binds nothing), writing each value
// of Literals as its literal (Literal) and each name of Idents as its
// identifier (Ident).
type Language struct {
	Name, Bind string
	Literals   Literals
	Idents     Idents
}

// Check fails the test unless drv's language is lang and lang is l.
func (l Language) Check(t testing.TB, drv *targets.Driver, lang *targets.Language) {
	t.Helper()
	if drv.Language != lang || lang.Name != l.Name || lang.Bind != l.Bind {
		t.Errorf("%s's language is %p named %q binding %q, want %p named %q binding %q",
			drv.Name, drv.Language, lang.Name, lang.Bind, lang, l.Name, l.Bind)
	}
	for _, c := range l.Literals {
		if got := lang.Literal(c.In); got != c.Want {
			t.Errorf("Literal(%#v) = %s, want %s", c.In, got, c.Want)
		}
	}
	for _, c := range l.Idents {
		if got := lang.Ident(c.In); got != c.Want {
			t.Errorf("Ident(%q) = %s, want %s", c.In, got, c.Want)
		}
	}
}
