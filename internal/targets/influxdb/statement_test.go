package influxdb

import (
	"context"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostile are parameter values that would change a statement's structure
// if written into it unescaped.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP DATABASE "tsbench_own"`, `ends with \`, "a\nb", `\'`, `''`}

// Literal and Ident write every value as one InfluxQL token.
func TestLanguageQuoting(t *testing.T) {
	lit := []struct {
		v    any
		want string
	}{
		{"d_0", `'d_0'`},
		{`x' OR '1'='1`, `'x\' OR \'1\'=\'1'`},
		{`a"b`, `'a"b'`},
		{`}{`, `'}{'`},
		{`;DROP`, `';DROP'`},
		{`ends with \`, `'ends with \\'`},
		{"a\nb", `'a\nb'`},
		{"", `''`},
		{int64(-42), `-42`},
		{1.5, `1.5`},
		{1e21, `1000000000000000000000`},
		{0.0001, `0.0001`},
		{Millis(1700000000123), `1700000000123ms`},
		{language.Time(time.UnixMilli(1700000000123)), `1700000000123ms`},
	}
	for _, c := range lit {
		if got := language.Literal(c.v); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
	ids := []struct{ name, want string }{
		{"s_0", `"s_0"`},
		{`a"b`, `"a\"b"`},
		{`x' OR '1'='1`, `"x' OR '1'='1"`},
		{`ends with \`, `"ends with \\"`},
		{"a\nb", `"a\nb"`},
	}
	for _, c := range ids {
		if got := language.Ident(c.name); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.name, got, c.want)
		}
	}
	if language.Name != "influxql" || language.Bind != "" || Driver.Language != language {
		t.Errorf("language %q, bind %q; the driver's is %p, want %p", language.Name, language.Bind, Driver.Language, language)
	}
}

// The user's own InfluxQL statements against the server of
// scripts/services/influxdb.sh: the answers to statements of known result
// (a selector, an aggregate, a window's rows, a GROUP BY on a tag), times
// as Unix milliseconds; hostile values written by Literal into string
// comparisons and by Ident as names match nothing, alone or two in a row,
// and leave the data as it was; a text value with quotes written by
// Literal matches its row; a bad statement is an error.
func TestRunStatement(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t0 := time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	s := &ts.Schema{Groups: []string{"g_0"},
		Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
		Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Int64}, {Name: "s_2", Type: ts.Text}},
		StartTime: t0, PointStep: 1000}
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_own"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	// d_0: s_0 1.5 .. 5.5, s_1 0, 10, .., 40; d_1: s_0 10.5 .. 14.5,
	// s_1 100 .. 140; s_2 says which row, one row of d_1 with quotes.
	for dev := range s.Devices {
		b := &ts.Batch{Device: &s.Devices[dev], Decimals: -1, Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Int64}, {Type: ts.Text}}}
		for k := int64(0); k < 5; k++ {
			b.Times = append(b.Times, t0+k*1000)
			b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(dev*9)+1.5+float64(k))
			b.Columns[1].Int64s = append(b.Columns[1].Int64s, int64(dev*100)+k*10)
			b.Columns[2].Texts = append(b.Columns[2].Texts, "row "+strconv.FormatInt(k, 10))
		}
		if dev == 1 {
			b.Columns[2].Texts[3] = `it's "q"`
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	run := conn.(*Target)
	lit, id := language.Literal, language.Ident
	ms := func(k int64) string { return lit(language.Time(time.UnixMilli(t0 + k*1000))) }
	check := func(text string, wantCols []string, want [][]any) {
		t.Helper()
		got, err := run.RunStatement(ctx, &targets.Statement{Text: text})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if want == nil {
			want = [][]any{}
		}
		if got.Values == nil {
			got.Values = [][]any{}
		}
		if got.Count != int64(len(got.Values)) || !reflect.DeepEqual(got.Values, want) ||
			wantCols != nil && !reflect.DeepEqual(got.Columns, wantCols) {
			t.Fatalf("%s:\n got %v %v (count %d)\nwant %v %v", text, got.Columns, got.Values, got.Count, wantCols, want)
		}
	}
	from := " FROM " + id("g_0")
	window := " AND time >= " + ms(0) + " AND time < " + ms(5)
	counts := func() {
		t.Helper()
		check("SELECT count("+id("s_0")+")"+from+" GROUP BY "+id("device"),
			[]string{"device", "time", "count"}, [][]any{{"d_0", int64(0), int64(5)}, {"d_1", int64(0), int64(5)}})
	}

	// A selector answers at its point's time, an aggregate at the
	// window's start.
	check("SELECT max("+id("s_0")+")"+from+" WHERE "+id("device")+" = "+lit("d_0")+window,
		[]string{"time", "max"}, [][]any{{t0 + 4000, 5.5}})
	check("SELECT sum("+id("s_1")+")"+from+" WHERE "+id("device")+" = "+lit("d_1")+window,
		[]string{"time", "sum"}, [][]any{{t0, int64(600)}})
	// The rows of a window.
	check("SELECT "+id("s_0")+", "+id("s_1")+from+" WHERE "+id("device")+" = "+lit("d_1")+
		" AND time >= "+ms(1)+" AND time < "+ms(3),
		[]string{"time", "s_0", "s_1"}, [][]any{{t0 + 1000, 11.5, int64(110)}, {t0 + 2000, 12.5, int64(120)}})
	// A GROUP BY series' tags come first.
	counts()
	// Two statements: the rows of both.
	check("SELECT last("+id("s_1")+")"+from+"; SELECT first("+id("s_1")+")"+from+" WHERE "+id("device")+" = "+lit("d_1"),
		[]string{"time", "last"}, [][]any{{t0 + 4000, int64(140)}, {t0, int64(100)}})
	// A text with quotes, written by Literal, is the value stored.
	check("SELECT "+id("s_1")+from+" WHERE "+id("s_2")+" = "+lit(`it's "q"`),
		nil, [][]any{{t0 + 3000, int64(130)}})

	for _, h := range hostile {
		check("SELECT "+id("s_0")+from+" WHERE "+id("device")+" = "+lit(h), nil, nil)
		check("SELECT "+id("s_0")+from+" WHERE "+id("s_2")+" = "+lit(h)+window, nil, nil)
		check("SELECT "+id(h)+from, nil, nil)
		for _, h2 := range hostile {
			check("SELECT "+id("s_0")+from+" WHERE "+id("device")+" = "+lit(h)+" OR "+id("s_2")+" = "+lit(h2), nil, nil)
		}
	}
	counts() // nothing was dropped

	for _, bad := range []string{"SELECT FROM", "SELECT " + id("s_0") + " FROM " + id("g_0") + " WHERE time > 'not a time'"} {
		if _, err := run.RunStatement(ctx, &targets.Statement{Text: bad}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
