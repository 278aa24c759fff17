package clickhouse

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// ownStart is the time of the own-query dataset's first row.
var ownStart = time.UnixMilli(1_700_000_000_000)

var ownTexts = [2][3]string{{"a0", "it's", `back\slash`}, {"b0", "b1", "tab\there"}}

// ownData sets up a small known dataset through the target's own Setup and
// Write: devices d_0 and d_1, sensors s_0 (DOUBLE) and s_1 (TEXT), three
// rows a second apart; d_0's s_0 holds 10.5, 11.5, 12.5 and d_1's 20.25,
// 21.25, 22.25; s_1 holds the texts of ownTexts.
func ownData(ctx context.Context, t *testing.T) *Target {
	t.Helper()
	server.Require(t)
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_own"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &ts.Schema{Database: "tsbench_own", Groups: []string{"g_0"},
		Devices:   []ts.Device{{Index: 0, Name: "d_0"}, {Index: 1, Name: "d_1"}},
		Sensors:   []ts.Sensor{{Name: "s_0", Type: ts.Double}, {Name: "s_1", Type: ts.Text}},
		StartTime: ownStart.UnixMilli(), PointStep: 1000}
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	for d := range s.Devices {
		b := &ts.Batch{Device: &s.Devices[d], Decimals: -1, Columns: []ts.Column{{Type: ts.Double}, {Type: ts.Text}}}
		for k := int64(0); k < 3; k++ {
			b.Times = append(b.Times, ownStart.UnixMilli()+k*1000)
			b.Rows = append(b.Rows, k)
			b.Columns[0].Doubles = append(b.Columns[0].Doubles, float64(10*(d+1))+float64(k)+0.5/float64(d+1))
			b.Columns[1].Texts = append(b.Columns[1].Texts, ownTexts[d][k])
		}
		if err := conn.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	return conn.(*Target)
}

// hostile are parameter values that would change a statement's structure
// if they were spliced into its text unquoted or badly quoted.
var hostile = []string{`x' OR '1'='1`, `a"b`, `}{`, `;DROP TABLE x`, `trailing\`, "new\nline",
	`\' OR 1=1 -- `, `\`, `''`, "tab\tnul\x00", "`points`"}

// render writes each value into text at its {} as tsbench's templates do
// where a language binds nothing (Language.Literal).
func render(text string, vals ...any) string {
	for _, v := range vals {
		text = strings.Replace(text, "{}", language.Literal(v), 1)
	}
	return text
}

func runOwn(ctx context.Context, t *testing.T, tg *Target, text string) targets.Rows {
	t.Helper()
	rows, err := tg.RunStatement(ctx, &targets.Statement{Text: text})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return rows
}

// A statement with its values written as literals answers exactly the
// points written, read by their column types.
func TestRunStatement(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	if Driver.Language != language || language.Name != "sql" || language.Bind != "" {
		t.Fatalf("Driver.Language = %+v", Driver.Language)
	}
	t0 := ownStart.UnixMilli()
	got := runOwn(ctx, t, tg, render(`SELECT t, v FROM points FINAL
		WHERE series IN (SELECT toUInt32(pos * 2) FROM devices FINAL WHERE device = {}) AND t >= {} ORDER BY t`,
		"d_1", language.Time(ownStart.Add(time.Second))))
	want := targets.Rows{Columns: []string{"t", "v"}, Count: 2,
		Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// A text holding a quote, a backslash or a tab finds its point.
	for d, texts := range ownTexts {
		for k, text := range texts {
			got = runOwn(ctx, t, tg, render("SELECT series, t, s FROM points FINAL WHERE s = {}", text))
			if want := [][]any{{int64(d*2 + 1), t0 + int64(k)*1000, text}}; !reflect.DeepEqual(got.Values, want) {
				t.Errorf("s = %q: got %#v, want %#v", text, got.Values, want)
			}
		}
	}
	// Every kind of column reads into Rows' normal form.
	var zone string
	if z := runOwn(ctx, t, tg, "SELECT timezone()"); len(z.Values) == 1 {
		zone, _ = z.Values[0][0].(string)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatalf("server zone %q: %v", zone, err)
	}
	got = runOwn(ctx, t, tg, render(`SELECT toUInt64(18446744073709551615) AS big, toUInt8(7) AS u, toInt32(-3) AS i,
		toNullable(toFloat64(1.5)) AS f, NULL AS n, toDateTime(intDiv({}, 1000)) AS dt,
		toDateTime(intDiv({}, 1000), 'Asia/Tokyo') AS dtz, toDate('2023-11-14') AS d, 'a\tb\\c' AS s, [1, 2] AS arr`, t0, t0))
	want = targets.Rows{Columns: []string{"big", "u", "i", "f", "n", "dt", "dtz", "d", "s", "arr"}, Count: 1,
		Values: [][]any{{float64(math.MaxUint64), int64(7), int64(-3), 1.5, nil, t0, t0,
			time.Date(2023, 11, 14, 0, 0, 0, 0, loc).UnixMilli(), "a\tb\\c", "[1,2]"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v,\nwant %#v", got, want)
	}
	// A negative number after a minus stays a number, not a comment.
	if got := runOwn(ctx, t, tg, render("SELECT 10 -{} AS x", int64(-5))); !reflect.DeepEqual(got.Values, [][]any{{int64(15)}}) {
		t.Errorf("10 -(-5): got %v", got.Values)
	}
	// A server error is an error, not rows.
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: "SELECT nosuchcolumn FROM points"}); err == nil ||
		!strings.Contains(err.Error(), "nosuchcolumn") {
		t.Errorf("a bad column: %v", err)
	}
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: "SELECT 1", Args: []any{int64(1)}}); err == nil {
		t.Errorf("bound values were accepted")
	}
}

