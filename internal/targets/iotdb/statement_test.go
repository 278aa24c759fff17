package iotdb

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// hostile are parameter values that would change a statement's structure
// if written into it unescaped (or escaped as another SQL dialect would).
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP DATABASE root.**`, `ends with \`, "a\nb", `\'`, "a`b"}

// Literal and Ident write every value as one IoTDB token.
func TestLanguageQuoting(t *testing.T) {
	lit := []struct {
		v    any
		want string
	}{
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
	}
	for _, c := range lit {
		if got := language.Literal(c.v); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
	ids := []struct{ name, want string }{
		{"s_0", "`s_0`"},
		{"a.b", "`a.b`"},
		{"a`b", "`a``b`"},
		{`x' OR '1'='1`, "`x' OR '1'='1`"},
		{"", "``"},
	}
	for _, c := range ids {
		if got := language.Ident(c.name); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.name, got, c.want)
		}
	}
	if language.Name != "iotdb" || language.Bind != "" || Driver.Language != language {
		t.Errorf("language %q, bind %q; the driver's is %p, want %p", language.Name, language.Bind, Driver.Language, language)
	}
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
	s := &ts.Schema{Groups: []string{"g_0"},
		Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
		Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Int64}, {Name: "s_2", Type: ts.Text}},
		StartTime: t0, PointStep: 1000}
	conn, err := Driver.Open(ctx, targets.Options{Database: "own"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	// d_0: s_0 1.5 .. 5.5, s_1 0 .. 40; d_1: s_0 10.5 .. 14.5,
	// s_1 100 .. 140; s_2 says which row, two rows of d_1 with a quote
	// and a backslash.
	quoted, backslash := `it's "q" \n`, `row 2 \`
	for dev := range s.Devices {
		b := &ts.Batch{Device: &s.Devices[dev], Decimals: -1, Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Int64}, {Type: ts.Text}}}
		for k := int64(0); k < 5; k++ {
			b.Times = append(b.Times, t0+k*1000)
			b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(dev*9)+1.5+float64(k))
			b.Columns[1].Int64s = append(b.Columns[1].Int64s, int64(dev*100)+k*10)
			b.Columns[2].Texts = append(b.Columns[2].Texts, "row "+strconv.FormatInt(k, 10))
		}
		if dev == 1 {
			b.Columns[2].Texts[2], b.Columns[2].Texts[3] = backslash, quoted
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	run := conn.(*Target)
	lit, id := language.Literal, language.Ident
	ms := func(k int64) string { return lit(language.Time(time.UnixMilli(t0 + k*1000))) }
	dev := func(name string) string { return "root." + id("own") + "." + id("g_0") + "." + id(name) }
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
			t.Fatalf("%s:\n got %q %v (count %d)\nwant %q %v", text, got.Columns, got.Values, got.Count, wantCols, want)
		}
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

	for _, bad := range []string{"SELECT FROM", "SELECT " + id("s_0") + " FROM " + dev("d_0") + " WHERE time >= 'not a time'"} {
		if _, err := run.RunStatement(ctx, &targets.Statement{Text: bad}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
