package influxdb

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostile are parameter values that would change a statement's structure
// if written into it unescaped.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP DATABASE "tsbench_own"`, `ends with \`, "a\nb", `\'`, `''`}

// Literal and Ident write every value as one InfluxQL token.
func TestLanguageQuoting(t *testing.T) {
	targettest.Language{Name: "influxql", Bind: "", Literals: targettest.Literals{
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
	}, Idents: targettest.Idents{
		{"s_0", `"s_0"`},
		{`a"b`, `"a\"b"`},
		{`x' OR '1'='1`, `"x' OR '1'='1"`},
		{`ends with \`, `"ends with \\"`},
		{"a\nb", `"a\nb"`},
	}}.Check(t, Driver, language)
}

// The user's own InfluxQL statements against both releases of
// scripts/services: the answers to statements of known result
// (a selector, an aggregate, a window's rows, a GROUP BY on a tag), times
// as Unix milliseconds; hostile values written by Literal into string
// comparisons and by Ident as names match nothing, alone or two in a row,
// and leave the data as it was; a text value with quotes written by
// Literal matches its row; a bad statement is an error.
func TestRunStatement(t *testing.T) {
	targettest.EachServer(t, releases, runStatement)
}

func runStatement(t *testing.T, srv targettest.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t0 := time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	// d_0: s_0 1.5 .. 5.5, s_1 0, 10, .., 40; d_1: s_0 10.5 .. 14.5,
	// s_1 100 .. 140; s_2 says which row, one row of d_1 with quotes.
	run := targettest.OpenOwn(ctx, t, Driver, srv.Options(targets.Options{Database: "tsbench_own"}),
		targettest.OwnSchema("", t0, ts.Double, ts.Int64, ts.Text), 5, targettest.OwnSeries(map[int64]string{3: `it's "q"`})).(*Target)
	lit, id := language.Literal, language.Ident
	ms := func(k int64) string { return lit(language.Time(time.UnixMilli(t0 + k*1000))) }
	check := func(text string, wantCols []string, want [][]any) {
		t.Helper()
		targettest.Answer{Text: text, Columns: wantCols, Values: want}.Check(ctx, t, run)
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

	targettest.Refused(ctx, t, run, time.Time{}, "SELECT FROM", "SELECT "+id("s_0")+" FROM "+id("g_0")+" WHERE time > 'not a time'")
}