// A hostile text parameter written by Literal is one value the comparison
// does not match: the statement succeeds with no rows, the value comes back
// as it was, and the data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := context.Background()
	tg := ownData(ctx, t)
	for _, h := range hostile {
		if got := runOwn(ctx, t, tg, render("SELECT t, v FROM points FINAL WHERE s = {}", h)); got.Count != 0 || len(got.Values) != 0 {
			t.Errorf("%s: got %v, want no rows", language.Literal(h), got.Values)
		}
		if got := runOwn(ctx, t, tg, render("SELECT series FROM points FINAL WHERE series IN (SELECT pos FROM devices FINAL WHERE device = {})", h)); got.Count != 0 {
			t.Errorf("%s: got %v, want no rows", language.Literal(h), got.Values)
		}
		if got := runOwn(ctx, t, tg, render("SELECT {} AS x", h)); !reflect.DeepEqual(got.Values, [][]any{{h}}) {
			t.Errorf("%q came back as %q", h, got.Values)
		}
	}
	got := runOwn(ctx, t, tg, "SELECT count() AS n FROM points FINAL")
	if want := [][]any{{int64(12)}}; !reflect.DeepEqual(got.Values, want) {
		t.Errorf("points after the hostile statements: %v, want %v", got.Values, want)
	}
}

// Literal and Ident write any value as one ClickHouse literal or
// identifier.
func TestLiteralIdent(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{int64(42), "42"},
		{int64(-42), "(-42)"},
		{1.5, "1.5"},
		{-1.5, "(-1.5)"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "(-inf)"},
		{math.NaN(), "nan"},
		{"plain", "'plain'"},
		{"it's", `'it\'s'`},
		{`trailing\`, `'trailing\\'`},
		{`\' OR 1=1 -- `, `'\\\' OR 1=1 -- '`},
		{"new\nline", "'new\nline'"},
		{"", "''"},
	} {
		if got := language.Literal(c.in); got != c.want {
			t.Errorf("Literal(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"points", "`points`"},
		{"a`b", "`a\\`b`"},
		{`a\`, "`a\\\\`"},
	} {
		if got := language.Ident(c.in); got != c.want {
			t.Errorf("Ident(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
