package iotdb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostile are parameter values that would change a statement's structure
// if written into it unescaped (or escaped as another SQL dialect would).
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP DATABASE root.**`, `ends with \`, "a\nb", `\'`, "a`b"}

// Literal and Ident write every value as one IoTDB token.
func TestLanguageQuoting(t *testing.T) {
	targettest.Language{Name: "iotdb", Bind: "", Literals: targettest.Literals{
		{"d_0", `'d_0'`},
		{`x' OR '1'='1`, `'x'' OR ''1''=''1'`},
		{`a"b`, `'a"b'`},
		{`}{`, `'}{'`},
		{`;DROP`, `';DROP'`},
		{`ends with \`, `'ends with \'`},
		{"a\nb", "'a\nb'"},
		{"", `''`},
		{int64(-42), `-42`},
		{1.5, `1.5`},
		{1e21, `1000000000000000000000`},
		{language.Time(time.UnixMilli(1700000000123)), `1700000000123`},
	}, Idents: targettest.Idents{
		{"s_0", "`s_0`"},
		{"a.b", "`a.b`"},
		{"a`b", "`a``b`"},
		{`x' OR '1'='1`, "`x' OR '1'='1`"},
		{"", "``"},
	}}.Check(t, Driver, language)
}

// The user's own statements against the server of scripts/services/iotdb.sh
// (inside scripts/netns-run): the answers to statements of known result (an
// aggregate, a window's rows with their times, ALIGN BY DEVICE), times as
// Unix milliseconds; text values with a quote and a backslash written by
// Literal match their rows, which shows the lexer reads no backslash
// escape; hostile values written by Literal into string comparisons and by
// Ident as path nodes match nothing, alone or two in a row, and leave the
// data as it was; a bad statement is an error.
func TestRunStatement(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	// d_0: s_0 1.5 .. 5.5, s_1 0 .. 40; d_1: s_0 10.5 .. 14.5,
	// s_1 100 .. 140; s_2 says which row, two rows of d_1 with a quote
	// and a backslash.
	quoted, backslash := `it's "q" \n`, `row 2 \`
	s := targettest.OwnSchema("", t0, ts.Double, ts.Int64, ts.Text)
	run := targettest.OpenOwn(ctx, t, Driver, targets.Options{Database: "own"}, s, 5,
		targettest.OwnSeries(map[int64]string{2: backslash, 3: quoted})).(*Target)
	lit, id := language.Literal, language.Ident
	ms := func(k int64) string { return lit(language.Time(time.UnixMilli(t0 + k*1000))) }
	dev := func(name string) string { return "root." + id("own") + "." + id("g_0") + "." + id(name) }
	check := func(text string, wantCols []string, want [][]any) {
		t.Helper()
		targettest.Answer{Text: text, Columns: wantCols, Values: want}.Check(ctx, t, run)
	}
	window := " WHERE time >= " + ms(0) + " AND time < " + ms(5)
	counts := func() {
		t.Helper()
		check("SELECT count("+id("s_0")+") FROM root."+id("own")+"."+id("g_0")+".* ALIGN BY DEVICE",
			[]string{"Device", "count(s_0)"}, [][]any{{"root.own.g_0.d_0", int64(5)}, {"root.own.g_0.d_1", int64(5)}})
	}

	check("SELECT max_value("+id("s_0")+") FROM "+dev("d_0")+window,
		[]string{"max_value(root.own.g_0.d_0.s_0)"}, [][]any{{5.5}})
	check("SELECT sum("+id("s_1")+") FROM "+dev("d_1")+window, nil, [][]any{{int64(600)}}) // a DOUBLE, whole: int64
	// The rows of a window, the time first.
	check("SELECT "+id("s_0")+", "+id("s_1")+" FROM "+dev("d_1")+" WHERE time >= "+ms(1)+" AND time < "+ms(3),
		[]string{"Time", "root.own.g_0.d_1.s_0", "root.own.g_0.d_1.s_1"},
		[][]any{{t0 + 1000, 11.5, int64(110)}, {t0 + 2000, 12.5, int64(120)}})
	counts()
	// Text values with a quote, a backslash and a backslash at the end:
	// each matches its row, also when a literal follows the one that ends
	// with a backslash.
	check("SELECT "+id("s_1")+" FROM "+dev("d_1")+" WHERE "+id("s_2")+" = "+lit(quoted), nil, [][]any{{t0 + 3000, int64(130)}})
	check("SELECT "+id("s_1")+" FROM "+dev("d_1")+" WHERE "+id("s_2")+" = "+lit(backslash)+" OR "+id("s_2")+" = "+lit("row 4"),
		nil, [][]any{{t0 + 2000, int64(120)}, {t0 + 4000, int64(140)}})

	for _, h := range hostile {
		check("SELECT "+id("s_0")+" FROM "+dev("d_1")+" WHERE "+id("s_2")+" = "+lit(h), nil, nil)
		if !strings.Contains(h, "\n") { // IoTDB refuses a control character in a node, even quoted
			check("SELECT "+id("s_0")+" FROM "+dev(h), nil, nil)
		}
		for _, h2 := range hostile {
			check("SELECT "+id("s_0")+" FROM "+dev("d_1")+" WHERE "+id("s_2")+" = "+lit(h)+" OR "+id("s_2")+" = "+lit(h2), nil, nil)
		}
	}
	counts() // nothing was deleted

	targettest.Refused(ctx, t, run, time.Time{}, "SELECT FROM", "SELECT "+id("s_0")+" FROM "+dev("d_0")+" WHERE time >= 'not a time'")
}
